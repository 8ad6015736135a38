"""The Discover tab's challenges: the ones you joined and the ones to join; a challenge's page with Join,
and Leave behind a confirmation. `challenges[].joined` is what checks read."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import Node
from ...widgets import button, column, dialog, divider, label_value, row, scroll_page, section_header, text
from . import content
from .common import card, glyph, nav, page_bar, today, week_start
from .stats import stats_for


def challenge_info(cid: str) -> tuple[str, str, str]:
    """(name, description, kind) of a challenge."""
    name, description, kind = next((n, d, k) for c, n, d, k in content.CHALLENGES if c == cid)
    return name, description, kind


def build_discover(ctx: AppContext) -> Node:
    challenges = ctx.state["challenges"]
    joined = [c for c in challenges if c["joined"]]
    others = [c for c in challenges if not c["joined"]]
    t = theme()
    return column(
        row(text("Discover", "headline", rid="discover_title"), pad=(48, 48, 48, 24)),
        scroll_page(
            "discover",
            section_header("Your challenges", rid="joined_header"),
            *[challenge_row(ctx, c) for c in joined],
            text("You haven't joined a challenge", "caption", pad=(48, 0, 48, 16)) if not joined else None,
            section_header("Challenges to join", rid="available_header"),
            *[challenge_row(ctx, c) for c in others],
            rid="challenges_list",
            bg=t.surface,
        ),
        nav(ctx, "Discover"),
        bg=t.surface,
    )


def challenge_row(ctx: AppContext, c: dict[str, Any]) -> Node:
    _, description, _ = challenge_info(c["id"])
    status = "Joined" if c["joined"] else f"{c['participants']} friends"
    return column(
        row(
            glyph("trophy", theme().primary, 110),
            column(
                text(c["name"], "subtitle", rid="challenge_name"),
                text(description, "caption", max_lines=2),
                weight=1,
                gap=4,
            ),
            text(status, "body_small", rid="challenge_status", bold=c["joined"]),
            pad=(48, 24, 48, 24),
            gap=28,
            valign="center",
        ),
        divider(),
        on_tap=ctx.link("challenge", id=c["id"]),
        rid="challenge_row",
        desc=c["name"],
    )


def build_challenge(ctx: AppContext) -> Node:
    c = next(c for c in ctx.state["challenges"] if c["id"] == ctx.args["id"])
    _, description, kind = challenge_info(c["id"])

    def join() -> None:
        c["joined"] = True
        ctx.toast(f"You joined {c['name']}")

    action = (
        button(
            "Leave challenge",
            ctx.opener("leave_challenge"),
            rid="leave_challenge_button",
            primary=False,
            colour=theme().error,
        )
        if c["joined"]
        else button("Join challenge", join, rid="join_challenge_button", colour=theme().primary)
    )
    return column(
        page_bar(ctx, c["name"]),
        scroll_page(
            "challenge",
            column(
                glyph("trophy", theme().primary, 200),
                text(c["name"], "headline", rid="challenge_title", align="center"),
                text(description, "body", align="center"),
                pad=48,
                gap=16,
                align="center",
            ),
            card(
                label_value("Status", "Joined" if c["joined"] else "Not joined", rid="challenge_joined"),
                label_value("Type", kind.capitalize()),
                label_value("Participants", str(c["participants"] + (1 if c["joined"] else 0))),
                pad=0,
            ),
            column(action, pad=48),
            *(standings(ctx, c, kind) if c["joined"] else []),
        ),
        bg=theme().surface,
    )


def your_steps(ctx: AppContext, kind: str) -> int:
    """Your steps that count in a challenge of this kind so far: today's, this weekend's, this
    workweek's, or the whole week's."""
    day = today(ctx)
    if kind == "day":
        steps: int = stats_for(ctx, day)["steps"]
        return steps

    def counts(d: date) -> bool:
        """Whether a day's steps count in this kind of challenge."""
        if kind == "weekend":
            return d.weekday() >= 5
        if kind == "workweek":
            return d.weekday() < 5
        return True

    start = week_start(ctx, day)
    days = [start + timedelta(days=i) for i in range((day - start).days + 1)]
    return sum(stats_for(ctx, d)["steps"] for d in days if counts(d))


def standings(ctx: AppContext, c: dict[str, Any], kind: str) -> list[Node]:
    """The leaderboard of a joined challenge, you included."""
    board = content.leaderboard(ctx.state["stats_seed"], c["id"], c["participants"], your_steps(ctx, kind))
    rows = [
        row(
            text(str(rank), "subtitle", w=80),
            text(name, "body", weight=1, bold=name == "You", rid="leaderboard_name"),
            text(f"{steps:,} steps", "body_small", rid="leaderboard_steps"),
            pad=(48, 20, 48, 20),
            valign="center",
            rid="leaderboard_row",
            bg=theme().pale if name == "You" else None,
        )
        for rank, (name, steps) in enumerate(board, start=1)
    ]
    return [section_header("Leaderboard", rid="leaderboard_header"), *rows]


def leave_dialog(ctx: AppContext) -> Node:
    c = next(c for c in ctx.state["challenges"] if c["id"] == ctx.args["id"])

    def leave() -> None:
        c["joined"] = False
        ctx.close()
        ctx.toast(f"You left {c['name']}")

    return dialog(
        f"Leave {c['name']}?",
        [text("Your steps will no longer count in this challenge.", "body_small", pad=(60, 0, 60, 20))],
        [
            button("Cancel", ctx.close, rid="cancel_button", primary=False),
            button("Leave", leave, rid="confirm_leave_button", colour=theme().error),
        ],
        ctx.close,
    )
