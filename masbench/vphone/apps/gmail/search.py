"""Search: the query box, the filter chips under it (From, To, Date, Has attachment, Is unread, Label) and
the matching conversations, newest first. The screen's arguments are the search, so a check or a deep
link reads and writes the same thing."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import EDIT, Node
from ...widgets import bottom_sheet, chips, column, icon_button, radio, row, scroll_list
from . import model
from .common import selection_bar, thread_list
from .content import ME, contact_list

CHIP_ARGS = ("sender", "recipient", "older", "label", "attachment", "unread")


def query_of(args: dict[str, Any]) -> model.Query:
    return model.parse_query(args.get("query", ""), **{k: args.get(k) for k in CHIP_ARGS})


def build_search(ctx: AppContext) -> Node:
    args = ctx.args

    def submit(value: str) -> None:
        args["query"] = value.strip()

    field = Node(EDIT, field="search_query", text=args.get("query", ""), hint="Search in mail", rid="search_text", bg=theme().pale,
                 size=42, weight=1, h=132, on_submit=submit)  # fmt: skip
    bar = row(icon_button("back", "Navigate up", ctx.back, rid="navigate_up"), field,
              bg=theme().pale, radius=70, h=140, pad=(8, 0, 28, 0), valign="center", rid="search_bar")  # fmt: skip
    has_search = bool(args.get("query")) or any(args.get(k) for k in CHIP_ARGS)
    results = model.search(ctx.state, query_of(args), ctx.now()) if has_search else []
    return column(
        column(selection_bar(ctx) if ctx.ui.get("selected") else bar, pad=(24, 24, 24, 0)),
        filter_chips(ctx),
        thread_list(ctx, "results", results, empty="No results found" if has_search else "Search in mail"),
        bg="#ffffff",
    )


def filter_chips(ctx: AppContext) -> Node:
    args = ctx.args

    def toggle(key: str) -> Callable[[], None]:
        return lambda: args.update({key: not args.get(key)})

    items = [
        (model.display_name(args["sender"]) if args.get("sender") else "From", bool(args.get("sender")),
         ctx.opener("person_filter", key="sender")),
        (model.display_name(args["recipient"]) if args.get("recipient") else "To", bool(args.get("recipient")),
         ctx.opener("person_filter", key="recipient")),
        (model.DATE_FILTERS[args["older"]] if args.get("older") else "Date", bool(args.get("older")),
         ctx.opener("date_filter")),
        ("Has attachment", bool(args.get("attachment")), toggle("attachment")),
        ("Is unread", bool(args.get("unread")), toggle("unread")),
        (args["label"] if args.get("label") else "Label", bool(args.get("label")), ctx.opener("label_filter")),
    ]  # fmt: skip
    return chips(items, scroll_key="filters", rid="filter_chip")


def _choice_sheet(ctx: AppContext, title: str, key: str, choices: dict[str, str]) -> Node:
    """A sheet of radio choices (value -> label) that sets the search argument `key`; '' clears it."""
    current = ctx.args.get(key) or ""

    def pick(value: str) -> None:
        ctx.args[key] = value
        ctx.close()

    options = [radio(label, value == current, partial(pick, value), rid="filter_option")
               for value, label in choices.items()]  # fmt: skip
    body = scroll_list("choices", options, rid="filter_options", h=min(1300, 124 * len(options)), weight=0)
    return bottom_sheet(title, [body], ctx.close, rid="filter_sheet")


def person_dialog(ctx: AppContext) -> Node:
    """From or To: anyone, then the user's contacts, then everyone else in the mailbox, by name."""
    key = ctx.dialog_args.get("key", "sender")
    known = {c["email"] for c in contact_list()}
    people: dict[str, str] = {}
    for thread in ctx.state["threads"]:
        for message in thread["messages"]:
            addresses = [message["from"]["email"]] if key == "sender" else message["to"] + message["cc"]
            for address in addresses:
                if address != ME[1]:
                    people.setdefault(address, model.display_name(address))
    ranked = sorted(people.items(), key=lambda p: (p[0] not in known, p[1].lower()))
    return _choice_sheet(ctx, "From" if key == "sender" else "To", key, {"": "Anyone", **dict(ranked)})


def date_dialog(ctx: AppContext) -> Node:
    return _choice_sheet(ctx, "Date", "older", model.DATE_FILTERS)


def label_dialog(ctx: AppContext) -> Node:
    system = ["Inbox", "Starred", "Important", "Sent", "Snoozed"]
    return _choice_sheet(
        ctx, "Label", "label", {"": "Any label", **{n: n for n in system + ctx.state["labels"]}}
    )
