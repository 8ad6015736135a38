"""No web page can drive the phone behind `masbench vphone view` or the `human` agent's page: every request
needs the token of the printed URL, a foreign Host (DNS rebinding) or Origin (a cross-site POST) is refused,
state changes only by POST, and bad bodies (not UTF-8, too long, a bad length) get a 4xx, never a dropped
connection. The viewer here drives a recorder instead of a phone, so each refusal is seen to change nothing."""

from __future__ import annotations

import http.client
from collections.abc import Iterator

import pytest

from masbench.device.viewer import MAX_BODY, Viewer


@pytest.fixture
def viewer() -> Iterator[Viewer]:
    seen: list[tuple[str, dict[str, str], str]] = []

    def handle(path: str, query: dict[str, str], body: str) -> None:
        if path not in ("/tap", "/type", "/done"):
            raise KeyError(path)
        int(query.get("x", "0"))
        seen.append((path, query, body))

    v = Viewer(lambda: b"\x89PNG fake", handle, "test", done_button=True)
    v.seen = seen  # type: ignore[attr-defined]
    yield v
    v.stop()


def request(
    v: Viewer, method: str, path: str, body: bytes = b"", token: bool = True, **headers: str
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", v.port, timeout=10)
    if token:
        path += ("&" if "?" in path else "?") + f"token={v.token}"
    conn.putrequest(method, path, skip_host="Host" in headers, skip_accept_encoding=True)
    for name, value in headers.items():
        conn.putheader(name.replace("_", "-"), value)
    if method == "POST":
        conn.putheader("Content-Length", headers.get("Content_Length", str(len(body))))
    conn.endheaders(body if "Content_Length" not in headers else None)
    reply = conn.getresponse()
    data = reply.read()
    conn.close()
    return reply.status, data


def test_the_printed_url_carries_a_random_token_and_opens_the_page(viewer):
    assert viewer.url == f"http://127.0.0.1:{viewer.port}/?token={viewer.token}" and len(viewer.token) >= 32
    other = Viewer(lambda: b"", lambda *a: None, "other")
    other.stop()
    assert other.token != viewer.token
    status, page = request(viewer, "GET", "/")
    assert status == 200 and viewer.token.encode() in page  # the page's own requests carry it
    assert request(viewer, "GET", "/screen.png") == (200, b"\x89PNG fake")
    assert request(viewer, "POST", "/tap?x=1&y=2")[0] == 204
    assert viewer.seen == [("/tap", {"x": "1", "y": "2"}, "")]  # the token is not part of the action


@pytest.mark.parametrize(
    ("method", "path", "token", "headers"),
    [
        ("GET", "/", False, {}),
        ("GET", "/screen.png", False, {}),
        ("POST", "/done", False, {}),
        ("GET", "/screen.png?token=wrong", False, {}),
        ("GET", "/screen.png", True, {"Host": "attacker.example:80"}),  # DNS rebinding
        ("POST", "/done", True, {"Host": "evil.example"}),
        ("POST", "/done", True, {"Origin": "http://evil.example"}),  # a cross-site form or fetch
        ("POST", "/done", True, {"Origin": "null"}),
        ("POST", "/done", True, {"Sec_Fetch_Site": "cross-site"}),
    ],
)
def test_a_stranger_is_refused_and_nothing_happens(viewer, method, path, token, headers):
    status, why = request(viewer, method, path, token=token, **headers)
    assert status == 403 and why
    assert viewer.seen == []


def test_its_own_origin_and_localhost_are_welcome(viewer):
    local = f"localhost:{viewer.port}"
    assert request(viewer, "POST", "/done", Host=local, Origin=f"http://{local}")[0] == 204
    assert request(viewer, "POST", "/done", Origin=viewer.origin, Sec_Fetch_Site="same-origin")[0] == 204


def test_state_changes_only_by_post(viewer):
    for path in ("/tap?x=1&y=2", "/done", "/type"):
        assert request(viewer, "GET", path)[0] == 405
    assert request(viewer, "GET", "/nowhere")[0] == 404
    assert viewer.seen == []


@pytest.mark.parametrize(
    ("path", "body", "headers", "expected"),
    [
        ("/type", b"\xff\xfe not utf-8", {}, 400),
        ("/type", b"x" * (MAX_BODY + 1), {}, 413),
        ("/type", b"", {"Content_Length": "-5"}, 400),
        ("/type", b"", {"Content_Length": "lots"}, 400),
        ("/tap?x=oops", b"", {}, 400),
        ("/nowhere", b"", {}, 400),
    ],
)
def test_a_bad_request_gets_a_clear_4xx(viewer, path, body, headers, expected):
    status, why = request(viewer, "POST", path, body, **headers)
    assert status == expected and why
    assert viewer.seen == []
    assert request(viewer, "POST", "/type", "héllo\n".encode())[0] == 204  # the server still serves
    assert viewer.seen == [("/type", {}, "héllo\n")]
