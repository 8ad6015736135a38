"""Record every model call of a live run to a JSONL file, and replay it exactly without a key or network.

Each line is one call: `{"key", "request", "response"}` (or `"error"` when the call failed for good - an
outage, a malformed reply, any exception - so a replay fails at the same point). The key is the sha256 of the canonical request: messages with images
reduced to their sha256 and size, plus the generation parameters. The model name is stored but not part of
the key, so a cassette replays under `--model cassette:PATH` whatever model recorded it. Lines are flushed
as they are written, so a crashed run keeps every call it paid for. A call whose line would exceed
`COMPRESS_OVER` (a huge reply or prompt, kept whole here though steps.jsonl and the report cut it) is
stored as `{"key", "zlib"}`: the same line, zlib-compressed and base64-encoded.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import threading
import zlib
from collections import defaultdict, deque
from pathlib import Path
from typing import Any, Self

from pydantic import BaseModel, ValidationError, model_validator

from masbench.llm.base import LLM, LLMConfigError, LLMError
from masbench.llm.types import Message, Response, last_user_text

COMPRESS_OVER = 64 * 1024  # characters of a cassette line; longer ones are stored compressed


class CassetteMissError(LLMError):
    """The replayed run asked something the recorded run did not (or asked it more often)."""


class Entry(BaseModel):
    key: str
    request: dict[str, Any]
    response: Response | None = None
    error: str | None = None

    @model_validator(mode="after")
    def _one_outcome(self) -> Self:
        if (self.response is None) == (self.error is None):
            raise ValueError("an entry holds exactly one of response or error")
        return self


def canonical_request(
    messages: list[Message], *, temperature: float, max_output_tokens: int | None
) -> dict[str, Any]:
    """The request as stored and hashed: everything that shapes the answer, images by content hash."""
    return {
        "messages": [
            {
                "role": m.role,
                "parts": [
                    {"text": p.text}
                    if p.image is None
                    else {
                        "image_sha256": hashlib.sha256(p.image).hexdigest(),
                        "bytes": len(p.image),
                        "mime_type": p.mime_type,
                    }
                    for p in m.parts
                ],
            }
            for m in messages
        ],
        "params": {"temperature": temperature, "max_output_tokens": max_output_tokens},
    }


def request_key(request: dict[str, Any]) -> str:
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


_FILE_LOCKS: dict[Path, threading.Lock] = {}
_FILE_LOCKS_GUARD = threading.Lock()


def _file_lock(path: Path) -> threading.Lock:
    """One lock per cassette file: the runner's workers each record through their own RecordingLLM."""
    with _FILE_LOCKS_GUARD:
        return _FILE_LOCKS.setdefault(path.resolve(), threading.Lock())


class RecordingLLM(LLM):
    """Wraps a live model and appends each call's outcome to `path`."""

    def __init__(self, inner: LLM, path: str | Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = _file_lock(self.path)

    def generate(
        self, messages: list[Message], *, temperature: float = 0.0, max_output_tokens: int | None = None
    ) -> Response:
        request = canonical_request(messages, temperature=temperature, max_output_tokens=max_output_tokens)
        key, stored = request_key(request), {"model": self.name, **request}
        try:
            response = self.inner.generate(
                messages, temperature=temperature, max_output_tokens=max_output_tokens
            )
        except LLMError as e:
            self._append(Entry(key=key, request=stored, error=str(e)))
            raise
        except Exception as e:  # a backend bug: still a call made (maybe paid for), so it is on record
            self._append(Entry(key=key, request=stored, error=f"{type(e).__name__}: {e}"))
            raise
        self._append(Entry(key=key, request=stored, response=response))
        return response

    def _append(self, entry: Entry) -> None:
        unused = {"error"} if entry.error is None else {"response"}
        line = entry.model_dump_json(exclude=unused)
        if len(line) > COMPRESS_OVER:
            packed = base64.b64encode(zlib.compress(line.encode("utf-8"))).decode("ascii")
            line = json.dumps({"key": entry.key, "zlib": packed})
        line += "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()


class CassetteLLM(LLM):
    """Replays a recording: each request gets the next recorded outcome for its key, in recorded order."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        entries = _load(self.path)
        models = [e.response.model for e in entries if e.response is not None]
        self.name = models[0] if models else f"cassette:{self.path}"
        self._pending: dict[str, deque[Entry]] = defaultdict(deque)
        for entry in entries:
            self._pending[entry.key].append(entry)
        self._recorded = {key: len(queue) for key, queue in self._pending.items()}
        self._lock = threading.Lock()

    def generate(
        self, messages: list[Message], *, temperature: float = 0.0, max_output_tokens: int | None = None
    ) -> Response:
        key = request_key(
            canonical_request(messages, temperature=temperature, max_output_tokens=max_output_tokens)
        )
        with self._lock:
            queue = self._pending.get(key)
            entry = queue.popleft() if queue else None
        if entry is None:
            raise CassetteMissError(self._describe_miss(key, messages))
        if entry.response is None:
            raise LLMError(entry.error)  # the live message, so a replayed run records the same failure
        return entry.response

    def _describe_miss(self, key: str, messages: list[Message]) -> str:
        seen = self._recorded.get(key, 0)
        why = f"it was recorded {seen} time(s) and all were replayed" if seen else "it was never recorded"
        return f"{self.path}: no recorded response for request {key[:16]} (user: {last_user_text(messages)!r}); {why}"


def _load(path: Path) -> list[Entry]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise LLMConfigError(f"cannot read cassette {path}: {e.strerror}") from None
    entries = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entries.append(Entry.model_validate_json(_unpacked(line)))
        except ValidationError as e:
            raise LLMConfigError(f"{path}:{number}: not a cassette entry: {e.errors()[0]['msg']}") from None
        except (ValueError, zlib.error) as e:
            raise LLMConfigError(f"{path}:{number}: a compressed entry that does not unpack: {e}") from None
    return entries


def _unpacked(line: str) -> str:
    """A compressed line's entry, as the line it was (any other line as it is)."""
    if not line.startswith('{"key"') or '"zlib"' not in line[:120]:
        return line
    packed = json.loads(line)
    try:
        return zlib.decompress(base64.b64decode(packed["zlib"], validate=True)).decode("utf-8")
    except binascii.Error as e:
        raise ValueError(str(e)) from None
