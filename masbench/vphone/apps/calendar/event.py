"""An event's page: title and colour, when, repeat, location, guests, notifications and description, with
edit, delete (confirmed) and a colour picker that changes the event at once."""

from __future__ import annotations

from datetime import date

from ...app import AppContext
from ...theme import theme
from ...ui import VIEWGROUP, Node
from ...widgets import (
    app_bar,
    button,
    choice_dialog,
    column,
    dialog,
    divider,
    icon_button,
    list_item,
    row,
    scroll_page,
    text,
)
from . import model
from .common import colour_of
from .content import COLOURS, DEFAULT_COLOUR, OWNER


def _event(ctx: AppContext) -> model.Event | None:
    found: model.Event | None = ctx.state["events"].get(str(ctx.args["id"]))
    return found


def build_event(ctx: AppContext) -> Node:
    ev = _event(ctx)
    if ev is None:
        return column(
            app_bar("", ctx.back), text("This event was deleted", "body", pad=60, rid="empty_message")
        )
    day = date.fromisoformat(ctx.args["date"]) if ctx.args.get("date") else None
    t = theme()
    title = row(
        Node(VIEWGROUP, w=60, h=60, radius=14, bg=colour_of(ev)),
        column(
            text(ev["summary"] or "(No title)", "headline", rid="event_title", max_lines=3),
            text(model.when(ev, day), "body_small", fg=t.muted, rid="event_when"),
            text(
                model.repeat_label(ev["rrule"], model.first_day(ev)),
                "body_small",
                fg=t.muted,
                rid="event_repeat",
            )
            if ev["rrule"]
            else None,
            weight=1,
            gap=10,
        ),
        pad=(48, 30, 48, 30),
        gap=36,
        valign="start",
    )
    details: list[Node | None] = [
        list_item(ev["location"], "Location", icon="location", rid="event_location", selectable=True)
        if ev["location"]
        else None,
        list_item(f"{len(ev['guests'])} guests", ", ".join(ev["guests"]), icon="person", rid="event_guests")
        if ev["guests"]
        else None,
        *(
            list_item(model.reminder_label(m), icon="notifications", rid="event_reminder")
            for m in ev["reminders"]
        ),
        list_item(ev["description"], icon="list", rid="event_description") if ev["description"] else None,
        list_item(
            ev.get("colour") or f"Default colour ({DEFAULT_COLOUR})",
            "Colour",
            ctx.opener("event_colour"),
            icon="label",
            rid="event_colour",
        ),
        list_item("Alex Morgan", OWNER, icon="event", rid="event_calendar"),
    ]
    return column(
        app_bar(
            "",
            ctx.back,
            icon_button("edit", "Edit event", ctx.link("editor", id=ev["id"]), rid="edit_event"),
            icon_button("delete", "Delete event", ctx.opener("delete_event"), rid="delete_event"),
        ),
        scroll_page("event", title, divider(), *details, rid="event_info"),
    )


def delete_dialog(ctx: AppContext) -> Node:
    def confirm() -> None:
        ctx.close()
        model.delete_event(ctx.state, ctx.args["id"])
        ctx.toast("Event deleted")
        ctx.back()

    ev = _event(ctx)
    message = (
        "All events in the series will be deleted." if ev and ev["rrule"] else "This event will be deleted."
    )
    return dialog(
        "Delete event?",
        [text(message, "body", pad=(60, 0, 60, 20))],
        [
            button("Cancel", ctx.close, primary=False, rid="cancel_button"),
            button("Delete", confirm, rid="delete_confirm_button"),
        ],
        ctx.close,
    )


def colour_dialog(ctx: AppContext) -> Node:
    """The colour list; on the event page it recolours the event, in the form it sets the form's colour."""
    on_page = ctx.top is not None and ctx.top.name == "event"
    if on_page:
        ev = _event(ctx)
        current = (ev.get("colour") if ev else "") or DEFAULT_COLOUR
    else:
        current = ctx.ui.get("colour") or DEFAULT_COLOUR

    def pick(name: str) -> None:
        if on_page and (ev := _event(ctx)) is not None:
            ev["colour"] = name
        else:
            ctx.ui["colour"] = name
        ctx.close()

    return choice_dialog(
        "Event colour", {name: name for name in COLOURS}, current, pick, ctx.close, option_rid="colour_option"
    )
