"""Settings: the default reply action, the account's mobile signature and the vacation responder (on or
off, first and last day, subject, message, contacts only), saved with Done."""

from __future__ import annotations

from datetime import date
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import EDIT, Node
from ...widgets import (
    app_bar,
    button,
    checkbox,
    choice_dialog,
    column,
    dialog,
    divider,
    list_item,
    scroll_page,
    section_header,
    switch,
    text,
)
from . import model
from .common import SETTINGS
from .content import ME
from .datepick import open_picker

REPLY_ACTIONS = {"reply": "Reply", "reply_all": "Reply all"}
VACATION_FIELDS = ("enabled", "first_day", "last_day", "subject", "message", "contacts_only")


def default_settings() -> dict[str, Any]:
    return {
        "signature": "",
        "default_reply": "reply",
        "vacation": {
            "enabled": False,
            "first_day": None,
            "last_day": None,
            "subject": "",
            "message": "",
            "contacts_only": False,
        },
    }


def build_settings(ctx: AppContext) -> Node:
    settings = ctx.state["settings"]
    vacation = settings["vacation"]
    return column(
        app_bar("Settings", ctx.back),
        scroll_page(
            "settings",
            section_header("General settings"),
            list_item(
                "Default reply action",
                REPLY_ACTIONS[settings["default_reply"]],
                on_tap=ctx.opener("default_reply"),
                rid="default_reply",
            ),
            divider(),
            section_header(ME[1]),
            list_item(
                "Mobile signature",
                settings["signature"] or "Not set",
                on_tap=lambda: edit_signature(ctx),
                rid="signature",
            ),
            list_item(
                "Vacation responder",
                vacation_summary(vacation),
                on_tap=lambda: open_vacation(ctx),
                rid="vacation_responder",
            ),
        ),
    )


def vacation_summary(vacation: dict[str, Any]) -> str:
    if not vacation["enabled"]:
        return "Off"
    first = model.day_label(date.fromisoformat(vacation["first_day"])) if vacation["first_day"] else ""
    last = model.day_label(date.fromisoformat(vacation["last_day"])) if vacation["last_day"] else ""
    return "On" + (f": {first}" if first else "") + (f" - {last}" if last else "")


def edit_signature(ctx: AppContext) -> None:
    ctx.ui["signature_text"] = ctx.state["settings"]["signature"]
    ctx.open("signature")


def signature_dialog(ctx: AppContext) -> Node:
    def ok() -> None:
        ctx.state["settings"]["signature"] = str(ctx.ui.get("signature_text", "")).strip()
        ctx.close()

    field = Node(EDIT, field="signature_text", hint="Signature", rid="signature_text", size=42, bg="#ffffff",
                 pad=(24, 20, 24, 20), border="#dadce0", radius=12)  # fmt: skip
    return dialog(
        "Mobile signature",
        [column(field, pad=(60, 0, 60, 20))],
        [button("Cancel", ctx.close, rid="button2", primary=False), button("OK", ok, rid="button1")],
        ctx.close,
    )


def default_reply_dialog(ctx: AppContext) -> Node:
    def pick(key: str) -> None:
        ctx.state["settings"]["default_reply"] = key
        ctx.close()

    return choice_dialog("Default reply action", REPLY_ACTIONS, ctx.state["settings"]["default_reply"], pick,
                         ctx.close)  # fmt: skip


# -- vacation responder -------------------------------------------------------------------------------------


def open_vacation(ctx: AppContext) -> None:
    """The responder's form, filled from the saved settings (today as the first day of a new one)."""
    saved = ctx.state["settings"]["vacation"]
    screen = ctx.screen("vacation", activity=SETTINGS)
    screen.ui.update({k: saved[k] for k in VACATION_FIELDS})
    screen.ui["first_day"] = saved["first_day"] or ctx.now().date().isoformat()
    ctx.phone.push_screen(screen)


def build_vacation(ctx: AppContext) -> Node:
    ui = ctx.ui
    first = date.fromisoformat(ui["first_day"])
    last = date.fromisoformat(ui["last_day"]) if ui.get("last_day") else None
    return column(
        app_bar(
            "Vacation responder",
            ctx.back,
            button("Done", lambda: save_vacation(ctx), rid="done", primary=False, h=110),
        ),
        scroll_page(
            "vacation",
            switch(
                "Vacation responder",
                bool(ui.get("enabled")),
                lambda: ui.update(enabled=not ui.get("enabled")),
                rid="vacation_switch",
            ),
            divider(),
            list_item(
                "First day",
                model.day_label(first),
                on_tap=lambda: open_picker(ctx, "first_day", first),
                rid="first_day",
            ),
            list_item(
                "Last day (optional)",
                model.day_label(last) if last else "None",
                on_tap=lambda: open_picker(ctx, "last_day", last or first),
                rid="last_day",
            ),
            divider(),
            vacation_field(ui, "subject", "Subject"),
            divider(),
            vacation_field(ui, "message", "Message", h=180),
            divider(),
            checkbox(
                "Send only to my contacts",
                bool(ui.get("contacts_only")),
                lambda: ui.update(contacts_only=not ui.get("contacts_only")),
                rid="contacts_only",
            ),
            text(
                "Replies automatically to mail you receive between the first and the last day.",
                "caption",
                pad=(48, 24, 48, 24),
                fg=theme().muted,
            ),
        ),
    )


def save_vacation(ctx: AppContext) -> None:
    """Done: keep the form (the last day never before the first) and go back to Settings."""
    ui = ctx.ui
    first, last = ui["first_day"], ui.get("last_day")
    if last and last < first:
        ctx.toast("The last day can't be before the first day")
        return
    ctx.state["settings"]["vacation"] = {
        "enabled": bool(ui.get("enabled")), "first_day": first, "last_day": last,
        "subject": str(ui.get("subject", "")).strip(), "message": str(ui.get("message", "")).strip(),
        "contacts_only": bool(ui.get("contacts_only")),
    }  # fmt: skip
    ctx.toast("Vacation responder " + ("on" if ui.get("enabled") else "off"))
    ctx.phone.pop_screen()


def vacation_field(ui: dict[str, Any], name: str, hint: str, **kw: Any) -> Node:
    """One of the vacation responder's text boxes (`vacation_<name>`), holding the form's draft value."""
    return Node(
        EDIT, field=name, text=ui.get(name, ""), hint=hint, rid=f"vacation_{name}", size=42, bg="#ffffff",
        pad=(48, 36, 48, 36), **kw,
    )  # fmt: skip
