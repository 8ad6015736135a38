"""A model that answers from a script, for tests and demos that must not depend on a real model.

Token counts for scripted text are a deterministic estimate (4 characters per token; images by Gemini's
tile rule, `image_tokens.py`, as the paper's model bills them), so token metrics are non-zero and identical
on every run. A script file
(`--model scripted:PATH`) is a YAML or JSON list whose items are strings or
`{text, input_tokens?, output_tokens?, latency_s?}` objects.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, NonNegativeFloat, NonNegativeInt, ValidationError

from masbench.llm.base import LLM, LLMConfigError, LLMError
from masbench.llm.image_tokens import GEMINI_TOKENS, Family, image_size, image_tokens
from masbench.llm.types import Message, Response, last_user_text

CHARS_PER_TOKEN = 4
TOKENS_PER_IMAGE = GEMINI_TOKENS  # an image up to 384 px a side; a larger one costs this per 768-px tile


class ScriptedReply(BaseModel):
    """One scripted answer; token counts left out are estimated from the request and the text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    input_tokens: NonNegativeInt | None = None
    output_tokens: NonNegativeInt | None = None
    latency_s: NonNegativeFloat = 0.0


Reply = str | ScriptedReply | Response
Script = Sequence[Reply] | Callable[[list[Message]], Reply]


def _file_reply(path: str | Path, number: int, item: object) -> str | ScriptedReply:
    if isinstance(item, str):
        return item
    try:
        return ScriptedReply.model_validate(item)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(map(str, err["loc"])) or "reply"
        raise LLMConfigError(f"{path}: reply {number}: {where}: {err['msg']}") from None


def estimate_text_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def estimate_input_tokens(messages: list[Message], family: Family = "gemini") -> int:
    """Text at 4 characters a token, each image by `family`'s rule."""
    return sum(
        image_tokens(*image_size(p.image), family)
        if p.image is not None
        else estimate_text_tokens(p.text or "")
        for m in messages
        for p in m.parts
    )


class ScriptedLLM(LLM):
    """Answers each call with the next reply of a list, or with whatever a function returns for the messages.

    `requests` keeps every message list received, so tests can assert on what an agent sent.
    """

    def __init__(self, script: Script, *, name: str = "scripted") -> None:
        self.name = name
        self._script = script
        self.requests: list[list[Message]] = []

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedLLM:
        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as e:
            raise LLMConfigError(f"cannot read script {path}: {e}") from None
        if not isinstance(data, list):
            raise LLMConfigError(f"{path}: expected a list of replies (strings or {{text: ...}} objects)")
        return cls([_file_reply(path, number, item) for number, item in enumerate(data, 1)])

    def generate(
        self, messages: list[Message], *, temperature: float = 0.0, max_output_tokens: int | None = None
    ) -> Response:
        calls = len(self.requests)
        self.requests.append(list(messages))
        if callable(self._script):
            reply = self._script(messages)
        elif calls < len(self._script):
            reply = self._script[calls]
        else:
            raise LLMError(
                f"scripted model ran out of replies after {calls} call(s); "
                f"unanswered request (user: {last_user_text(messages)!r})"
            )
        return self._respond(reply, messages)

    def _respond(self, reply: Reply, messages: list[Message]) -> Response:
        if isinstance(reply, Response):
            return reply
        if isinstance(reply, str):
            reply = ScriptedReply(text=reply)
        return Response(
            text=reply.text,
            input_tokens=estimate_input_tokens(messages)
            if reply.input_tokens is None
            else reply.input_tokens,
            output_tokens=estimate_text_tokens(reply.text)
            if reply.output_tokens is None
            else reply.output_tokens,
            latency_s=reply.latency_s,
            model=self.name,
        )
