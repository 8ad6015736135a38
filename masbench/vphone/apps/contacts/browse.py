"""The tab screens: the A-Z list with its search box, Favourites, Fix & manage with Merge & fix, and the
labels (their list, one label's members, creating one)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import (
    app_bar,
    button,
    column,
    dialog,
    divider,
    icon_button,
    list_item,
    row,
    scroll_list,
    search_field,
    section_header,
    text,
    text_field,
)
from . import model
from .common import contact_row, fab, nav
from .content import full_name


def _open(ctx: AppContext, cid: int) -> Callable[[], None]:
    return ctx.link("detail", id=cid)


def _empty(message: str) -> Node:
    return text(message, "body", fg=theme().muted, align="center", pad=(60, 120, 60, 0), rid="empty_message")


def build_list(ctx: AppContext) -> Node:
    """All contacts under A-Z headers; the search box filters them as you type."""
    query = str(ctx.ui.get("query", ""))
    found = model.search(ctx.state, query)
    rows: list[Node] = []
    letter = None
    for c in found:
        if not query and model.section_letter(c) != letter:
            letter = model.section_letter(c)
            rows.append(text(letter, "label", fg=theme().primary, rid="section_header", pad=(60, 28, 0, 8)))
        rows.append(contact_row(c, _open(ctx, c["id"])))
    if not found:
        rows.append(_empty(f"No results for \u201c{query}\u201d"))
    bar = row(
        search_field("query", "Search contacts", None, rid="open_search_bar", value=query),
        icon_button("label", "Labels", ctx.link("labels"), rid="labels_button"),
        pad=(32, 24, 16, 16),
        gap=8,
        valign="center",
    )
    count = text(
        f"{len(found)} contacts" if not query else f"{len(found)} found", "caption", pad=(60, 4, 0, 4)
    )
    return column(
        bar,
        count,
        scroll_list("contacts", rows, rid="contact_list"),
        fab("Create contact", ctx.link("editor")),
        nav(ctx, "Contacts"),
    )


def build_favourites(ctx: AppContext) -> Node:
    stars = model.starred(ctx.state)
    rows = [contact_row(c, _open(ctx, c["id"])) for c in stars] or [_empty("No favourites yet")]
    return column(
        app_bar("Favourites"), scroll_list("favourites", rows, rid="favourites_list"), nav(ctx, "Favourites")
    )


def build_manage(ctx: AppContext) -> Node:
    """Fix & manage: the tools over the whole address book."""
    pairs = len(model.duplicates(ctx.state))
    return column(
        app_bar("Fix & manage"),
        scroll_list(
            "manage",
            [
                list_item(
                    "Merge & fix",
                    f"{pairs} suggestions" if pairs else "No suggestions",
                    ctx.link("merge"),
                    icon="copy",
                    rid="merge_and_fix",
                ),
                list_item(
                    "Labels",
                    f"{len(ctx.state['labels'])} labels",
                    ctx.link("labels"),
                    icon="label",
                    rid="manage_labels",
                ),
                list_item(
                    "Import from file",
                    "vcf files",
                    lambda: ctx.toast("No .vcf files found"),
                    icon="download",
                    rid="import_contacts",
                ),
            ],
            rid="manage_list",
        ),
        nav(ctx, "Fix & manage"),
    )


def build_merge(ctx: AppContext) -> Node:
    """Merge & fix: each duplicate pair with a Merge button, and Merge all."""
    pairs = model.duplicates(ctx.state)

    def merge(keep: int, other: int) -> None:
        model.merge(ctx.state, keep, other)
        ctx.toast("Contacts merged")

    def merge_all() -> None:
        for keep, other in model.duplicates(ctx.state):
            model.merge(ctx.state, keep, other)
        ctx.toast("Contacts merged")

    cards: list[Node] = []
    for keep, other in pairs:
        a, b = ctx.state["contacts"][str(keep)], ctx.state["contacts"][str(other)]
        details = [_summary(a), _summary(b)]
        cards += [
            column(
                text(full_name(a), "subtitle", rid="duplicate_name"),
                *(text(d, "caption", max_lines=1) for d in details),
                row(
                    button(
                        "Merge",
                        partial(merge, keep, other),
                        rid="merge_button",
                        desc=f"Merge {full_name(a)}",
                        h=110,
                    ),
                    pad=(0, 12, 0, 0),
                ),
                pad=(48, 28, 48, 28),
                gap=6,
                rid="duplicate_card",
            ),
            divider(),
        ]
    header = (
        section_header(f"Duplicates ({len(pairs)})", "Merge all", merge_all, rid="duplicates_title")
        if pairs
        else _empty("No duplicates to merge")
    )
    return column(
        app_bar("Merge & fix", ctx.back), header, scroll_list("duplicates", cards, rid="duplicate_list")
    )


def _summary(c: model.Contact) -> str:
    parts = [p["number"] for p in c["phones"]] + [e["address"] for e in c["emails"]]
    return ", ".join(parts) or "No details"


def build_labels(ctx: AppContext) -> Node:
    rows = [
        list_item(
            label,
            f"{len(model.in_label(ctx.state, label))} contacts",
            ctx.link("label", name=label),
            icon="label",
            rid="label_row",
        )
        for label in ctx.state["labels"]
    ]
    return column(
        app_bar(
            "Labels",
            ctx.back,
            icon_button("plus", "Create label", ctx.opener("create_label"), rid="create_label"),
        ),
        scroll_list("labels", rows, rid="label_list"),
    )


def build_label(ctx: AppContext) -> Node:
    name = ctx.args["name"]
    members = model.in_label(ctx.state, name)
    rows = [contact_row(c, _open(ctx, c["id"])) for c in members] or [_empty("No contacts with this label")]
    return column(app_bar(name, ctx.back), scroll_list("label_members", rows, rid="label_member_list"))


def create_label_dialog(ctx: AppContext) -> Node:
    def create() -> None:
        if model.add_label(ctx.state, str(ctx.ui.get("label_name", ""))):
            ctx.ui.pop("label_name", None)
            ctx.close()
        else:
            ctx.toast("Enter a new label name")

    return dialog(
        "Create label",
        [column(text_field("label_name", "Label name", "label_name_input"), pad=(60, 0, 60, 0))],
        [
            button("Cancel", ctx.close, primary=False, rid="cancel_button"),
            button("Save", create, rid="save_button"),
        ],
        ctx.close,
    )
