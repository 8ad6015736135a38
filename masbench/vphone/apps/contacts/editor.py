"""The create / edit contact form: names, company, phones (each with a Mobile/Work/Home type), emails,
address, a typed birthday and label chips. Nothing is stored until Save; the insert intent only fills it.

Field values live in the screen's ui state under the field's key (`phone_1`, `phone_type_1`...), over the
starting values (the contact being edited, or what the intent carried)."""

from __future__ import annotations

from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import EDIT, Node
from ...widgets import app_bar, button, chips, choice_dialog, column, icon_button, row, scroll_page, text
from . import model
from .content import PHONE_TYPES

TEXT_FIELDS = (  # key, hint, resource id
    ("first", "First name", "first_name"),
    ("last", "Last name", "last_name"),
    ("company", "Company", "company"),
    ("title", "Title", "job_title"),
)


def starting_values(ctx: AppContext) -> dict[str, Any]:
    """What the form shows before any edit: the contact's fields, or the insert intent's prefill."""
    cid = ctx.args.get("id")
    c = model.contact(ctx.state, cid) if cid is not None else None
    if c is not None:
        return c
    fill = ctx.args.get("prefill", {})
    return {
        "first": fill.get("first", ""),
        "last": fill.get("last", ""),
        "company": fill.get("company", ""),
        "title": fill.get("title", ""),
        "phones": fill.get("phones", []),
        "emails": fill.get("emails", []),
        "address": fill.get("address", ""),
        "birthday": "",
        "labels": [],
    }


def _field(key: str, hint: str, rid: str, value: str, error: bool = False) -> Node:
    t = theme()
    return Node(
        EDIT,
        field=key,
        hint=hint,
        text=value,
        desc=hint,
        rid=rid,
        size=t.style("body").size,
        h=140,
        pad=(32, 0, 32, 0),
        border=t.error if error else t.muted,
        radius=12,
        bg=t.surface,
        weight=1,
    )


# A repeated field: its start list's key for the value, the value's key, and the type a new one gets.
REPEATED = {"phone": ("phones", "number", "Mobile"), "email": ("emails", "address", "Home")}


def _count(ctx: AppContext, kind: str, start: dict[str, Any]) -> int:
    return int(ctx.ui.get(f"{kind}_count", max(1, len(start[REPEATED[kind][0]]))))


def _value(ctx: AppContext, key: str, default: str) -> str:
    return " ".join(str(ctx.ui.get(key, default)).split())


def entries(ctx: AppContext, kind: str, start: dict[str, Any]) -> list[dict[str, str]]:
    """The form's phones or emails as they stand (blank ones included): the typed value over the
    starting one, and its type."""
    listed, value_key, new_type = REPEATED[kind]
    first = start[listed]
    found = []
    for i in range(_count(ctx, kind, start)):
        known = first[i] if i < len(first) else {value_key: "", "type": new_type}
        found.append(
            {
                value_key: _value(ctx, f"{kind}_{i}", known[value_key]),
                "type": str(ctx.ui.get(f"{kind}_type_{i}", known["type"])),
            }
        )
    return found


def remove_entry(ctx: AppContext, kind: str, index: int, start: dict[str, Any]) -> None:
    """Drop one phone or email; the ones after it move up (an empty field stays when none is left)."""
    value_key = REPEATED[kind][1]
    kept = entries(ctx, kind, start)
    del kept[index]
    kept = kept or [{value_key: "", "type": REPEATED[kind][2]}]
    for i, entry in enumerate(kept):
        ctx.ui[f"{kind}_{i}"] = entry[value_key]
        ctx.ui[f"{kind}_type_{i}"] = entry["type"]
    ctx.ui[f"{kind}_count"] = len(kept)


def _labels(ctx: AppContext, start: dict[str, Any]) -> list[str]:
    return list(ctx.ui.get("labels", start["labels"]))


def build_editor(ctx: AppContext) -> Node:
    start = starting_values(ctx)
    editing = ctx.args.get("id") is not None
    errors = ctx.ui.get("errors", {})
    rows: list[Node | None] = [
        _label_chips(ctx, start),
        *(
            row(_field(key, hint, rid, start.get(key, "")), pad=(48, 12, 48, 12))
            for key, hint, rid in TEXT_FIELDS
        ),
    ]
    for i, phone in enumerate(entries(ctx, "phone", start)):
        rows.append(
            row(
                _field(f"phone_{i}", "Phone", "phone_field", phone["number"]),
                button(
                    phone["type"],
                    ctx.opener("phone_type", index=i),
                    primary=False,
                    rid="phone_type",
                    w=230,
                    pad=(20, 0, 20, 0),
                ),
                _remove_button(ctx, "phone", i, start),
                pad=(48, 12, 24, 12),
                gap=12,
                valign="center",
            )
        )
    rows.append(_add_more(ctx, "phone", "Add phone", start))
    for i, email in enumerate(entries(ctx, "email", start)):
        rows.append(
            row(
                _field(f"email_{i}", "Email", "email_field", email["address"]),
                _remove_button(ctx, "email", i, start),
                pad=(48, 12, 24, 12),
                gap=12,
                valign="center",
            )
        )
    rows.append(_add_more(ctx, "email", "Add email", start))
    rows += [
        row(_field("address", "Address", "address_field", start["address"]), pad=(48, 12, 48, 12)),
        row(
            _field(
                "birthday",
                "Birthday (YYYY-MM-DD)",
                "birthday_field",
                start["birthday"],
                error="birthday" in errors,
            ),
            pad=(48, 12, 48, 12),
        ),
        text(errors["birthday"], "negative", pad=(60, 0, 60, 0), rid="birthday_error")
        if "birthday" in errors
        else None,
    ]
    return column(
        app_bar(
            "Edit contact" if editing else "Create contact",
            ctx.back,
            button("Save", lambda: save(ctx), rid="editor_save_button", h=110, size=38),
        ),
        scroll_page("editor", *rows, spacer_end(), rid="editor_form"),
    )


def spacer_end() -> Node:
    return Node(h=200)


def _remove_button(ctx: AppContext, kind: str, index: int, start: dict[str, Any]) -> Node:
    return icon_button(
        "close",
        f"Remove {kind}",
        lambda: remove_entry(ctx, kind, index, start),
        rid=f"remove_{kind}",
        size=48,
    )


def _add_more(ctx: AppContext, kind: str, label: str, start: dict[str, Any]) -> Node:
    def more() -> None:
        ctx.ui[f"{kind}_count"] = _count(ctx, kind, start) + 1

    return row(
        icon_button("plus", label, more, rid=f"add_{kind}", fg=theme().primary),
        text(label, "link", on_tap=more, rid=f"add_{kind}_label"),
        pad=(36, 0, 48, 0),
        valign="center",
    )


def _label_chips(ctx: AppContext, start: dict[str, Any]) -> Node:
    chosen = _labels(ctx, start)

    def toggle(label: str) -> None:
        ctx.ui["labels"] = [x for x in chosen if x != label] if label in chosen else [*chosen, label]

    return chips(
        [(label, label in chosen, partial(toggle, label)) for label in ctx.state["labels"]],
        rid="label_chip",
        pad=(40, 24, 40, 16),
    )


def phone_type_dialog(ctx: AppContext) -> Node:
    index = ctx.dialog_args["index"]

    def pick(kind: str) -> None:
        ctx.ui[f"phone_type_{index}"] = kind
        ctx.close()

    current = entries(ctx, "phone", starting_values(ctx))[index]["type"]
    return choice_dialog(
        "Phone type", {k: k for k in PHONE_TYPES}, current, pick, ctx.close, option_rid="type_option"
    )


def save(ctx: AppContext) -> None:
    """Store the form: a new contact opens its card in place of the form, an edit goes back to the card."""
    start = starting_values(ctx)
    fields: dict[str, Any] = {key: _value(ctx, key, start.get(key, "")) for key, _, _ in TEXT_FIELDS}
    fields["address"] = _value(ctx, "address", start["address"])
    phones = [p for p in entries(ctx, "phone", start) if p["number"]]
    emails = [e for e in entries(ctx, "email", start) if e["address"]]
    typed = _value(ctx, "birthday", start["birthday"])
    birthday = model.parse_birthday(typed) if typed else ""
    if birthday is None:
        ctx.ui["errors"] = {"birthday": "Enter a date like 1990-06-12"}
        return
    if not (fields["first"] or fields["last"] or phones or emails):
        ctx.toast("Add a name, phone or email to save")
        return
    fields.update(phones=phones, emails=emails, birthday=birthday, labels=_labels(ctx, start))
    editing = ctx.args.get("id")
    cid = model.save(ctx.state, editing, fields)
    ctx.toast("Contact saved")
    if editing is None:
        ctx.replace("detail", id=cid)
    else:
        ctx.back()
