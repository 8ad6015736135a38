"""Shortcuts (docs/formats.md): the KB schema, loading, call validation and the executor.

kb = load_kb()                                   # shortcuts_kb/*.yaml, or $MASBENCH_KB_DIR
print(kb["amazon.search_product"].signature())
record = ShortcutExecutor(kb, device).call("amazon.search_product", {"query": "shoes"})
"""

from .calls import BoundCall, CallError, coerce_cli_arguments, validate_call
from .executor import Ground, ShortcutExecutor
from .loader import KBError, default_kb_dir, load_kb
from .parameters import Parameter
from .records import CallRecord, ScriptStepRecord
from .schema import SHORTCUT_TYPES, KnowledgeBase, Shortcut, ShortcutType

__all__ = [
    "SHORTCUT_TYPES",
    "BoundCall",
    "CallError",
    "CallRecord",
    "Ground",
    "KBError",
    "KnowledgeBase",
    "Parameter",
    "ScriptStepRecord",
    "Shortcut",
    "ShortcutExecutor",
    "ShortcutType",
    "coerce_cli_arguments",
    "default_kb_dir",
    "load_kb",
    "validate_call",
]
