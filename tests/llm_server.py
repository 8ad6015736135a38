"""A local model server for tests: answers POSTs with queued replies (status, JSON body, headers, delay) and
keeps every request it saw, so backends and the episode loop meet real HTTP failures without a network."""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class FakeServer:
    """Answers POSTs with queued replies, in order, and keeps every request it saw."""

    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.seen: list[Seen] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.seen.append(Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                reply = fake.replies.popleft() if fake.replies else Reply(500, {"error": "no reply queued"})
                time.sleep(reply.delay_s)
                data = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    for name, value in {"Content-Type": "application/json", **reply.headers}.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up waiting (timeout test)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"

    def queue(self, *replies: Reply) -> None:
        self.replies.extend(replies)


def openai_ok(text: str, prompt: int = 0, output: int = 0, thoughts: int | None = None) -> Reply:
    return Reply(
        body={
            "id": "chatcmpl-1",
            "model": "served-model",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": prompt, "completion_tokens": output, "total_tokens": prompt + output},
        }
    )
