"""Imports point one way: every module under masbench/ may import only its own layer or the layers below.

llm / catalog / data / trajectory / deadlines  <  device / emulator  <  actions  <  shortcuts  <  tasks  <  agents  <  eval  <  CLIs

`cli.py` modules are the top layer wherever they live. The virtual phone (`masbench/vphone`) stands
apart: it imports nothing from the rest of masbench, and only the device layer's seam that starts phones
(`masbench/device/vphones.py`) and the CLIs import it. Lazy imports inside functions and imports under
TYPE_CHECKING count too: a layer that needs an upper one's types has its code in the wrong place.

Inside the virtual phone the same rule holds over its own layers (`VPHONE_LAYERS`), and no two of its
modules import each other, directly or round a loop:

display & toolkit  <  app contract  <  system UI  <  phone model  <  apps  <  shell & commands  <  build
<  ADB / console / uiautomator servers, in-process driver  <  cli
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "masbench"
LAYERS = (
    {"llm", "catalog", "data", "trajectory", "deadlines"},
    {"device", "emulator"},
    {"actions"},
    {"shortcuts"},
    {"tasks"},
    {"agents"},
    {"eval"},
    {"generation"},
)
CLI_RANK = len(LAYERS)
VPHONE_SEAM = "masbench.device.vphones"
# The virtual phone's layers, by the name under masbench/vphone (a module or a package).
VPHONE_LAYERS = (
    # display geometry and frame, the view toolkit, intents, the file store, the event log
    {"display", "ui", "theme", "widgets", "icons", "pictures", "intents", "fs", "keyboard", "identity"}
    | {"uidump", "selection", "eventlog"},
    {"app"},  # the app contract (its `Phone` protocol is all it knows of the phone)
    {"render", "textmenu"},  # system UI drawn over the apps' windows
    {"phone"},  # the model: gets its apps and its shell handed in
    {"apps"},
    {"shell", "commands"},
    {"build"},  # puts a phone together: apps + shell
    {"adb", "adb_server", "console", "uiautomator", "direct"},  # the ways in: ADB, console, in-process
    {"cli"},
)
MODULES = sorted(p for p in ROOT.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def rank(module: str) -> int | None:
    """The layer of a masbench module; None for the package root and the virtual phone."""
    parts = module.split(".")
    if parts[-1] == "cli":
        return CLI_RANK
    if len(parts) < 2 or parts[1] == "vphone":
        return None
    return next(i for i, layer in enumerate(LAYERS) if parts[1] in layer)


def is_module(name: str) -> bool:
    path = ROOT.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def vphone_rank(module: str) -> int:
    """The layer of a module inside masbench/vphone (the package itself, which only documents, is the
    lowest)."""
    parts = module.split(".")
    if len(parts) < 3:
        return 0
    return next(i for i, layer in enumerate(VPHONE_LAYERS) if parts[2] in layer)


def imported(module: str, source: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module) for every masbench import in `source`, relative ones resolved."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            target = ".".join(filter(None, (base, node.module)))
            # `from masbench import catalog` or `from . import render` imports a module, not its package
            found += [
                (node.lineno, f"{target}.{a.name}" if is_module(f"{target}.{a.name}") else target)
                for a in node.names
            ]
    return [(line, name) for line, name in found if name.startswith("masbench.")]


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    own = rank(module)
    in_vphone = module.startswith("masbench.vphone")
    found = []
    for line, target in imported(module, source, is_package):
        where = f"{module}:{line} imports {target}"
        if target.startswith("masbench.vphone"):
            if not in_vphone and own != CLI_RANK and module != VPHONE_SEAM:
                found.append(f"{where}: only {VPHONE_SEAM} and CLIs may start virtual phones")
            elif in_vphone and vphone_rank(target) > vphone_rank(module):
                found.append(f"{where}: upward import inside the virtual phone")
        elif in_vphone and own != CLI_RANK:
            found.append(f"{where}: the virtual phone imports nothing from the rest of masbench")
        elif own is not None and (theirs := rank(target)) is not None and theirs > own:
            found.append(f"{where}: upward import")
    return found


def test_every_package_has_a_layer():
    packages = {p.relative_to(ROOT).parts[0].removesuffix(".py") for p in MODULES} - {
        "__init__",
        "vphone",
        "cli",
    }
    assert packages <= set().union(*LAYERS)


def test_the_checker_sees_upward_and_vphone_imports():
    assert violations("masbench.tasks.judge", "from masbench.eval.records import StepRecord\n")
    assert violations("masbench.agents.base", "if TYPE_CHECKING:\n    from ..eval import records\n")
    assert violations(
        "masbench.device.apps", "def f():\n    from masbench.vphone.phone import VirtualPhone\n"
    )
    assert violations("masbench.vphone.apps.chrome", "from masbench import catalog\n")
    assert not violations("masbench.vphone.apps.chrome", "from ..identity import identity\n")
    assert not violations(
        "masbench.eval.episode", "from masbench.tasks import Task\nfrom .records import X\n"
    )
    assert not violations("masbench.vphone.cli", "from masbench.device import start_virtual_phones\n")


def test_the_checker_sees_upward_imports_inside_the_virtual_phone():
    assert violations("masbench.vphone.phone", "def f():\n    from .apps import default_apps\n")
    assert violations("masbench.vphone.render", "if TYPE_CHECKING:\n    from .phone import VirtualPhone\n")
    assert violations("masbench.vphone.commands.system", "from .. import uiautomator\n")
    assert violations("masbench.vphone.apps.contacts.app", "from ...commands import content\n")
    assert not violations(
        "masbench.vphone.build", "from .shell import run_shell\nfrom .apps import APP_CLASSES\n"
    )
    assert not violations("masbench.vphone.apps.maps.explore", "from ...display import HEIGHT\n")


def test_every_vphone_module_has_a_layer():
    names = {
        module_name(p).split(".")[2]
        for p in MODULES
        if module_name(p).count(".") >= 2 and "vphone" in p.parts
    }
    assert names <= set().union(*VPHONE_LAYERS)


def test_the_virtual_phone_has_no_import_cycles():
    """Ranks only order layers; within one (the toolkit, the commands, an app's package) modules must
    not import each other round a loop either."""
    graph = {
        module_name(p): vphone_imports(p) for p in MODULES if module_name(p).startswith("masbench.vphone")
    }
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(module) :], module]))
        if module not in done:
            for target in sorted(graph[module]):
                visit(target, [*path, module])
            done.add(module)

    for module in sorted(graph):
        visit(module, [])


def vphone_imports(path: Path) -> set[str]:
    """The vphone modules `path` imports (a `from X import name` of a non-module name counts as X)."""
    module = module_name(path)
    found = set()
    for _, target in imported(module, path.read_text(encoding="utf-8"), path.name == "__init__.py"):
        if target.startswith("masbench.vphone") and target != module and is_module(target):
            found.add(target)
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_upward_imports(path):
    source = path.read_text(encoding="utf-8")
    assert violations(module_name(path), source, path.name == "__init__.py") == []
