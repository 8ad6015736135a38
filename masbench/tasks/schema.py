"""The task model (docs/formats.md): one YAML entry of `tasks/*/*.yaml`, validated once when
it loads, so the player, the checks and the runner trust it.

Field order matters to the validators: `optimal_steps` and `near_misses` come after `solutions` so that
their validators can compare against the solutions and report the error on their own field.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    computed_field,
    field_validator,
    model_serializer,
    model_validator,
)

from masbench.actions import Action, is_gui
from masbench.catalog import APPS

from . import ops


def _known_app(name: str) -> str:
    if name not in APPS:
        raise ValueError(f"unknown app {name!r}; known: {', '.join(APPS)}")
    return name


AppName = Annotated[str, AfterValidator(_known_app)]


def _frame_pattern(pattern: str) -> str:
    """A `may_change` path: an app's short name (or `settings`, `phone`), then keys or `*`."""
    app, _, rest = pattern.partition(".")
    if app not in ("settings", "phone"):
        _known_app(app)
    if not rest or "" in rest.split("."):
        raise ValueError(f"{pattern!r} must be APP.PATH, with `*` for any one key or item")
    return pattern


FramePattern = Annotated[str, AfterValidator(_frame_pattern)]
Cond = Annotated[dict[str, Any], BeforeValidator(ops.normalize)]


def _count(value: Any) -> dict[str, Any]:
    if isinstance(value, int) and not isinstance(value, bool):
        return {"eq": value}
    if isinstance(value, dict):
        return ops.validate_ops(value)
    raise ValueError(f"must be a number or ops such as {{gte: 1}}, got {value!r}")


Count = Annotated[dict[str, Any], BeforeValidator(_count)]


def _task_id(value: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", value):
        raise ValueError(
            f"{value!r} must be letters, digits, '-', '_' or '.' (it is used in subset lists and paths)"
        )
    return value


TaskId = Annotated[str, AfterValidator(_task_id)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class _InlineOps(_Strict):
    """A leaf written with its ops inline (`value: {app, path, gte: 3}`), kept as `ops` inside."""

    ops: Annotated[dict[str, Any], AfterValidator(ops.validate_ops)]

    @model_validator(mode="before")
    @classmethod
    def _inline(cls, data: Any) -> Any:
        return _split_ops(data, tuple(f for f in cls.model_fields if f != "ops"))

    @model_serializer(mode="wrap")
    def _flat(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        return {**{k: v for k, v in data.items() if k != "ops"}, **data.get("ops", {})}


def _split_ops(data: Any, fields: tuple[str, ...]) -> Any:
    """Move inline ops (`value: {app, path, gte: 3}`) into `ops`, leaving other keys to be checked."""
    if not isinstance(data, dict) or "ops" in data:
        return data
    inline = {k: v for k, v in data.items() if k in ops.OPS}
    rest = {k: v for k, v in data.items() if k not in ops.OPS}
    if not inline and set(rest) <= set(fields):
        raise ValueError(f"needs at least one op: {', '.join(ops.OPS)}")
    return {**rest, "ops": inline}


# -- checks --------------------------------------------------------------------------------------------
class ItemsSpec(_Strict):
    """The list at `path` has `count` elements matching every `where` field."""

    app: AppName
    path: str = Field(min_length=1)
    where: dict[str, Cond] = Field(default_factory=dict)
    count: Count = Field(default_factory=lambda: {"gte": 1})


class ValueSpec(_InlineOps):
    """The value at `path` satisfies the ops."""

    app: AppName
    path: str = Field(min_length=1)


class ForegroundSpec(_Strict):
    """That app is in front, optionally on that screen with those screen args, and with the `unset` args
    (filters the task did not ask for) absent, null, false, zero or empty.

    `or_beneath` is the display-task policy (docs/tasks.md §2): the screens the asked-for one opens (a
    result from a list) that may be in front with the asked-for screen directly beneath them, because the
    agent opened a result to check it; any other screen on top, or a deeper one, fails."""

    app: AppName
    screen: str | None = None
    args: dict[str, Cond] = Field(default_factory=dict)
    unset: list[str] = Field(default_factory=list)
    or_beneath: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _disjoint(self) -> ForegroundSpec:
        both = sorted(set(self.args) & set(self.unset))
        if both:
            raise ValueError(f"{', '.join(both)} cannot be both in `args` and `unset`")
        if self.or_beneath and self.screen is None:
            raise ValueError("`or_beneath` needs a `screen` (the one that may be beneath)")
        if self.screen in self.or_beneath:
            raise ValueError("`or_beneath` lists the screens opened from `screen`, not `screen` itself")
        return self


class SettingSpec(_InlineOps):
    """A system setting (`settings get NAMESPACE KEY`) satisfies the ops."""

    namespace: Literal["system", "secure", "global"]
    key: str = Field(min_length=1)


CHECK_KINDS = ("all", "any", "not", "items", "value", "foreground", "setting")


class Check(_Strict):
    """A combinator (`all`, `any`, `not`) or a leaf predicate; exactly one key is set."""

    all: list[Check] | None = Field(None, min_length=1)
    any: list[Check] | None = Field(None, min_length=1)
    not_: Check | None = Field(None, alias="not")
    items: ItemsSpec | None = None
    value: ValueSpec | None = None
    foreground: ForegroundSpec | None = None
    setting: SettingSpec | None = None

    @model_validator(mode="before")
    @classmethod
    def _one_kind(cls, data: Any) -> Any:
        if isinstance(data, dict):
            kinds = [k for k in data if k in CHECK_KINDS or k == "not_"]
            if len(kinds) != 1 or len(data) != 1:
                got = ", ".join(map(str, data)) or "nothing"
                raise ValueError(f"a check has exactly one of {', '.join(CHECK_KINDS)} (got {got})")
        return data

    @property
    def kind(self) -> str:
        return next(k for k in CHECK_KINDS if getattr(self, "not_" if k == "not" else k) is not None)


# -- solutions -----------------------------------------------------------------------------------------
def ungrounded_reason(action: Any) -> str | None:
    """Why a reference step is not selector-grounded, or None."""
    if getattr(action, "index", None) is not None or getattr(action, "x", None) is not None:
        return "reference steps ground GUI targets with `target:` selectors, not an index or x/y"
    if action.action == "swipe" and action.direction is None:
        return "reference swipes use a direction, not coordinates"
    if action.action == "finish":
        return "`finish` is not part of a solution (it is never counted as a step)"
    return None


def _grounded_steps(steps: list[Action]) -> list[Action]:
    for i, step in enumerate(steps):
        problem = ungrounded_reason(step)
        if problem:
            raise ValueError(f"step {i}: {problem}")
    return steps


Steps = Annotated[list[Action], AfterValidator(_grounded_steps)]


class Solutions(_Strict):
    """The GUI-only route (its length is `optimal_steps`) and the hybrid route using shortcuts."""

    gui: Steps = Field(min_length=1)
    hybrid: Steps = Field(min_length=1)

    @field_validator("gui")
    @classmethod
    def _gui_only(cls, steps: list[Action]) -> list[Action]:
        for i, step in enumerate(steps):
            if not is_gui(step):
                raise ValueError(f"step {i}: the GUI-only solution cannot use a {step.action!r} action")
        return steps


class NearMiss(_Strict):
    """A plausible wrong route that must FAIL the check: a full `actions` list, or a reference solution
    (`from: gui|hybrid`) with some steps replaced (`replace: {step index: action}`, 0-based) and some
    inserted (`insert: {step index: [actions]}`, played before that step; the solution's length appends).

    `kind: extra` marks a route that does everything right plus one thing too many (a second item, an
    unasked filter); every task that adds or filters needs one (docs/tasks.md)."""

    name: str = Field(min_length=1)
    kind: Literal["wrong", "extra"] = "wrong"
    actions: Steps | None = None
    from_: Literal["gui", "hybrid"] | None = Field(None, alias="from")
    replace: dict[int, Action] = Field(default_factory=dict)
    insert: dict[int, Steps] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _shape(self) -> NearMiss:
        if (self.actions is None) == (self.from_ is None):
            raise ValueError("give either `actions` or `from: gui|hybrid` with `replace` or `insert`")
        if self.from_ is not None and not (self.replace or self.insert):
            raise ValueError("`from` needs `replace` or `insert` (otherwise it is the reference solution)")
        for i, step in self.replace.items():
            problem = ungrounded_reason(step)
            if problem:
                raise ValueError(f"replace step {i}: {problem}")
        return self

    def steps(self, solutions: Solutions) -> list[Action]:
        if self.actions is not None:
            return list(self.actions)
        base = list(solutions.gui if self.from_ == "gui" else solutions.hybrid)
        steps: list[Action] = []
        for i, step in enumerate(base):
            steps += [*self.insert.get(i, []), self.replace.get(i, step)]
        return steps + list(self.insert.get(len(base), []))


# -- the task ------------------------------------------------------------------------------------------
class InitialState(_Strict):
    """Where every episode starts: `cmd masbench reset --seed S --clock C`, then the setup patches."""

    seed: int = 0
    clock: AwareDatetime | None = None
    setup: dict[AppName, dict[str, Any]] = Field(default_factory=dict)


class Task(_Strict):
    id: TaskId
    instruction: str = Field(min_length=1)
    apps: list[AppName] = Field(min_length=1)
    level: int
    initial_state: InitialState = Field(default_factory=InitialState)
    solutions: Solutions
    optimal_steps: int
    check: Check
    rubric: list[str] = Field(min_length=1)
    near_misses: list[NearMiss] = Field(default_factory=list)
    may_change: list[FramePattern] = Field(default_factory=list)  # besides what the check reads (frame.py)

    @field_validator("apps")
    @classmethod
    def _unique_apps(cls, apps: list[str]) -> list[str]:
        if len(set(apps)) != len(apps):
            raise ValueError("lists an app twice")
        return apps

    @field_validator("level")
    @classmethod
    def _level(cls, level: int) -> int:
        if level not in (1, 2, 3):
            raise ValueError("must be 1, 2 or 3")
        return level

    @field_validator("optimal_steps")
    @classmethod
    def _optimal(cls, steps: int, info: ValidationInfo) -> int:
        solutions = info.data.get("solutions")
        if solutions is not None and steps != len(solutions.gui):
            raise ValueError(
                f"is {steps} but the GUI-only solution has {len(solutions.gui)} steps; they must be equal"
            )
        return steps

    @field_validator("near_misses")
    @classmethod
    def _near_miss_steps(cls, near_misses: list[NearMiss], info: ValidationInfo) -> list[NearMiss]:
        solutions = info.data.get("solutions")
        for n, miss in enumerate(near_misses):
            if solutions is None or miss.from_ is None:
                continue
            size = len(solutions.gui if miss.from_ == "gui" else solutions.hybrid)
            bad = [f"replace step {i}" for i in miss.replace if not 0 <= i < size]
            bad += [f"insert before step {i}" for i in miss.insert if not 0 <= i <= size]
            if bad:
                raise ValueError(
                    f"{n} ({miss.name}): {bad[0]} is outside the {miss.from_} solution ({size} steps)"
                )
        return near_misses

    @computed_field  # type: ignore[prop-decorator]  # mypy refuses decorators over @property (pydantic docs)
    @property
    def kind(self) -> Literal["single-app", "cross-app"]:
        return "single-app" if len(self.apps) == 1 else "cross-app"

    def view(self) -> TaskView:
        """What an agent may know of this task."""
        return TaskView(id=self.id, instruction=self.instruction, apps=tuple(self.apps))

    def shortcut_names(self) -> list[str]:
        """Names of the shortcuts the hybrid solution calls, in order."""
        return [s.name for s in self.solutions.hybrid if s.action == "shortcut"]


__all__ = [
    "Check",
    "ForegroundSpec",
    "InitialState",
    "ItemsSpec",
    "NearMiss",
    "SettingSpec",
    "Solutions",
    "Task",
    "ValueSpec",
    "ungrounded_reason",
]


class TaskView(BaseModel):
    """The task as an agent receives it: the instruction and the apps it involves, nothing that judges or
    solves it (reference solutions, check, rubric, level, optimal steps). Frozen, so an agent cannot
    write into what the episode judges by. Only the `oracle` agents, which replay the solutions, are
    handed the whole `Task`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str  # names the episode (seeds, file names); it reveals nothing an agent could solve by
    instruction: str
    apps: tuple[str, ...]
