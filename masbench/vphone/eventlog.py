"""The phone's append-only event log entry, below the phone model so the renderer (toasts) and the
commands (logcat, boot tracking) read the log without importing the phone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Event:
    """One entry of the append-only event log (`cmd masbench events`)."""

    seq: int
    t_ms: int  # modelled device time since boot/reset
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "t_ms": self.t_ms, "kind": self.kind, **self.data}
