"""A web page that shows a phone's screen and takes a person's clicks, drags, keys and typed text: sent to
a device (`masbench vphone view`, the same ADB path an agent uses, so a person can drive a virtual phone or
an emulator from a browser, e.g. to try a task or record a trajectory), or handed to whoever asks for them
(the `human` agent, which turns them into its actions and adds a Done button).

Endpoints: `GET /` the page; `GET /screen.png` the screen; `POST /tap?x=&y=`, `/swipe?x1=&y1=&x2=&y2=`,
`/key?name=back|home|enter`, `/type` (the request body is the text, UTF-8), `/done` (with the Done button).
Coordinates are device pixels: the page scales the click from the picture's displayed size.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from .device import Device

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>masbench viewer</title><style>
body{margin:0;background:#202124;color:#e8eaed;font:14px system-ui,sans-serif;display:flex;gap:20px;padding:16px}
#screen{height:92vh;border-radius:18px;cursor:pointer;user-select:none}
.side{display:flex;flex-direction:column;gap:10px;min-width:220px}button,input{font-size:15px;padding:8px}
</style></head><body>
<img id="screen" src="/screen.png" draggable="false" alt="the phone's screen">
<div class="side"><b>SERIAL</b>
<button id="back">Back</button><button id="home">Home</button><button id="enter">Enter</button>
<input id="text" placeholder="text to type"><button id="send">Type</button>DONE
<span id="status">click to tap, drag to swipe</span></div>
<script>
const img = document.getElementById("screen"), status = document.getElementById("status");
let down = null;
function point(e) {
  const r = img.getBoundingClientRect();
  return [Math.round((e.clientX - r.left) * img.naturalWidth / r.width),
          Math.round((e.clientY - r.top) * img.naturalHeight / r.height)];
}
async function send(path, body) {
  const reply = await fetch(path, {method: "POST", body: body});
  status.textContent = path.split("?")[0].slice(1) + (reply.ok ? " ok" : " failed");
  refresh();
}
function refresh() { img.src = "/screen.png?t=" + Date.now(); }
img.addEventListener("mousedown", e => { down = point(e); });
img.addEventListener("mouseup", e => {
  if (!down) return;
  const [x1, y1] = down, [x2, y2] = point(e); down = null;
  if (Math.hypot(x2 - x1, y2 - y1) < 30) send(`/tap?x=${x1}&y=${y1}`);
  else send(`/swipe?x1=${x1}&y1=${y1}&x2=${x2}&y2=${y2}`);
});
for (const k of ["back", "home", "enter"]) document.getElementById(k).onclick = () => send(`/key?name=${k}`);
document.getElementById("send").onclick = () => {
  const box = document.getElementById("text"); send("/type", box.value); box.value = "";
};
const done = document.getElementById("done"); if (done) done.onclick = () => send("/done");
setInterval(refresh, 1500);
</script></body></html>"""


DONE_BUTTON = '<button id="done">Done: the task is complete</button>'
Handle = Callable[[str, dict[str, str], str], None]  # (path, query, body); KeyError/ValueError: malformed


def key_name(query: dict[str, str]) -> str:
    """The key a `/key` request names; ValueError for one the page does not have."""
    name = query["name"]
    if name not in ("back", "home", "enter"):
        raise ValueError(f"unknown key {name!r}")
    return name


class Viewer:
    """The page on a loopback port (`port`, 0 picks one), served from a thread: the screen from `screen`,
    each request to `handle`. `Viewer.of(device)` drives a device."""

    def __init__(
        self,
        screen: Callable[[], bytes],
        handle: Handle,
        title: str,
        *,
        done_button: bool = False,
        port: int = 0,
        host: str = "127.0.0.1",
    ) -> None:
        self.screen, self.handle = screen, handle
        page = PAGE.replace("SERIAL", title).replace("DONE", DONE_BUTTON if done_button else "").encode()
        viewer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = urlsplit(self.path).path
                if path == "/":
                    viewer._reply(self, 200, "text/html; charset=utf-8", page)
                elif path == "/screen.png":
                    viewer._reply(self, 200, "image/png", viewer.screen())
                else:
                    viewer._reply(self, 404, "text/plain", b"not found")

            def do_POST(self) -> None:
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8")
                try:
                    viewer.handle(url.path, query, body)
                except (KeyError, ValueError) as exc:
                    viewer._reply(self, 400, "text/plain", str(exc).encode())
                    return
                viewer._reply(self, 204, "text/plain", b"")

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer((host, port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.url = f"http://{host}:{self.port}/"
        self._thread = threading.Thread(target=self._server.serve_forever, name="viewer", daemon=True)
        self._thread.start()

    @classmethod
    def of(cls, device: Device, port: int = 0, host: str = "127.0.0.1") -> Viewer:
        """The page for a device: its live screen, each request carried out on it."""

        def act(path: str, query: dict[str, str], body: str) -> None:
            if path == "/tap":
                device.tap(int(query["x"]), int(query["y"]))
            elif path == "/swipe":
                device.swipe(int(query["x1"]), int(query["y1"]), int(query["x2"]), int(query["y2"]))
            elif path == "/key":
                getattr(device, key_name(query))()
            elif path == "/type":
                device.type_text(body)
            else:
                raise KeyError(path)

        return cls(device.screenshot_png, act, device.serial, port=port, host=host)

    @staticmethod
    def _reply(handler: BaseHTTPRequestHandler, code: int, kind: str, data: bytes) -> None:
        handler.send_response(code)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(data)))
        handler.send_header("Cache-Control", "no-store")
        handler.end_headers()
        handler.wfile.write(data)

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
