"""A web page that shows a phone's screen and takes a person's clicks, drags, keys and typed text: sent to
a device (`masbench vphone view`, the same ADB path an agent uses, so a person can drive a virtual phone or
an emulator from a browser, e.g. to try a task or record a trajectory), or handed to whoever asks for them
(the `human` agent, which turns them into its actions and adds a Done button).

Endpoints: `GET /` the page; `GET /screen.png` the screen; `POST /tap?x=&y=`, `/swipe?x1=&y1=&x2=&y2=`,
`/key?name=back|home|enter`, `/type` (the request body is the text, UTF-8), `/done` (with the Done button).
Coordinates are device pixels: the page scales the click from the picture's displayed size.

The page drives a phone (a real one with `--device SERIAL`), so only the person it was printed for may use
it, as Jupyter does: every request carries the random token of the printed URL (`?token=`), and a request
is refused (403) when its Host is not this loopback address (DNS rebinding) or its Origin is another site
(a page elsewhere posting to us). State changes only by POST (a GET of them is 405); a malformed request,
a body that is not UTF-8 or one over `MAX_BODY` gets a 4xx saying why.
"""

from __future__ import annotations

import hmac
import html
import secrets
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
<img id="screen" src="/screen.png?token=TOKEN" draggable="false" alt="the phone's screen">
<div class="side"><b>SERIAL</b>
<button id="back">Back</button><button id="home">Home</button><button id="enter">Enter</button>
<input id="text" placeholder="text to type"><button id="send">Type</button>DONE
<span id="status">click to tap, drag to swipe</span></div>
<script>
const img = document.getElementById("screen"), status = document.getElementById("status"), token = "TOKEN";
let down = null;
function point(e) {
  const r = img.getBoundingClientRect();
  return [Math.round((e.clientX - r.left) * img.naturalWidth / r.width),
          Math.round((e.clientY - r.top) * img.naturalHeight / r.height)];
}
async function send(path, body) {
  const url = path + (path.includes("?") ? "&" : "?") + "token=" + token;
  const reply = await fetch(url, {method: "POST", body: body});
  status.textContent = path.split("?")[0].slice(1) + (reply.ok ? " ok" : " failed");
  refresh();
}
function refresh() { img.src = "/screen.png?token=" + token + "&t=" + Date.now(); }
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
ACTIONS = ("/tap", "/swipe", "/key", "/type", "/done")
MAX_BODY = 64 * 1024  # typed text; more is refused (413) before it is read
Handle = Callable[[str, dict[str, str], str], None]  # (path, query, body); KeyError/ValueError: malformed


def key_name(query: dict[str, str]) -> str:
    """The key a `/key` request names; ValueError for one the page does not have."""
    name = query["name"]
    if name not in ("back", "home", "enter"):
        raise ValueError(f"unknown key {name!r}")
    return name


class Viewer:
    """The page on a loopback port (`port`, 0 picks one), served from a thread: the screen from `screen`,
    each request to `handle`. `url` (with its token) is the address to print. `Viewer.of(device)` drives a
    device."""

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
        self.token = secrets.token_urlsafe(24)
        page = PAGE.replace("SERIAL", html.escape(title)).replace("DONE", DONE_BUTTON if done_button else "")
        page_bytes = page.replace("TOKEN", self.token).encode()
        viewer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = urlsplit(self.path).path
                if not viewer._admit(self, post=False):
                    return
                if path == "/":
                    viewer._reply(self, 200, "text/html; charset=utf-8", page_bytes)
                elif path == "/screen.png":
                    viewer._reply(self, 200, "image/png", viewer.screen())
                elif path in ACTIONS:
                    viewer._reply(self, 405, "text/plain", b"use POST", allow="POST")
                else:
                    viewer._reply(self, 404, "text/plain", b"not found")

            def do_POST(self) -> None:
                if not viewer._admit(self, post=True):
                    return
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items() if k != "token"}
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                except ValueError:
                    length = -1
                if not 0 <= length <= MAX_BODY:
                    code, why = (
                        (413, f"body over {MAX_BODY} bytes") if length > 0 else (400, "bad Content-Length")
                    )
                    viewer._reply(self, code, "text/plain", why.encode(), close=True)
                    return
                try:
                    body = self.rfile.read(length).decode("utf-8")
                    viewer.handle(url.path, query, body)
                except UnicodeDecodeError:
                    viewer._reply(self, 400, "text/plain", b"the body is not UTF-8 text")
                    return
                except (KeyError, ValueError) as exc:
                    viewer._reply(self, 400, "text/plain", f"bad request: {exc}".encode())
                    return
                viewer._reply(self, 204, "text/plain", b"")

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer((host, port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.origin = f"http://{host}:{self.port}"
        self._hosts = {f"{name}:{self.port}" for name in (host, "127.0.0.1", "localhost", "[::1]")}
        self.url = f"{self.origin}/?token={self.token}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="viewer", daemon=True)
        self._thread.start()

    def _admit(self, handler: BaseHTTPRequestHandler, *, post: bool) -> bool:
        """Whether a request may go on: this address in Host, no foreign Origin, the token; else a 403."""
        host = handler.headers.get("Host", "")
        origin = handler.headers.get("Origin")
        token = parse_qs(urlsplit(handler.path).query).get("token", [""])[0]
        if host not in self._hosts:
            why = f"Host {host!r} is not this viewer"
        elif origin is not None and origin != f"http://{host}":
            why = f"Origin {origin!r} is another site"
        elif post and handler.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            why = "a request from another site"
        elif not hmac.compare_digest(token.encode(), self.token.encode()):
            why = "missing or wrong token: open the address the command printed"
        else:
            return True
        self._reply(handler, 403, "text/plain", why.encode(), close=post)
        return False

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
    def _reply(
        handler: BaseHTTPRequestHandler,
        code: int,
        kind: str,
        data: bytes,
        *,
        allow: str | None = None,
        close: bool = False,
    ) -> None:
        """Send a whole response; `close` when a request body may be left unread on the connection."""
        handler.send_response(code)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(data)))
        handler.send_header("Cache-Control", "no-store")
        if allow:
            handler.send_header("Allow", allow)
        if close:
            handler.send_header("Connection", "close")
            handler.close_connection = True
        handler.end_headers()
        handler.wfile.write(data)

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
