"""What goes into and comes out of a model call, independent of any backend.

Images are raw PNG/JPEG bytes in Python and standard base64 in JSON, so messages can be logged, hashed and
sent over any transport without each backend re-inventing the encoding.
"""

from __future__ import annotations

import base64
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    NonNegativeFloat,
    NonNegativeInt,
    PlainSerializer,
    model_validator,
)

from masbench.llm.prices import PriceTable, cost_usd

Role = Literal["system", "user", "model"]
ImageMime = Literal["image/png", "image/jpeg"]

_MAGIC: dict[bytes, ImageMime] = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}


def _b64decode(value: object) -> object:
    return base64.b64decode(value, validate=True) if isinstance(value, str) else value


ImageBytes = Annotated[
    bytes,
    BeforeValidator(_b64decode),
    PlainSerializer(lambda b: base64.b64encode(b).decode("ascii"), return_type=str, when_used="json"),
]


def sniff_mime(data: bytes) -> ImageMime:
    """The image type from its magic bytes; screenshots arrive as bytes without a name to guess from."""
    for magic, mime in _MAGIC.items():
        if data.startswith(magic):
            return mime
    raise ValueError(f"image is neither PNG nor JPEG (starts with {data[:8]!r}); pass mime_type explicitly")


class Part(BaseModel):
    """One piece of a message: either text or one image."""

    model_config = ConfigDict(frozen=True)

    text: str | None = None
    image: ImageBytes | None = None
    mime_type: ImageMime | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Self:
        if (self.text is None) == (self.image is None):
            raise ValueError("a part holds exactly one of text or image")
        if self.image is not None and self.mime_type is None:
            raise ValueError("an image part needs mime_type (image/png or image/jpeg)")
        return self

    @classmethod
    def from_text(cls, text: str) -> Part:
        return cls(text=text)

    @classmethod
    def from_image(cls, data: bytes, mime_type: ImageMime | None = None) -> Part:
        return cls(image=data, mime_type=mime_type or sniff_mime(data))


class Message(BaseModel):
    model_config = ConfigDict(frozen=True)

    role: Role
    parts: list[Part]

    @classmethod
    def user(cls, text: str, *images: bytes | Part) -> Message:
        """Text followed by images (raw bytes are sniffed as PNG or JPEG)."""
        parts = [Part.from_text(text)]
        parts += [img if isinstance(img, Part) else Part.from_image(img) for img in images]
        return cls(role="user", parts=parts)

    @classmethod
    def system(cls, text: str) -> Message:
        return cls(role="system", parts=[Part.from_text(text)])

    @classmethod
    def model(cls, text: str) -> Message:
        """A previous model turn, for few-shot examples or conversation history."""
        return cls(role="model", parts=[Part.from_text(text)])

    @property
    def text(self) -> str:
        """All text parts joined, for logs and error messages."""
        return "\n".join(p.text for p in self.parts if p.text is not None)

    @property
    def images(self) -> list[Part]:
        return [p for p in self.parts if p.image is not None]


def last_user_text(messages: list[Message], limit: int = 80) -> str:
    """The start of the latest user turn, on one line: how errors name the request they are about."""
    last = next((m for m in reversed(messages) if m.role == "user"), None)
    return " ".join(last.text.split())[:limit] if last else "(no user message)"


class Response(BaseModel):
    """One model answer with what it cost; latency is of the successful attempt, not of our backoff."""

    model_config = ConfigDict(frozen=True)

    text: str
    input_tokens: NonNegativeInt
    output_tokens: NonNegativeInt
    latency_s: NonNegativeFloat
    model: str
    raw: dict[str, Any] | None = None


class Usage(BaseModel):
    """Model calls made, summed over a step, an episode or a run. `cost_usd` is None once any call used a
    model without a price: an unknown cost is not counted as free."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = 0.0

    def add(self, response: Response, prices: PriceTable | None = None) -> None:
        self.calls += 1
        self.input_tokens += response.input_tokens
        self.output_tokens += response.output_tokens
        self.latency_s += response.latency_s
        cost = cost_usd(response.model, response.input_tokens, response.output_tokens, prices)
        self.cost_usd = None if cost is None or self.cost_usd is None else self.cost_usd + cost

    def merge(self, other: Usage) -> None:
        """Add another total (a step's into its episode's)."""
        self.calls += other.calls
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.latency_s += other.latency_s
        self.cost_usd = (
            None if other.cost_usd is None or self.cost_usd is None else self.cost_usd + other.cost_usd
        )

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens
