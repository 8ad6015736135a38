"""Bookmarks: the folders, a folder's bookmarks (open, edit, delete), the bookmark editor, the folder
picker and the new-folder editor, which moves the bookmark into the folder it creates."""

from __future__ import annotations

from functools import partial
from typing import Any

from ...app import AppContext
from ...ui import Node
from ...widgets import (
    app_bar,
    button,
    column,
    dialog,
    icon_button,
    list_item,
    row,
    scroll_page,
    text,
    text_field,
)
from . import browser
from .common import closing, menu_row, open_in_new_tab, open_in_tab
from .lists import empty, host, plural


def _bookmark(ctx: AppContext, mark_id: int) -> dict[str, Any] | None:
    return next((b for b in ctx.state["bookmarks"] if b["id"] == mark_id), None)


def build_bookmarks(ctx: AppContext) -> Node:
    """The folder list (no folder open), or the bookmarks of the open folder."""
    state, folder = ctx.state, ctx.args.get("folder", "")
    if not folder:
        rows = [
            list_item(name, plural(sum(b["folder"] == name for b in state["bookmarks"]), "bookmark"), icon="bookmark",
                      on_tap=ctx.link("bookmarks", folder=name), rid="folder_row", desc=name)
            for name in state["folders"]
        ] + [list_item("Reading list", f"{sum(not r['read'] for r in state['reading_list'])} unread", icon="list",
                       on_tap=ctx.link("reading_list"), rid="folder_row", desc="Reading list")]  # fmt: skip
        return column(
            app_bar("Bookmarks", ctx.back), scroll_page("folders", *rows, rid="bookmark_items_container")
        )
    marks = [b for b in state["bookmarks"] if b["folder"] == folder]
    rows = [
        list_item(b["title"], host(b["url"]), on_tap=partial(open_in_tab, ctx, b["url"]), icon="globe",
                  rid="bookmark_row", desc=b["title"],
                  trailing=icon_button("more_vert", f"More options for {b['title']}",
                                       ctx.opener("bookmark_actions", id=b["id"]), rid="more"))
        for b in marks
    ]  # fmt: skip
    return column(
        app_bar(folder, ctx.back),
        scroll_page(
            "marks", *rows, empty("No bookmarks here") if not rows else None, rid="bookmark_items_container"
        ),
    )


def bookmark_actions(ctx: AppContext) -> Node:
    mark = _bookmark(ctx, ctx.dialog_args["id"])
    if mark is None:
        return dialog("Bookmark", [], [], ctx.close)

    then = partial(closing, ctx)

    def delete() -> None:
        ctx.state["bookmarks"] = [b for b in ctx.state["bookmarks"] if b["id"] != mark["id"]]
        ctx.toast(f"{mark['title']} deleted")

    return dialog(mark["title"], [
        menu_row("Edit", then(ctx.link("edit_bookmark", id=mark["id"])), "edit_menu_id", "edit"),
        menu_row("Open in new tab", then(lambda: open_in_new_tab(ctx, mark["url"])), "open_in_new_tab_id",
                 "open_in_new"),
        menu_row("Open in Incognito tab", then(lambda: open_in_new_tab(ctx, mark["url"], incognito=True)),
                 "open_in_incognito_tab_id", "incognito"),
        menu_row("Delete", then(delete), "delete_menu_id", "delete"),
    ], [], ctx.close, rid="bookmark_actions")  # fmt: skip


def build_edit_bookmark(ctx: AppContext) -> Node:
    """Name, URL and folder of one bookmark; changes are kept as they are made, as in Chrome."""
    mark = _bookmark(ctx, ctx.args["id"])
    if mark is None:
        return column(app_bar("Edit bookmark", ctx.back), empty("This bookmark was deleted"))

    def delete() -> None:
        ctx.state["bookmarks"] = [b for b in ctx.state["bookmarks"] if b["id"] != mark["id"]]
        ctx.back()

    def field(label: str, key: str, rid: str) -> Node:
        box = text_field(f"edit_{key}", label, rid, value=mark[key])
        box.on_change = lambda v: mark.update({key: v})
        box.weight = 1
        return column(text(label, "caption", pad=(48, 24, 48, 0)), row(box, pad=(48, 0, 48, 0)))

    return column(
        app_bar(
            "Edit bookmark", ctx.back, icon_button("delete", "Delete bookmark", delete, rid="delete_bookmark")
        ),
        field("Name", "title", "title_text"),
        field("URL", "url", "url_text"),
        text("Folder", "caption", pad=(48, 40, 48, 0)),
        list_item(
            mark["folder"],
            "",
            icon="bookmark",
            on_tap=ctx.link("folder_picker", id=mark["id"]),
            rid="folder_text",
            desc=f"Folder: {mark['folder']}",
        ),
    )


def build_folder_picker(ctx: AppContext) -> Node:
    """Move to…: tap a folder to move the bookmark there, or make a new one."""
    mark = _bookmark(ctx, ctx.args["id"])

    def move(name: str) -> None:
        if mark is not None:
            mark["folder"] = name
        ctx.phone.pop_screen()

    rows = [
        list_item(name, "", icon="check" if mark and mark["folder"] == name else "bookmark",
                  on_tap=partial(move, name), rid="folder_row", desc=name)
        for name in ctx.state["folders"]
    ]  # fmt: skip
    return column(
        app_bar("Move to…", ctx.back),
        scroll_page(
            "folders",
            list_item(
                "New folder",
                "",
                icon="plus",
                on_tap=ctx.link("new_folder", id=ctx.args["id"]),
                rid="create_new_folder",
                desc="New folder",
            ),
            *rows,
            rid="folder_list",
        ),
    )


def build_new_folder(ctx: AppContext) -> Node:
    """Add folder: name it and save; the bookmark being edited moves into it."""

    def save(value: str | None = None) -> None:
        name = browser.add_folder(ctx.state, ctx.ui.get("folder_name", "") if value is None else value)
        if not name:
            ctx.toast("Enter a folder name")
            return
        mark = _bookmark(ctx, ctx.args["id"])
        if mark is not None:
            mark["folder"] = name
        ctx.phone.pop_screen()  # the new-folder editor
        ctx.phone.pop_screen()  # the folder picker: back on the bookmark editor

    name = text_field("folder_name", "Folder name", "folder_title", on_submit=save)
    name.weight = 1
    return column(
        app_bar("Add folder", ctx.back, button("Save", lambda: save(), rid="save_button", h=100)),
        text("Name", "caption", pad=(48, 24, 48, 0)),
        row(name, pad=(48, 0, 48, 0)),
    )
