"""Typed shortcut parameters, and the one function that decides whether a value fits one.

Used when a KB file is loaded (defaults, enums, examples) and when a call is validated, so the two can
never disagree. The checks are strict - `"100"` is not an integer - because an ill-typed argument must
fail before the device is touched; the CLI converts its `k=v` strings first (`calls.coerce_cli_arguments`).
"""

from __future__ import annotations

import json
import math
import re
from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ParamType = Literal["string", "integer", "number", "boolean", "date", "time", "datetime"]
IDENTIFIER = r"^[A-Za-z_][A-Za-z0-9_]*$"

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d")
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?")
EXPECTED = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "date": "a date YYYY-MM-DD",
    "time": "a time HH:MM",
    "datetime": "an ISO 8601 date-time such as 2025-06-02T09:30 or 2025-06-02T09:30:00+00:00",
}


def show(value: Any) -> str:
    """A value as it reads in a call: strings in double quotes, booleans as true/false."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def check_type(ptype: str, value: Any) -> Any:
    """`value` as the declared type (an integral float becomes an int); ValueError if it does not fit."""
    if ptype == "string" and isinstance(value, str):
        return value
    if ptype == "integer" and not isinstance(value, bool):
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if ptype == "number" and number and math.isfinite(value):
        return value
    if ptype == "boolean" and isinstance(value, bool):
        return value
    if ptype == "date":
        if isinstance(value, date) and not isinstance(value, datetime):
            return value.isoformat()
        if isinstance(value, str) and _DATE.fullmatch(value) and _parses(date.fromisoformat, value):
            return value
    if ptype == "time" and isinstance(value, str) and _TIME.fullmatch(value):
        return value
    if ptype == "datetime":
        if isinstance(value, datetime):
            return value.isoformat()
        if isinstance(value, str) and _DATETIME.fullmatch(value) and _parses(datetime.fromisoformat, value):
            return value
    raise ValueError(f"must be {EXPECTED[ptype]}, got {show(value)}")


def _parses(parse: Any, text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


class Parameter(BaseModel):
    """One named argument of a shortcut. Optional unless `required`; a `default` fills an omitted one."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=IDENTIFIER)
    type: ParamType = "string"
    required: bool = False
    default: Any = None
    enum: list[Any] | None = Field(None, min_length=1)
    description: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Parameter:
        if self.required and self.default is not None:
            raise ValueError(f"parameter {self.name!r} is required, so it cannot have a default")
        if self.enum is not None:
            self.enum = [check_type(self.type, v) for v in self.enum]
        if self.default is not None:
            self.default = self.check(self.default)
        return self

    def check(self, value: Any) -> Any:
        """The value as the declared type, inside the enum; ValueError saying what is expected."""
        value = check_type(self.type, value)
        if self.enum is not None and value not in self.enum:
            raise ValueError(f"must be one of {', '.join(show(v) for v in self.enum)}, got {show(value)}")
        return value

    def signature(self) -> str:
        """`sort?: "featured"|"price_asc" = "featured"` - how the parameter reads in prompts."""
        kind = "|".join(show(v) for v in self.enum) if self.enum else self.type
        text = f"{self.name}{'' if self.required else '?'}: {kind}"
        return text if self.default is None else f"{text} = {show(self.default)}"
