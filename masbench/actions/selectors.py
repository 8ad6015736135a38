"""Selectors ground a target on the current screen by what it says, never by raw coordinates, so a
reference solution or an RPA script survives layout changes and runs the same on a real device."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import regex
from pydantic import BaseModel, ConfigDict, model_validator

if TYPE_CHECKING:
    from masbench.device import UIElement


# A model writes `text_regex` patterns, and one like `^(.*.*)*#$` backtracks for minutes on a long text:
# each match may take this long before the selector fails.
REGEX_TIMEOUT_S = 0.05


class SelectorError(LookupError):
    """No element (or not enough elements) matched a selector, or its pattern was too slow to match."""


class Selector(BaseModel):
    """Match on any combination of fields; all given fields must match. `nth` picks among matches
    (0-based, document order; negative counts from the end)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str | None = None
    text_contains: str | None = None
    text_regex: str | None = None
    resource_id: str | None = None  # full "pkg:id/name" or just "name"
    content_desc: str | None = None
    desc_contains: str | None = None
    cls: str | None = None  # full class name or its last part ("Button")
    clickable: bool | None = None
    checked: bool | None = None
    nth: int = 0

    @model_validator(mode="after")
    def _not_empty(self) -> Selector:
        fields = self.model_dump(exclude={"nth"}, exclude_none=True)
        if not fields:
            raise ValueError(
                "a selector needs at least one of text, text_contains, text_regex, resource_id, content_desc, desc_contains, cls, clickable, checked"
            )
        if self.text_regex is not None:
            try:
                regex.compile(self.text_regex)
            except regex.error as exc:
                raise ValueError(f"text_regex {self.text_regex!r} is not a valid pattern: {exc}") from None
        return self

    def matches(self, el: UIElement) -> bool:
        text, desc = el.text or "", el.content_desc or ""
        if self.text is not None and text != self.text and not (not text and desc == self.text):
            return False
        if self.text_contains is not None and self.text_contains.lower() not in (text + " " + desc).lower():
            return False
        if self.text_regex is not None and not _search(self.text_regex, text):
            return False
        if self.resource_id is not None:
            rid = el.resource_id or ""
            if rid != self.resource_id and rid.rsplit("/", 1)[-1] != self.resource_id:
                return False
        if self.content_desc is not None and desc != self.content_desc:
            return False
        if self.desc_contains is not None and self.desc_contains.lower() not in desc.lower():
            return False
        if self.cls is not None and el.cls != self.cls and el.cls.rsplit(".", 1)[-1] != self.cls:
            return False
        if self.clickable is not None and el.clickable != self.clickable:
            return False
        return self.checked is None or el.checked == self.checked

    def describe(self) -> str:
        return ", ".join(
            f"{k}={v!r}" for k, v in self.model_dump(exclude_none=True).items() if not (k == "nth" and v == 0)
        )


def _search(pattern: str, text: str) -> bool:
    try:
        return regex.search(pattern, text, timeout=REGEX_TIMEOUT_S) is not None
    except TimeoutError:
        raise SelectorError(
            f"text_regex {pattern!r} took over {REGEX_TIMEOUT_S} s on one text; use a simpler pattern"
        ) from None


def select(selector: Selector, elements: list[UIElement]) -> UIElement:
    """The element a selector designates, or SelectorError naming the selector."""
    found = [el for el in elements if selector.matches(el)]
    try:
        return found[selector.nth]
    except IndexError:
        raise SelectorError(f"no element matches {selector.describe()} ({len(found)} matched)") from None


class _Designation(TypedDict, total=False):
    """The fields `selector_for` tries, in turn, to designate an element (None: the element lacks it)."""

    resource_id: str | None
    text: str | None
    content_desc: str | None
    cls: str
    clickable: bool


def selector_for(element: UIElement, elements: list[UIElement]) -> Selector:
    """The simplest selector (id, text, both, description, else class) that designates `element` among
    `elements`, with `nth` when none is unique: how a recorded tap becomes one that survives layout changes."""
    rid = element.resource_id.rsplit("/", 1)[-1] or None
    options: list[_Designation] = [
        {"resource_id": rid},
        {"text": element.text or None},
        {"resource_id": rid, "text": element.text or None},
        {"content_desc": element.content_desc or None},
        {"cls": element.short_class, "clickable": element.clickable},
    ]
    candidates = []
    for fields in options:
        if any(v is None for v in fields.values()):
            continue
        selector = Selector(**fields)
        matching = [e.index for e in elements if selector.matches(e)]
        if matching == [element.index]:
            return selector
        candidates.append(Selector(**fields, nth=matching.index(element.index)))
    return candidates[0]
