"""Yelp's events (list by city and category, event page with Interested / I'm in), the Me tab with the
user's reviews and events, and the Projects tab."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from ...app import AppContext
from ...ui import IMAGE, TEXT, Node
from ...widgets import (
    button,
    chip,
    column,
    divider,
    icon_button,
    list_item,
    rating,
    row,
    scroll_list,
    scroll_page,
    text,
)
from . import model
from .common import GREY, INK, PALE, RED, back_bar, event_when, nav, open_biz, plural, section_title
from .content import EVENT_CATEGORIES, city_of
from .search_screens import open_results

PROJECTS = (
    "Movers",
    "Plumbers",
    "Electricians",
    "Contractors",
    "Landscaping",
    "House Cleaners",
    "Handyman",
    "Painters",
)
DESCRIPTIONS = {
    "Music": "Live sets all night from local bands. Come early for a good spot near the stage.",
    "Food & Drink": "Sample dishes and drinks from the city's favourite spots. Bring friends and an appetite.",
    "Arts & Culture": "Meet local artists and see new work. All ages welcome.",
    "Nightlife": "Dance, sing and mingle. Drink specials until 10 PM.",
    "Sports & Active Life": "All levels welcome. Bring water and comfortable shoes.",
    "Kids & Family": "A fun morning for the little ones, with snacks and activities.",
}


# -- events -----------------------------------------------------------------------------------------


def events(ctx: AppContext) -> Node:
    args = ctx.args
    city = city_of(args.get("location") or "") or city_of(ctx.state["location"])
    category = args.get("category") or "All"
    shown = [e for e in ctx.state["events"] if e["city"] == city and category in ("All", e["category"])]
    items: list[Node] = []
    day = ""
    for event in shown:
        when = datetime.fromisoformat(event["start"])
        label = f"{when:%A, %B} {when.day}"
        if label != day:
            items.append(text(label, size=36, bold=True, fg=GREY, pad=(40, 30, 40, 10), rid="date_header"))
            day = label
        items.append(_event_card(ctx, event))
    if not items:
        items.append(text("No upcoming events match.", "lead", pad=(60, 100, 60, 0), rid="no_events"))

    def set_category(value: str) -> None:
        ctx.args["category"] = value
        ctx.ui.get("scroll", {}).pop("events", None)

    chips = [
        chip(c, c == category, partial(set_category, c), rid="event_category", colour=RED)
        for c in ("All", *EVENT_CATEGORIES)
    ]
    body = column(
        back_bar(ctx, "Events"),
        row(Node(TEXT, text=args.get("location") or ctx.state["location"], icon="pin", size=38, fg=INK, rid="events_location",
                 desc="Change location", on_tap=ctx.opener("location"), h=100, pad=(40, 0, 40, 0))),
        scroll_list("event_categories", chips, rid="event_categories", horizontal=True, gap=18, pad=(32, 0, 32, 16)),
        divider(),
        scroll_list("events", items, rid="events_list"),
        bg="#ffffff",
    )  # fmt: skip
    return body


def _event_card(ctx: AppContext, event: dict[str, Any]) -> Node:
    status = model.rsvp_status(ctx.state, event["id"])
    badge = {"interested": "Interested", "going": "You're going"}.get(status or "", "")
    return row(
        Node(IMAGE, image=event["id"], desc=event["name"], w=200, h=200, radius=16),
        column(
            text(event["name"], "subtitle", max_lines=2, rid="event_name"),
            text(event_when(event), size=34, fg=RED, rid="event_time"),
            text(event["venue"], "meta", max_lines=1, rid="event_venue"),
            text(f"{event['category']} · {event['interested']} interested" + (f" · {badge}" if badge else ""), "overline", rid="event_meta"),
            weight=1, gap=6,
        ),
        on_tap=ctx.link("event", event_id=event["id"]), desc=event["name"], rid="event_card", pad=(40, 20, 40, 20), gap=30,
    )  # fmt: skip


def event(ctx: AppContext) -> Node:
    ev = next(e for e in ctx.state["events"] if e["id"] == ctx.args["event_id"])
    status = model.rsvp_status(ctx.state, ev["id"])

    def choose(value: str) -> None:
        model.set_rsvp(ctx.state, ev, value)
        ctx.log("yelp_rsvp", event_id=ev["id"], status=model.rsvp_status(ctx.state, ev["id"]))

    interested = status == "interested"
    going = status == "going"
    return column(
        back_bar(ctx, "Event"),
        scroll_page(
            "event",
            Node(IMAGE, image=ev["id"], desc=ev["name"], h=520, rid="event_photo"),
            column(
                text(ev["category"].upper(), size=30, bold=True, fg=RED, rid="event_category_label"),
                text(ev["name"], "headline", rid="event_title"),
                Node(TEXT, text=event_when(ev), icon="calendar", size=38, fg=INK, rid="event_time"),
                Node(TEXT, text=ev["venue"], icon="pin", size=38, fg=RED, bold=True, rid="event_venue",
                     on_tap=open_biz(ctx, ev["venue_id"]), desc=f"Venue: {ev['venue']}"),
                text(ev["address"], "caption", rid="event_address"),
                text(f"Price: {ev['price']}", "body", rid="event_price"),
                text(f"{ev['interested'] + (1 if status else 0)} people are interested", "caption", rid="interested_count"),
                pad=(40, 30, 40, 20), gap=14,
            ),
            row(
                button("Interested", lambda: choose("interested"), rid="interested_button", primary=interested, colour=RED,
                       icon="star" if interested else "star_outline", selected=interested, weight=1),
                button("I'm in", lambda: choose("going"), rid="im_in_button", primary=going, colour=RED,
                       icon="check" if going else None, selected=going, weight=1),
                gap=24, pad=(40, 10, 40, 20),
            ),
            divider(),
            section_title("About this event"),
            text(DESCRIPTIONS[ev["category"]], "body", pad=(40, 0, 40, 40)),
            rid="event_page",
        ),
        bg="#ffffff",
    )  # fmt: skip


# -- Me, Projects -----------------------------------------------------------------------------------


def me(ctx: AppContext) -> Node:
    state = ctx.state
    user = state["user"]
    stats = row(
        *[column(text(str(n), "rank", align="center"), text(label, "overline", align="center"),
                 weight=1, desc=f"{n} {label}", rid="profile_stat")
          for n, label in ((len(state["reviews"]), "Reviews"), (len(state["bookmarks"]), "Bookmarks"),
                           (len(state["event_rsvps"]), "Events"))],
        pad=(40, 20, 40, 20),
    )  # fmt: skip
    return column(
        row(text("Me", "headline", weight=1), icon_button("settings", "Settings", None, rid="settings"),
            h=168, pad=(40, 0, 16, 0), valign="center"),
        scroll_page(
            "me",
            row(Node(IMAGE, image="avatar:" + user["name"], desc=user["name"], w=200, h=200, radius=100),
                column(text(user["name"], size=52, bold=True, fg=INK, rid="user_name"), text(user["location"], "caption"),
                       gap=8), gap=36, pad=(40, 20, 40, 20), valign="center"),
            stats,
            divider(),
            list_item("My Reviews", plural(len(state["reviews"]), "review"), on_tap=ctx.link("my_reviews"), icon="star", rid="my_reviews"),
            list_item("My Events", plural(len(state["event_rsvps"]), "event"), on_tap=ctx.link("my_events"), icon="calendar", rid="my_events"),
            list_item("My Bookmarks", plural(len(state["bookmarks"]), "place"), on_tap=ctx.link("collection", collection="My Bookmarks"),
                      icon="bookmark", rid="my_bookmarks"),
            list_item("Events Near You", state["location"], on_tap=ctx.link("events", location=state["location"], category="All"),
                      icon="bell", rid="events_entry"),
        ),
        nav(ctx, "me"),
        bg="#ffffff",
    )  # fmt: skip


def my_reviews(ctx: AppContext) -> Node:
    items = [
        column(
            text(r["name"], "name", rid="review_business", on_tap=open_biz(ctx, r["biz_id"])),
            rating(float(r["rating"]), colour=RED),
            text(r["text"], "body", rid="review_text"),
            text(f"{r['city']} · {r['date']}", "overline"),
            pad=(40, 24, 40, 24), gap=10, rid="my_review",
        )
        for r in ctx.state["reviews"]
    ] or [text("You haven't written any reviews yet.", "lead", pad=(60, 100, 60, 0))]  # fmt: skip
    return column(
        back_bar(ctx, "My Reviews"), scroll_list("my_reviews", items, rid="reviews_list"), bg="#ffffff"
    )


def my_events(ctx: AppContext) -> Node:
    labels = {"interested": "Interested", "going": "I'm in"}
    items = [
        list_item(r["name"], f"{r['date']} · {r['venue']} · {labels[r['status']]}", on_tap=ctx.link("event", event_id=r["event_id"]),
                  icon="calendar", rid="my_event")
        for r in ctx.state["event_rsvps"]
    ] or [text("No events yet. Find something fun on Events.", "lead", pad=(60, 100, 60, 0))]  # fmt: skip
    return column(
        back_bar(ctx, "My Events"), scroll_list("my_events", items, rid="events_list"), bg="#ffffff"
    )


def projects(ctx: AppContext) -> Node:
    tiles = [list_item(p, "Get quotes from top local pros", on_tap=partial(open_results, ctx, p), icon="chevron", rid="project_type")
             for p in PROJECTS]  # fmt: skip
    return column(
        row(text("Projects", "headline", weight=1), h=168, pad=(40, 0, 40, 0), valign="center"),
        scroll_page(
            "projects",
            column(text("Start a project", "heading"), text("Tell us what you need and get quotes from pros.", "caption"), pad=(40, 20, 40, 20), gap=10, bg=PALE),
            *tiles,
        ),
        nav(ctx, "projects"),
        bg="#ffffff",
    )  # fmt: skip
