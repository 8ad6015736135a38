"""Chrome's Settings: the search engine, the home page, Desktop site, and Delete browsing data with its
time range and the kinds of data to delete."""

from __future__ import annotations

from functools import partial

from ...app import AppContext
from ...ui import Node
from ...widgets import (
    app_bar,
    button,
    checkbox,
    choice_dialog,
    column,
    list_item,
    radio,
    row,
    scroll_page,
    section_header,
    spacer,
    switch,
    text,
    text_field,
)
from . import browser
from .tab import display_url
from .web import content as web


def build_settings(ctx: AppContext) -> Node:
    prefs = ctx.state["settings"]
    homepage = (
        "Chrome's new tab page" if prefs["homepage"] == web.NEW_TAB else display_url(prefs["homepage"], 40)
    )

    def toggle_desktop() -> None:
        prefs["desktop_site"] = not prefs["desktop_site"]

    return column(
        app_bar("Settings", ctx.back),
        scroll_page(
            "settings",
            section_header("Basics"),
            list_item("Search engine", prefs["search_engine"], on_tap=ctx.link("search_engine"),
                      rid="search_engine_pref", icon="search"),
            list_item("Homepage", homepage, on_tap=ctx.link("homepage"), rid="homepage_pref", icon="home"),
            section_header("Privacy and security"),
            list_item("Delete browsing data", "Delete history, cookies, site data and cache",
                      on_tap=ctx.link("clear_data"), rid="clear_browsing_data_pref", icon="delete"),
            section_header("Advanced"),
            switch("Desktop site", prefs["desktop_site"], toggle_desktop, rid="desktop_site_switch"),
            rid="settings_list",
        ),
    )  # fmt: skip


def build_search_engine(ctx: AppContext) -> Node:
    prefs = ctx.state["settings"]

    def pick(engine: str) -> None:
        prefs["search_engine"] = engine

    options = [radio(name, prefs["search_engine"] == name, partial(pick, name), rid="search_engine_option")
               for name in web.ENGINES]  # fmt: skip
    return column(
        app_bar("Search engine", ctx.back), scroll_page("engines", *options, rid="search_engine_list")
    )


def build_homepage(ctx: AppContext) -> Node:
    """Chrome's new tab page, or a custom address saved when typed (Enter) as the address bar fixes it up."""
    prefs = ctx.state["settings"]
    custom = prefs["homepage"] != web.NEW_TAB

    def use_new_tab() -> None:
        prefs["homepage"] = web.NEW_TAB

    def save(value: str) -> None:
        if value.strip():
            prefs["homepage"] = web.normalise(web.fix_up(value, prefs["search_engine"]))

    field = text_field("homepage_url", "Enter custom web address", "homepage_url_edit", on_submit=save)
    field.weight = 1
    return column(
        app_bar("Homepage", ctx.back),
        radio("Chrome's homepage", not custom, use_new_tab, rid="homepage_option"),
        radio(
            display_url(prefs["homepage"], 36) if custom else "Custom web address",
            custom,
            lambda: ctx.ui.update(focus="homepage_url"),
            rid="homepage_option",
        ),
        row(field, pad=(140, 0, 48, 0)),
    )


def build_clear_data(ctx: AppContext) -> Node:
    """Delete browsing data: a time range, three kinds of data (all ticked at first) and Delete data."""
    choice = ctx.state["clear"]

    def toggle(kind: str) -> None:
        kinds = choice["kinds"]
        choice["kinds"] = [k for k in kinds if k != kind] if kind in kinds else [*kinds, kind]

    def delete() -> None:
        browser.clear_browsing_data(ctx.state, choice["range"], choice["kinds"], ctx.now())
        ctx.toast("Browsing data deleted")
        ctx.back()

    summaries = {
        "Browsing history": "Clears history from all synced devices",
        "Cookies and site data": "Signs you out of most sites",
        "Cached images and files": "Frees up space; some sites may load more slowly",
    }
    boxes = [
        column(checkbox(kind, kind in choice["kinds"], partial(toggle, kind), rid="checkbox"),
               text(summaries[kind], "caption", pad=(150, 0, 48, 16)))
        for kind in browser.DATA_KINDS
    ]  # fmt: skip
    return column(
        app_bar("Delete browsing data", ctx.back),
        scroll_page(
            "clear",
            list_item(
                "Time range",
                choice["range"],
                on_tap=ctx.opener("time_range"),
                rid="time_range_spinner",
                icon="schedule",
                desc=f"Time range: {choice['range']}",
            ),
            *boxes,
            rid="clear_list",
        ),
        row(
            spacer(weight=1),
            button("Delete data", delete, rid="clear_button", enabled=bool(choice["kinds"])),
            pad=(48, 24, 48, 40),
        ),
    )


def time_range_dialog(ctx: AppContext) -> Node:
    choice = ctx.state["clear"]

    def pick(span: str) -> None:
        choice["range"] = span
        ctx.close()

    return choice_dialog("Time range", {r: r for r in browser.TIME_RANGES}, choice["range"], pick, ctx.close,
                         option_rid="time_range_option")  # fmt: skip
