"""Keeping videos: a video's three-dot action menu, the "Save video to..." sheet (Watch later and the user's
playlists, ticked and unticked in place), the "New playlist" dialog and the Share sheet."""

from __future__ import annotations

from collections.abc import Callable

from ...app import AppContext
from ...intents import ACTION_SEND, EXTRA_TEXT, Intent
from ...theme import theme
from ...ui import Node
from ...widgets import (
    bottom_sheet,
    button,
    checkbox,
    column,
    dialog,
    divider,
    list_item,
    radio,
    row,
    spacer,
    text,
    text_field,
)
from .. import system
from . import content as c
from . import model


def video_menu(ctx: AppContext) -> Node:
    """The three-dot menu of a video in a list; what it offers depends on the list it was opened from."""
    vid, source = ctx.dialog_args["video_id"], ctx.dialog_args.get("source")
    v = c.videos()[vid]
    in_wl = vid in ctx.state["watch_later"]

    def then_close(action: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            ctx.close()
            action()

        return run

    def watch_later() -> None:
        model.toggle_saved(ctx.state, model.WATCH_LATER, vid)
        ctx.toast("Removed from Watch later" if in_wl else "Saved to Watch later")

    def forget() -> None:
        ctx.state["history"] = [h for h in ctx.state["history"] if h["video_id"] != vid]
        ctx.toast("Removed from watch history")

    def drop_from(list_id: str) -> Callable[[], None]:
        def run() -> None:
            if list_id == model.LIKED:
                ctx.state["liked"].remove(vid)
            else:
                model.toggle_saved(ctx.state, list_id, vid)
            ctx.toast(f"Removed from {model.list_name(ctx.state, list_id)}")

        return run

    items = [
        list_item("Remove from Watch later" if in_wl else "Save to Watch later", icon="watch_later",
                  on_tap=then_close(watch_later), rid="menu_item_watch_later"),
        list_item("Save to playlist", icon="playlist_add", on_tap=ctx.opener("save", video_id=vid),
                  rid="menu_item_save_to_playlist"),
        list_item("Share", icon="share", on_tap=ctx.opener("share", video_id=vid), rid="menu_item_share"),
    ]  # fmt: skip
    if source == "history":
        items.append(list_item("Remove from watch history", icon="delete", on_tap=then_close(forget),
                               rid="menu_item_remove_history"))  # fmt: skip
    elif source == model.LIKED or (source and model.playlist(ctx.state, source)):
        name = model.list_name(ctx.state, source)
        items.append(list_item(f"Remove from {name}", icon="delete", on_tap=then_close(drop_from(source)),
                               rid="menu_item_remove_playlist"))  # fmt: skip
    return bottom_sheet(v.title, items, ctx.close, rid="video_menu")


def save_sheet(ctx: AppContext) -> Node:
    """ "Save video to...": every list the video can go to, ticked where it is; a tick saves at once."""
    vid = ctx.dialog_args["video_id"]

    def flip(list_id: str) -> Callable[[], None]:
        def run() -> None:
            saved = model.toggle_saved(ctx.state, list_id, vid)
            name = model.list_name(ctx.state, list_id)
            ctx.toast(f"Saved to {name}" if saved else f"Removed from {name}")

        return run

    lists = [(model.WATCH_LATER, "Watch later", vid in ctx.state["watch_later"])]
    lists += [(p["id"], p["name"], vid in p["videos"]) for p in ctx.state["playlists"]]
    boxes = [
        checkbox(name, ticked, flip(list_id), rid="playlist_checkbox") for list_id, name, ticked in lists
    ]
    t = theme()
    new = list_item("New playlist", icon="plus", on_tap=ctx.opener("new_playlist", video_id=vid),
                    rid="create_playlist_button")  # fmt: skip
    done = row(
        spacer(weight=1), button("Done", ctx.close, rid="done_button", colour=t.ink), pad=(48, 8, 48, 0)
    )
    return bottom_sheet("Save video to...", [*boxes, divider(), new, done], ctx.close, rid="save_sheet")


def create(ctx: AppContext) -> None:
    """Create the playlist named in the dialog, with the video it was opened for (if any)."""
    name = " ".join(str(ctx.ui.get("playlist_name", "")).split())
    if not name:
        ctx.toast("Enter a playlist title")
        return
    vid = ctx.dialog_args.get("video_id")
    privacy = ctx.ui.get("playlist_privacy", "private")
    model.create_playlist(ctx.state, name, privacy, [vid] if vid else [])
    ctx.close()
    for key in ("playlist_name", "playlist_privacy"):
        ctx.ui.pop(key, None)
    ctx.toast(f"Saved to {name}" if vid else f"Created {name}")


def new_playlist_dialog(ctx: AppContext) -> Node:
    chosen = ctx.ui.get("playlist_privacy", "private")

    def choose(key: str) -> Callable[[], None]:
        return lambda: ctx.ui.__setitem__("playlist_privacy", key)

    title = text_field("playlist_name", "Choose a title", "playlist_title",
                       value=str(ctx.ui.get("playlist_name", "")), on_submit=lambda _: None)  # fmt: skip
    privacy = [
        radio(label, key == chosen, choose(key), rid="privacy_option") for key, label in model.PRIVACY.items()
    ]
    ink = theme().ink
    return dialog(
        "New playlist",
        [column(title, pad=(60, 0, 60, 12)), text("Privacy", "label", pad=(60, 12, 60, 0)), *privacy],
        [button("Cancel", ctx.close, rid="cancel_button", primary=False, colour=ink),
         button("Create", lambda: create(ctx), rid="create_button", colour=ink)],
        ctx.close,
        rid="new_playlist_dialog",
    )  # fmt: skip


def share_targets(ctx: AppContext) -> list[tuple[str, str]]:
    """(label, package) of the other installed apps that take shared text, as the share sheet lists them."""
    apps = [a for a in ctx.phone.apps.values() if a.package != ctx.app.package]
    return [(app.label, app.package) for app in system.share_targets(apps)]


def share_sheet(ctx: AppContext) -> Node:
    vid = ctx.dialog_args["video_id"]
    link = f"https://youtu.be/{vid}"

    def copy() -> None:
        ctx.phone.clipboard = link
        ctx.close()
        ctx.toast("Link copied to clipboard")

    def send(package: str) -> Callable[[], None]:
        def run() -> None:
            ctx.close()
            title = c.videos()[vid].title
            error = ctx.start_activity(Intent(ACTION_SEND, mime_type="text/plain", package=package,
                                              extras={EXTRA_TEXT: f"{title} {link}"}))  # fmt: skip
            if error:
                ctx.toast("Couldn't share the video")

        return run

    items = [list_item("Copy link", link, icon="link", on_tap=copy, rid="copy_link")]
    items += [
        list_item(label, icon="send", on_tap=send(pkg), rid="share_target")
        for label, pkg in share_targets(ctx)
    ]
    return bottom_sheet("Share", items, ctx.close, rid="share_sheet")
