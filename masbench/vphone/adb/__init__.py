"""An ADB *host* ("smart-socket") server in front of virtual phones.

Stock adbutils, uiautomator2's adb paths and the real `adb` command line talk to this server exactly as
they talk to the adb daemon on port 5037, so the same controller code drives emulators and virtual phones
(docs/architecture.md, "The virtual phone").

* framing.py: length-prefixed requests, `OKAY`/`FAIL` replies and the limits against hostile clients;
* host.py: `host:*`, `host-serial:S:*` and friends: the device list, transport switches and forwards;
* shell.py: `shell:`, `shell,v2,...:`, `exec:` and the interactive shell;
* sync.py: the `sync:` file-transfer sub-protocol;
* server.py: `AdbServer` (phones, connection dispatch, thread/loop lifecycle) and `serve_phones`.
"""

from .framing import ProtocolError
from .host import FEATURES, SERVER_VERSION
from .server import AdbServer, serve_phones

__all__ = ["FEATURES", "SERVER_VERSION", "AdbServer", "ProtocolError", "serve_phones"]
