"""What Maps' screens share: the bottom navigation, the search bar, pictures of places and the
map as screens use it (a view fitted to their pins, taps that open a place)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ...app import AppContext
from ...theme import theme
from ...ui import EDIT, IMAGE, Node
from ...widgets import bottom_nav, column, icon_button, image, row, text
from .. import people
from . import model
from .content import CITIES
from .mapview import Viewport, draw_map

SELECTED = "#e8f0fe"  # the pale blue behind a selected travel mode or route
TABS = (("Explore", "pin", "map"), ("You", "person", "you"), ("Contribute", "plus", "contribute"))
OWNER = people.owner()["name"]
Submit = Callable[[str], None] | None
# what a place's picture shows, by its category; anything else is a street view of the city
PICTURES = {
    "Restaurant": "dish",
    "Bar": "bar",
    "Coffee shop": "coffee",
    "Gas station": "street",
    "Grocery store": "grocery",
    "Pharmacy": "beauty",
    "Landmark": "landmark",
    "Stadium": "sport",
    "Beach": "beach",
    "Hotel": "hotel",
    "Park": "park",
    "Zoo": "park",
    "Museum": "museum",
    "Library": "museum",
}


def page(*children: Node | None, **kw: Any) -> Node:
    """A whole screen on the theme's surface, so the app keeps its own background whatever the phone's."""
    return column(*children, bg=theme().surface, **kw)


def tab_title(title: str, *actions: Node) -> Node:
    """The big title atop a bottom-navigation tab (You, Contribute)."""
    return row(text(title, "headline", weight=1), *actions, h=168, pad=(40, 0, 40, 0))


def picture(p: dict[str, Any]) -> str:
    """A place's picture, the same in every list and on its page."""
    return f"{PICTURES.get(p.get('category', ''), 'city')}:{p['id']}"


def avatar(
    name: str, size: int, on_tap: Callable[[], None] | None = None, rid: str = "", desc: str = ""
) -> Node:
    """A person's round face picture, the same for them everywhere."""
    return image(f"avatar:{name}", size, size, desc=desc or name, rid=rid, radius=size // 2, on_tap=on_tap)


def filled_field(
    field: str, hint: str, rid: str, value: str = "", on_submit: Submit = None, **kw: Any
) -> Node:
    """A text field on a pale fill, as Maps draws its start, destination and review boxes (`kw` restyles)."""
    t = theme()
    style: dict[str, Any] = {
        "size": t.style("body_small").size,
        "h": 110,
        "bg": t.pale,
        "radius": 20,
        "pad": (28, 0, 28, 0),
    }
    return Node(EDIT, field=field, hint=hint, rid=rid, text=value, on_submit=on_submit, **(style | kw))


def open_place(ctx: AppContext, place_id: str) -> Callable[[], None]:
    """A tap that opens a place's sheet and moves the map to its city."""

    def tap() -> None:
        p = model.place(ctx.state, place_id)
        if p is not None and p["city"] in CITIES:
            ctx.state["map"]["city"] = p["city"]
        ctx.go("place", place_id=place_id)

    return tap


def nav(ctx: AppContext, current: str) -> Node:
    """The Explore / You / Contribute bar; a tab opens its root screen as Android's bottom navigation does."""
    label = next(lab for lab, _, root in TABS if root == current)
    roots = {lab: root for lab, _, root in TABS}
    tabs = [(lab, icon) for lab, icon, _ in TABS]
    return bottom_nav(tabs, label, lambda tab: ctx.switch_tab(ctx.screen(roots[tab])))


def search_bar(ctx: AppContext, value: str = "", on_back: Callable[[], None] | None = None) -> Node:
    """The floating search box: Back (or the Maps pin), the query, voice search and the account."""
    t = theme()
    lead = Node(IMAGE, icon="pin", fg=t.error, size=56, w=90, h=90, align="center")
    if on_back:
        lead = icon_button("back", "Navigate up", on_back, rid="navigate_up", size=56)
    look = {"size": t.style("body").size, "weight": 1, "h": 120, "bg": t.surface, "pad": 0}
    query = filled_field(
        "q", "Search here", "search_omnibox_text_box", value, partial(run_search, ctx), **look
    )
    mic = Node(IMAGE, icon="mic", fg=t.muted, size=52, w=80, h=80, desc="Voice search", align="center")
    account = avatar(OWNER, 84, ctx.opener("account"), rid="account_button", desc="Account and settings")
    pill = {"bg": t.surface, "border": t.divider, "radius": 66, "h": 132, "pad": (20, 0, 20, 0), "gap": 12}
    return row(lead, query, mic, account, rid="search_bar", **pill)


def run_search(ctx: AppContext, query: str, city: str | None = None) -> None:
    """What the search bar does: a single place or address opens its sheet, anything else lists results."""
    query = query.strip()
    if not query:
        return
    ctx.ui.pop("q", None)
    model.remember_search(ctx.state, query)
    args = model.search_args(ctx.state, query, city)
    found = None if args["category"] else model.resolve(ctx.state, query, args["city"])
    if found is not None:
        open_place(ctx, found["id"])()
    else:
        ctx.go("results", **args)


def map_of(
    ctx: AppContext,
    view: Viewport,
    city: str,
    pins: Sequence[dict[str, Any]],
    route: tuple[dict[str, Any], dict[str, Any], str] | None = None,
) -> Node:
    """The map of `city` with `pins` that open their place, the city's parks and an optional route."""
    parks = [p for p in ctx.state["places"].values() if p["city"] == city and p["category"] == "Park"]
    return draw_map(view, city, pins, lambda p: open_place(ctx, p["id"]), parks, route)
