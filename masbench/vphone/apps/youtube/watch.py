"""The watch page: the player (play/pause, the settings gear with captions and playback speed), the
title, the channel with Subscribe, the action row (Like, Dislike, Share, Save, Download), comments and
what to watch next."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ...app import AppContext
from ...theme import theme
from ...ui import BUTTON, FRAME, IMAGE, IMAGE_BUTTON, VIEWGROUP, Node
from ...widgets import (
    bottom_sheet,
    button,
    choice_dialog,
    column,
    dialog,
    divider,
    icon_button,
    image,
    list_item,
    row,
    scroll_list,
    scroll_page,
    spacer,
    text,
    text_field,
)
from . import content as c
from . import model
from .common import avatar, empty, inner_bar, video_row

PLAYER_H = 608


def pause_glyph() -> Node:
    """Two white bars: Material's pause symbol, drawn from boxes."""
    bar = partial(Node, VIEWGROUP, w=22, h=64, bg="#ffffff", radius=4)
    return row(bar(), bar(), gap=18, w=62, h=64)


def player(ctx: AppContext, v: c.Video) -> Node:
    """The video frame with its controls: play/pause in the middle, the settings gear in the corner."""
    playing = (ctx.state["now_playing"] or {}) == {"video_id": v.id, "playing": True}

    def toggle_play() -> None:
        ctx.state["now_playing"] = {"video_id": v.id, "playing": not playing}

    glyph = pause_glyph() if playing else Node(IMAGE, icon="play", size=80, w=80, h=80, fg="#ffffff")
    control = Node(IMAGE_BUTTON, layout="stack", w=150, h=150, radius=75, bg="#00000088", align="center",
                   valign="center", on_tap=toggle_play, desc="Pause video" if playing else "Play video",
                   rid="player_control_play_pause_replay_button", children=[glyph])  # fmt: skip
    middle = Node(FRAME, layout="stack", h=PLAYER_H, align="center", valign="center", children=[control])
    gear = icon_button("settings", "Settings", ctx.opener("player_settings", video_id=v.id),
                       rid="player_overflow_button", fg="#ffffff")  # fmt: skip
    corner = row(spacer(weight=1), gear, h=140, pad=(0, 8, 8, 0), valign="start")
    return Node(FRAME, layout="stack", h=PLAYER_H, bg="#000000", rid="player_view", children=[
        image(f"{'short' if v.kind == 'short' else 'video'}:{v.id}", 1080, PLAYER_H, desc=v.title), middle, corner,
    ])  # fmt: skip


def action_chip(label: str, icon: str, on_tap: Callable[[], None], rid: str, selected: bool = False,
                desc: str = "") -> Node:  # fmt: skip
    t = theme()
    return Node(
        BUTTON, text=label, icon=icon, on_tap=on_tap, rid=rid, selected=selected,
        bg="#0f0f0f" if selected else t.pale, fg="#ffffff" if selected else t.ink, size=34, bold=True,
        radius=50, h=100, pad=(30, 0, 34, 0), align="center", desc=desc or label,
    )  # fmt: skip


def actions(ctx: AppContext, v: c.Video) -> Node:
    s = ctx.state
    liked, disliked = v.id in s["liked"], v.id in s["disliked"]
    saved = v.id in s["watch_later"] or any(v.id in p["videos"] for p in s["playlists"])
    downloaded = v.id in s["downloads"]

    def download() -> None:
        ctx.toast("Downloading..." if model.toggle(s["downloads"], v.id) else "Removed from downloads")

    chips = [
        action_chip(c.compact(v.likes + liked), "thumb_up", lambda: model.rate(s, v.id, True), "like_button",
                    liked, desc=f"{'Unlike' if liked else 'Like'} this video along with {v.likes + liked:,} other people"),
        action_chip("Dislike", "thumb_down", lambda: model.rate(s, v.id, False), "dislike_button", disliked,
                    desc="Remove dislike" if disliked else "Dislike this video"),
        action_chip("Share", "share", ctx.opener("share", video_id=v.id), "share_button"),
        action_chip("Saved" if saved else "Save", "playlist_add", ctx.opener("save", video_id=v.id), "save_button",
                    saved, desc="Save to playlist"),
        action_chip("Downloaded" if downloaded else "Download", "download", download, "download_button", downloaded),
    ]  # fmt: skip
    return scroll_list(
        "actions", chips, rid="video_action_bar", horizontal=True, gap=18, pad=(32, 12, 32, 12)
    )


def subscribe_button(ctx: AppContext, ch: c.Channel) -> Node:
    """Subscribe (in YouTube's black) or Subscribed, which asks before unsubscribing."""
    t = theme()
    if ch.id in ctx.state["subscriptions"]:
        node = button("Subscribed", ctx.opener("unsubscribe", channel_id=ch.id), rid="subscribe_button",
                      primary=False, colour=t.ink, h=100, desc=f"Unsubscribe from {ch.name}")  # fmt: skip
        node.selected = True
        return node

    def subscribe() -> None:
        ctx.state["subscriptions"].append(ch.id)
        ctx.state["subscriptions"].sort(key=model.channel_order)
        ctx.toast("Subscription added")

    return button("Subscribe", subscribe, rid="subscribe_button", colour="#0f0f0f", h=100,
                  desc=f"Subscribe to {ch.name}")  # fmt: skip


def build_watch(ctx: AppContext) -> Node:
    v = c.video(ctx.args["video_id"])
    if v is None:
        return column(player_missing(ctx), weight=1)
    ch = c.channel_of(v)
    t = theme()
    mine = [x for x in ctx.state["comments"] if x["video_id"] == v.id]
    first = mine[-1]["text"] if mine else c.comments(v)[0]["text"]
    count = len(c.comments(v)) + len(mine)
    related = [x for x in c.videos().values()
               if x.id != v.id and x.kind == "video" and c.channel_of(x).chip == ch.chip][:6]  # fmt: skip
    meta = f"{c.views_label(v)}  {'Streaming now' if v.kind == 'live' else c.ago(v.age_hours)}"
    page = scroll_page(
        "watch",
        column(
            text(v.title, "heading", max_lines=3, rid="watch_title"),
            text(meta, "caption", rid="watch_meta"),
            pad=(36, 28, 36, 12),
            gap=10,
        ),
        row(
            avatar(ch, 100, ctx.link("channel", channel_id=ch.id)),
            column(
                text(ch.name, "subtitle", max_lines=1, rid="channel_name"),
                text(f"{c.compact(ch.subscribers)} subscribers", "caption"),
                weight=1,
                on_tap=ctx.link("channel", channel_id=ch.id),
                desc=f"Go to channel {ch.name}",
                rid="channel_row",
            ),
            subscribe_button(ctx, ch),
            pad=(36, 16, 36, 16),
            gap=24,
            valign="center",
        ),
        actions(ctx, v),
        column(
            column(
                row(
                    text("Comments", "label"), text(str(count), "caption", pad=(16, 0, 0, 0)), valign="center"
                ),
                text(first, "body_small", max_lines=2),
                bg=t.pale,
                radius=24,
                pad=28,
                gap=10,
                on_tap=ctx.opener("comments", video_id=v.id),
                rid="comments_entry_point",
                desc="Comments",
            ),
            pad=(32, 4, 32, 0),
        ),
        column(
            text(uploaded_line(ctx, v), "body_small", bold=True, rid="upload_info"),
            text(c.description(v), "body_small", fg=t.muted, max_lines=4, rid="description"),
            pad=(36, 24, 36, 12),
            gap=8,
        ),
        divider(),
        *(video_row(ctx, x) for x in related),
        gap=12,
    )
    return column(player(ctx, v), page, bg=t.surface)


def uploaded_line(ctx: AppContext, v: c.Video) -> str:
    """The description's first line: exact views and the upload date on the phone's calendar."""
    when = c.uploaded_at(v, model.epoch(ctx.state))
    if v.kind == "live":
        return f"{v.views:,} watching now · Started streaming {when:%b} {when.day}, {when.year}"
    return f"{v.views:,} views · {when:%b} {when.day}, {when.year}"


def player_missing(ctx: AppContext) -> Node:
    return column(inner_bar(ctx, "YouTube"), empty("This video isn't available anymore"))


# -- sheets --------------------------------------------------------------------------------------------


def player_settings_sheet(ctx: AppContext) -> Node:
    vid = ctx.dialog_args["video_id"]
    now = model.player_settings(ctx.state, vid)
    return bottom_sheet(
        "Settings",
        [
            list_item("Quality", "Auto (720p)", icon="settings", rid="quality_item",
                      on_tap=lambda: ctx.toast("Quality is set automatically on this connection")),
            list_item("Captions", now["captions"], icon="captions", on_tap=ctx.opener("captions", video_id=vid),
                      rid="captions_item"),
            list_item("Playback speed", model.speed_label(now["speed"]), icon="speed",
                      on_tap=ctx.opener("speed", video_id=vid), rid="playback_speed_item"),
        ],
        ctx.close,
        rid="player_settings_sheet",
    )  # fmt: skip


def setting_choice(ctx: AppContext, key: str, title: str, choices: dict[str, str], current: str) -> Node:
    vid = ctx.dialog_args["video_id"]

    def pick(choice: str) -> None:
        value: object = float(choice) if key == "speed" else choice
        model.set_player(ctx.state, vid, key, value)
        ctx.close()

    return choice_dialog(
        title, choices, current, pick, ctx.close, rid=f"{key}_dialog", option_rid=f"{key}_option"
    )


def captions_sheet(ctx: AppContext) -> Node:
    v = c.videos()[ctx.dialog_args["video_id"]]
    current = model.player_settings(ctx.state, v.id)["captions"]
    choices = {"Off": "Off", **{lang: lang for lang in v.captions}}
    return setting_choice(ctx, "captions", "Captions", choices, current)


def speed_sheet(ctx: AppContext) -> Node:
    current = model.player_settings(ctx.state, ctx.dialog_args["video_id"])["speed"]
    choices = {str(s): model.speed_label(s) for s in model.SPEEDS}
    return setting_choice(ctx, "speed", "Playback speed", choices, str(float(current)))


def comments_sheet(ctx: AppContext) -> Node:
    """Comments: a field to add one (posted at once) above the user's and others' comments."""
    v = c.videos()[ctx.dialog_args["video_id"]]

    def post(value: str) -> None:
        message = " ".join(value.split())
        if not message:
            return
        model.add_comment(ctx.state, v.id, message, ctx.now())
        ctx.ui.pop("comment_text", None)
        ctx.toast("Comment posted")

    typed = str(ctx.ui.get("comment_text", ""))
    composer = row(
        column(text_field("comment_text", "Add a comment...", "comment_field", value=typed, on_submit=post),
               weight=1),
        icon_button("send", "Post comment", lambda: post(str(ctx.ui.get("comment_text", ""))), rid="send_button"),
        pad=(36, 0, 16, 12), gap=12, valign="center",
    )  # fmt: skip
    mine = [("@you", x["text"], "Just now") for x in reversed(ctx.state["comments"]) if x["video_id"] == v.id]
    others = [(x["author"], x["text"], c.ago(int(x["age"][:-1]))) for x in c.comments(v)]
    rows = [
        column(text(f"{author} · {when}", "caption", rid="comment_author"),
               text(body, "body_small", max_lines=3, rid="comment_text"), pad=(48, 16, 48, 16), gap=6)
        for author, body, when in [*mine, *others][:5]
    ]  # fmt: skip
    return bottom_sheet("Comments", [composer, divider(), *rows], ctx.close, rid="comments_sheet")


def unsubscribe_dialog(ctx: AppContext) -> Node:
    ch = c.channels()[ctx.dialog_args["channel_id"]]

    def confirm() -> None:
        ctx.state["subscriptions"].remove(ch.id)
        ctx.close()
        ctx.toast("Subscription removed")

    ink = theme().ink
    return dialog(
        f"Unsubscribe from {ch.name}?",
        [],
        [button("Cancel", ctx.close, rid="cancel_button", primary=False, colour=ink),
         button("Unsubscribe", confirm, rid="unsubscribe_button", primary=False, colour="#065fd4")],
        ctx.close,
        rid="unsubscribe_dialog",
    )  # fmt: skip
