"""The shortcut knowledge base schema (docs/formats.md): `Shortcut`, its implementation
blocks, and `KnowledgeBase`, the loaded collection agents and the executor look shortcuts up in.

A `Shortcut` checks itself when built: the block for its type is present (and no other), parameter
names are unique, and every `{placeholder}` names a parameter. It fills its defaults from the app's
package: a deep link's `-p PKG`, an intent's package and the `expect` postcondition.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from masbench import catalog
from masbench.actions import Action, AnswerAction, FinishAction, Selector, ShortcutAction

from . import templates
from .parameters import IDENTIFIER, Parameter
from .steps import DynamicStep, RpaStep, ShortcutStep

ShortcutType = Literal["api", "deeplink", "rpa", "replay", "dynamic"]
SHORTCUT_TYPES: tuple[ShortcutType, ...] = get_args(ShortcutType)
ExtraType = Literal["string", "int", "long", "float", "bool"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DeeplinkImpl(_Strict):
    """`am start -W -a android.intent.action.VIEW -d URI -p PKG`. Placeholder values are URL-encoded.

    `optional_query` maps a query key to a value template; the pair is appended (`?`/`&`, key and
    filled value percent-encoded as a whole) only when every placeholder in the value is given.
    """

    uri: str = Field(min_length=1)
    optional_query: dict[str, str] = Field(default_factory=dict)
    package: str | None = None  # default: the app's package


class ExtraSpec(_Strict):
    """An intent extra with an explicit `am` type: `{value: "{start}", type: long}`. An int or long
    given a date or date-time (naive means UTC) receives epoch milliseconds, as Calendar's beginTime."""

    value: str | int | float | bool
    type: ExtraType


class ApiImpl(_Strict):
    """An intent: `am start` (kind activity) or `am broadcast`; `data` and extras may hold placeholders.

    An extra given as a bare `"{param}"` takes the parameter's type (integer → --ei, number → --ef,
    boolean → --ez, else --es); an extra whose placeholders are not all given is left out.
    """

    kind: Literal["activity", "broadcast"] = "activity"
    action: str | None = None
    data: str | None = None
    mime_type: str | None = None
    component: str | None = None  # "pkg/.Activity"
    package: str | None = None  # default: the app's package, unless a component is given; "" for none
    categories: list[str] = Field(default_factory=list)
    extras: dict[str, ExtraSpec | bool | int | float | str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _startable(self) -> ApiImpl:
        if self.kind == "broadcast" and not self.action:
            raise ValueError("a broadcast needs an action")
        if self.kind == "activity" and not (self.action or self.data or self.component):
            raise ValueError("an activity intent needs an action, data or a component")
        if self.component is not None and "/" not in self.component:
            raise ValueError(f"component {self.component!r} must be PACKAGE/ACTIVITY")
        return self


class RpaImpl(_Strict):
    steps: list[RpaStep] = Field(min_length=1)


# A generated shortcut is a recorded action list; past this length it is a trajectory, not a shortcut, and
# one call could stand in for a whole task.
MAX_REPLAY_ACTIONS = 25


class DynamicImpl(_Strict):
    steps: list[DynamicStep] = Field(min_length=1, max_length=MAX_REPLAY_ACTIONS)


class ReplayImpl(_Strict):
    """A recorded action list (index-, coordinate- or selector-based), replayed as is."""

    actions: list[Action] = Field(min_length=1, max_length=MAX_REPLAY_ACTIONS)

    @field_validator("actions")
    @classmethod
    def _replayable(cls, actions: list[Any]) -> list[Any]:
        for i, action in enumerate(actions):
            if isinstance(action, AnswerAction | FinishAction):
                raise ValueError(f"action {i}: {action.action!r} cannot be part of a replay")
        return actions


class Expect(_Strict):
    """Postcondition checked after the call, which succeeds only if it holds: this package is in front and,
    with `shows`, this element is on screen (its `{param}` placeholders filled from the call). `shows` is what
    tells a landed call from one that opened the app on an error page ("not found", an empty list), so the
    shortcut success rate (SSR) counts only calls that did what they promise."""

    package: str | None = Field(default=None, min_length=1)  # default: the shortcut's target package
    shows: Selector | None = None


class Precondition(_Strict):
    """The screen a shortcut must start from, checked before it acts: this package in front and, with
    `shows`, this element on screen. A mined subtask replay records the screen its first step acted on, so a
    call from another screen fails with the reason instead of replaying its actions on the wrong one."""

    package: str | None = Field(default=None, min_length=1)  # default: the shortcut's package
    shows: Selector | None = None


def _field_error(field: str, detail: str) -> PydanticCustomError:
    """An error the loader reports under `field` (model validators have no location of their own)."""
    return PydanticCustomError("kb_field", "{field}: {detail}", {"field": field, "detail": detail})


class Shortcut(_Strict):
    """One KB entry; `app` and `package` come from the file it is in."""

    app: str = Field(pattern=IDENTIFIER)
    name: str = Field(pattern=IDENTIFIER)
    package: str = ""  # default: the catalog's package for `app`
    type: ShortcutType
    description: str = Field(min_length=1)
    parameters: list[Parameter] = Field(default_factory=list)
    example: str | None = None
    verified: bool = True  # false: the real app's URI is not confirmed on a real device
    source: str | None = None
    deeplink: DeeplinkImpl | None = None
    api: ApiImpl | None = None
    rpa: RpaImpl | None = None
    replay: ReplayImpl | None = None
    dynamic: DynamicImpl | None = None
    expect: Expect | None = None  # explicit `expect: null` turns the default postcondition off
    precondition: Precondition | None = None  # the screen a call must start from (none: any screen)

    @model_validator(mode="after")
    def _complete(self) -> Shortcut:
        if not self.package:
            if self.app not in catalog.APPS:
                raise _field_error("package", f"app {self.app!r} is not in the catalog, so give its package")
            self.package = catalog.APPS[self.app].package
        article = "an" if self.type in ("api", "rpa") else "a"
        if getattr(self, self.type) is None:
            raise _field_error(self.type, f'{article} {self.type} shortcut needs its "{self.type}" block')
        for kind in SHORTCUT_TYPES:
            if kind != self.type and getattr(self, kind) is not None:
                raise _field_error(kind, f'{article} {self.type} shortcut cannot have a "{kind}" block')
        names = [p.name for p in self.parameters]
        for name in {n for n in names if names.count(n) > 1}:
            raise _field_error("parameters", f"parameter {name!r} is declared twice")
        self._check_templates()
        self._fill_defaults()
        return self

    def _check_templates(self) -> None:
        params = {p.name: p for p in self.parameters}
        always = {p.name for p in self.parameters if p.required or p.default is not None}
        known = ", ".join(params) or "none"
        fixed = {
            "api.action": self.api and self.api.action,
            "api.component": self.api and self.api.component,
            "api.package": self.api and self.api.package,
            "api.mime_type": self.api and self.api.mime_type,
            "deeplink.package": self.deeplink and self.deeplink.package,
        }
        for field, text in fixed.items():
            if text and templates.placeholders(text):
                raise _field_error(field, "placeholders are only filled in the URI, data and extras")
        for field, name in self._template_uses():
            if name not in params:
                raise _field_error(field, f"placeholder {{{name}}} is not a parameter (parameters: {known})")
            if field in ("deeplink.uri", "api.data") and name not in always:
                raise _field_error(
                    field,
                    f"placeholder {{{name}}} is optional without a default, so it cannot be part of "
                    + ("the URI; put it in optional_query" if field == "deeplink.uri" else "the data URI"),
                )

    def _template_uses(self) -> Iterator[tuple[str, str]]:
        """(field path, placeholder) for every template field of the implementation."""
        if self.deeplink is not None:
            yield from templates.walk(self.deeplink.uri, "deeplink.uri")
            yield from templates.walk(self.deeplink.optional_query, "deeplink.optional_query")
        if self.api is not None:
            yield from templates.walk(self.api.data or "", "api.data")
            extras = {k: v.value if isinstance(v, ExtraSpec) else v for k, v in self.api.extras.items()}
            yield from templates.walk(extras, "api.extras")
        for kind in ("rpa", "dynamic"):
            block = getattr(self, kind)
            for i, step in enumerate(block.steps if block is not None else []):
                if isinstance(step, ShortcutStep):
                    yield from templates.walk(step.call[1], f"{kind}.steps.{i}.shortcut")
                else:
                    yield from templates.walk(step.model_dump(by_alias=True), f"{kind}.steps.{i}")
        for i, action in enumerate(self.replay.actions if self.replay is not None else []):
            yield from templates.walk(action.model_dump(exclude={"action"}), f"replay.actions.{i}")
        if self.expect is not None and self.expect.shows is not None:
            yield from templates.walk(self.expect.shows.model_dump(exclude_none=True), "expect.shows")

    def _fill_defaults(self) -> None:
        if self.deeplink is not None and self.deeplink.package is None:
            self.deeplink.package = self.package
        if self.api is not None and self.api.package is None and self.api.component is None:
            self.api.package = self.package
        target = None
        if self.deeplink is not None:
            target = self.deeplink.package or self.package
        elif self.api is not None and self.api.kind == "activity":
            target = self.api.package or (self.api.component or "").split("/")[0] or self.package
        if self.expect is None and "expect" not in self.model_fields_set and target is not None:
            self.expect = Expect(package=target)
        elif self.expect is not None and self.expect.package is None:
            self.expect.package = target
        if self.precondition is not None and self.precondition.package is None:
            self.precondition.package = self.package

    # -- reading ----------------------------------------------------------------------------------
    @property
    def qualified_name(self) -> str:
        return f"{self.app}.{self.name}"

    @property
    def implementation(self) -> DeeplinkImpl | ApiImpl | RpaImpl | ReplayImpl | DynamicImpl:
        implementation: DeeplinkImpl | ApiImpl | RpaImpl | ReplayImpl | DynamicImpl = getattr(self, self.type)
        return implementation

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)

    def signature(self) -> str:
        """`amazon.search_product(query: string, brand?: string) — Open search results ...` for prompts."""
        params = ", ".join(p.signature() for p in self.parameters)
        return f"{self.qualified_name}({params}) — {self.description.strip()}"

    def nested_calls(self) -> list[tuple[str, str]]:
        """(field path, qualified name) of every shortcut this one calls."""
        found: list[tuple[str, str]] = []
        for kind in ("rpa", "dynamic"):
            block = getattr(self, kind)
            for i, step in enumerate(block.steps if block is not None else []):
                if isinstance(step, ShortcutStep):
                    found.append((f"{kind}.steps.{i}.shortcut", step.call[0]))
        for i, action in enumerate(self.replay.actions if self.replay is not None else []):
            if isinstance(action, ShortcutAction):
                found.append((f"replay.actions.{i}.name", action.name))
        return found


class KnowledgeBase:
    """The shortcuts an agent may call, by qualified name (`amazon.search_product`), in load order."""

    def __init__(self, shortcuts: Iterable[Shortcut] = (), sources: dict[str, Path] | None = None):
        self._by_name: dict[str, Shortcut] = {}
        for shortcut in shortcuts:
            if shortcut.qualified_name in self._by_name:
                raise ValueError(f"duplicate shortcut {shortcut.qualified_name}")
            self._by_name[shortcut.qualified_name] = shortcut
        self.sources = dict(sources or {})  # qualified name → the file it was loaded from

    def add(self, shortcut: Shortcut) -> None:
        """Add a shortcut learnt at run time (MobileAgent-E); executors holding this KB see it at once."""
        if shortcut.qualified_name in self._by_name:
            raise ValueError(f"shortcut {shortcut.qualified_name} already exists")
        self._by_name[shortcut.qualified_name] = shortcut

    def __len__(self) -> int:
        return len(self._by_name)

    def __iter__(self) -> Iterator[Shortcut]:
        return iter(self._by_name.values())

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Shortcut:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(self.unknown_message(name)) from None

    def __repr__(self) -> str:
        return f"KnowledgeBase({len(self)} shortcuts, apps={self.apps()})"

    @property
    def shortcuts(self) -> list[Shortcut]:
        return list(self._by_name.values())

    def get(self, name: str) -> Shortcut | None:
        return self._by_name.get(name)

    def unknown_message(self, name: str) -> str:
        close = difflib.get_close_matches(name, list(self._by_name), n=3, cutoff=0.8)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return f"unknown shortcut {name!r}{hint}"

    def apps(self) -> list[str]:
        return list(dict.fromkeys(s.app for s in self))

    def by_app(self, app: str) -> list[Shortcut]:
        return [s for s in self if s.app == app]

    def filter(self, apps: Iterable[str] | None = None, types: Iterable[str] | None = None) -> KnowledgeBase:
        """A KB with only these apps and/or types (None: all)."""
        app_set = set(apps) if apps is not None else None
        type_set = set(types) if types is not None else None
        kept = [
            s
            for s in self
            if (app_set is None or s.app in app_set) and (type_set is None or s.type in type_set)
        ]
        return KnowledgeBase(
            kept,
            {
                s.qualified_name: self.sources[s.qualified_name]
                for s in kept
                if s.qualified_name in self.sources
            },
        )

    def counts(self) -> dict[str, int]:
        """Shortcuts per type, in type order (api, deeplink, rpa, replay, dynamic), zeros left out."""
        counter = Counter(s.type for s in self)
        return {t: counter[t] for t in SHORTCUT_TYPES if counter[t]}
