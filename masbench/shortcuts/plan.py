"""Turning a validated call into a plan, without touching a device.

Everything that depends only on the arguments happens here: URIs and intents are built (as argument
lists), script steps get their placeholders filled, nested shortcut calls are validated and planned.
So a bad nested argument, an extra that does not convert or a dynamic shortcut without a grounding
model fails as a `CallError` before the first command is sent.

Filling rules: a deep-link placeholder is percent-encoded (`urllib.parse.quote`, nothing kept safe); an
`optional_query` pair is added only when its value's placeholders are all given. In scripts, a step that
names an optional parameter the call left unset is skipped, and a nested call simply omits that argument.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, ValidationError

from masbench.actions import Selector, ShortcutAction, parse_action
from masbench.device import commands as C

from . import templates
from .calls import BoundCall, CallError, validate_call
from .schema import ApiImpl, DeeplinkImpl, ExtraSpec, KnowledgeBase, Shortcut
from .steps import ShortcutStep, describe

MAX_DEPTH = 8  # nested shortcut calls
_INT32 = range(-(2**31), 2**31)
_INT64 = range(-(2**63), 2**63)


@dataclass
class PlannedStep:
    number: int  # 1-based position in the script, as failure reasons cite it
    label: str  # `tap {text='Dark theme'}`
    step: BaseModel | None = None  # a filled script step or replay action
    call: Plan | None = None  # or a nested shortcut call, already planned


@dataclass
class Plan:
    call: BoundCall
    command: list[str] | None = None  # deeplink / api: one `am` command
    steps: list[PlannedStep] = field(default_factory=list)
    expect: str | None = None  # package that must be in front afterwards
    expect_shows: Selector | None = None  # element that must be on screen afterwards (placeholders filled)


def build_plan(kb: KnowledgeBase, call: BoundCall, *, can_ground: bool, depth: int = 0) -> Plan:
    """The plan for `call`; CallError when it cannot run."""
    shortcut, values = call.shortcut, call.arguments
    expect = shortcut.expect
    plan = Plan(call, expect=expect.package if expect else None)
    if expect is not None and expect.shows is not None:
        filled = templates.fill_data(expect.shows.model_dump(exclude_none=True), values)
        plan.expect_shows = Selector.model_validate(filled)
    if shortcut.deeplink is not None:
        plan.command = C.am_start_args(
            "android.intent.action.VIEW",
            deeplink_uri(shortcut.deeplink, values),
            package=shortcut.deeplink.package,
        )
    elif shortcut.api is not None:
        plan.command = api_args(shortcut, shortcut.api, values)
    elif shortcut.dynamic is not None and not can_ground:
        raise CallError(
            f"{shortcut.qualified_name} is a dynamic shortcut and needs a grounding model to find its targets; "
            "give one with --grounding-model MODEL (ShortcutExecutor(..., ground=...))"
        )
    script = shortcut.rpa or shortcut.dynamic
    items: list[Any] = list(script.steps) if script is not None else []
    if shortcut.replay is not None:
        items = list(shortcut.replay.actions)
    for number, item in enumerate(items, start=1):
        try:
            planned = _plan_item(kb, item, values, number, can_ground, depth)
        except CallError as exc:
            raise CallError(f"{shortcut.qualified_name}: step {number}: {exc}") from None
        if planned is not None:
            plan.steps.append(planned)
    return plan


def _plan_item(
    kb: KnowledgeBase, item: Any, values: dict[str, Any], number: int, can_ground: bool, depth: int
) -> PlannedStep | None:
    if isinstance(item, ShortcutStep | ShortcutAction):
        name, templated = item.call if isinstance(item, ShortcutStep) else (item.name, item.arguments)
        if depth + 1 > MAX_DEPTH:
            raise CallError(f"shortcut calls nest deeper than {MAX_DEPTH}")
        arguments = {}
        for key, template in templated.items():
            try:
                arguments[key] = templates.fill_typed(template, values)
            except templates.MissingValue:
                continue
        nested = validate_call(kb, name, arguments)
        plan = build_plan(kb, nested, can_ground=can_ground, depth=depth + 1)
        return PlannedStep(number, f"shortcut {nested.text()}", call=plan)
    try:
        data = templates.fill_data(item.model_dump(by_alias=True, exclude_none=True), values)
    except templates.MissingValue:
        return None  # the step uses an optional argument the call did not give
    try:
        if "action" in data:
            action = parse_action(data)
            return PlannedStep(number, _action_label(action), step=action)
        step = type(item).model_validate(data)
    except ValidationError as exc:
        raise CallError(f"the filled-in step is invalid: {exc.errors()[0]['msg']}") from None
    return PlannedStep(number, describe(step), step=step)


def _action_label(action: BaseModel) -> str:
    """`tap index=3`, `tap {text='OK'}`, `type text='hi'` for a replayed action."""
    fields = action.model_dump(exclude_none=True, exclude_defaults=True, exclude={"action", "target"})
    target = getattr(action, "target", None)
    parts = [getattr(action, "action", type(action).__name__)]
    if target is not None:
        parts.append(f"{{{target.describe()}}}")
    parts += [f"{k}={v!r}" for k, v in fields.items()]
    return " ".join(parts)


# -- deep links and intents ------------------------------------------------------------------------


def _encode(text: str) -> str:
    return quote(text, safe="")


def deeplink_uri(impl: DeeplinkImpl, values: dict[str, Any]) -> str:
    """The URI with every placeholder percent-encoded and the given optional query pairs appended."""
    uri = templates.fill(impl.uri, values, _encode)
    pairs = []
    for key, template in impl.optional_query.items():
        try:
            pairs.append(f"{_encode(key)}={_encode(templates.fill(template, values))}")
        except templates.MissingValue:
            continue
    if not pairs:
        return uri
    base, hash_mark, fragment = uri.partition("#")
    joiner = "" if base.endswith(("?", "&")) else "&" if "?" in base else "?"
    return base + joiner + "&".join(pairs) + hash_mark + fragment


def api_args(shortcut: Shortcut, impl: ApiImpl, values: dict[str, Any]) -> list[str]:
    """`am start -W ...` or `am broadcast ...` with typed extras, as an argument list."""
    data = templates.fill(impl.data, values, _encode) if impl.data else None
    if impl.kind == "broadcast":
        args = C.broadcast_args(impl.action or "", None, impl.package, impl.component)
    else:
        args = C.am_start_args(
            impl.action, data, impl.component, impl.package, impl.categories, None, impl.mime_type
        )
    for key, spec in impl.extras.items():
        template = spec.value if isinstance(spec, ExtraSpec) else spec
        try:
            value = templates.fill_typed(template, values)
        except templates.MissingValue:
            continue
        declared = spec.type if isinstance(spec, ExtraSpec) else _implied_type(shortcut, template, value)
        try:
            args += _extra(key, declared, value)
        except ValueError as exc:
            raise CallError(f"{shortcut.qualified_name}: extra {key!r}: {exc}") from None
    return args


def _implied_type(shortcut: Shortcut, template: Any, value: Any) -> str:
    whole = templates.PLACEHOLDER.fullmatch(template) if isinstance(template, str) else None
    param = shortcut.parameter(whole.group(1)) if whole else None
    ptype = param.type if param is not None else None
    if ptype == "boolean" or isinstance(value, bool):
        return "bool"
    if ptype == "number" or isinstance(value, float):
        return "float"
    if ptype == "integer" or isinstance(value, int):
        return "int" if value in _INT32 else "long"
    return "string"


def _extra(key: str, declared: str, value: Any) -> list[str]:
    """`--es|--ei|--el|--ef|--ez KEY VALUE` for the declared `am` type; ValueError if it does not convert."""
    if declared == "string":
        return ["--es", key, templates.as_text(value)]
    if declared == "bool":
        text = templates.as_text(value).lower()
        if text not in ("true", "false"):
            raise ValueError(f"{value!r} is not true or false")
        return ["--ez", key, text]
    if declared == "float":
        if isinstance(value, bool):
            raise ValueError(f"{value!r} is not a number")
        return ["--ef", key, repr(float(value))]
    number = _to_int(value)
    if declared == "int" and number not in _INT32:
        raise ValueError(f"{number} does not fit a 32-bit int; declare the extra as long")
    if number not in _INT64:
        raise ValueError(f"{number} does not fit a 64-bit long")
    return ["--ei" if declared == "int" else "--el", key, str(number)]


def _to_int(value: Any) -> int:
    """An integer from a number, an integer string, or a date / date-time (epoch milliseconds, UTC if naive)."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = str(value).strip()
    if text.lstrip("+-").isdigit():
        return int(text)
    try:
        moment = datetime.fromisoformat(text) if "T" in text or " " in text else None
        moment = moment or datetime.combine(date.fromisoformat(text), datetime.min.time())
    except ValueError:
        raise ValueError(f"{value!r} is not an integer, a date or a date-time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return round(moment.timestamp() * 1000)
