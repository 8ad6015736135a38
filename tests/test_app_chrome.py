"""The Chrome stand-in: the small web (pages, links, search), the address bar, tabs and Incognito, back
and forward, bookmarks and folders, the reading list, downloads, history and Delete browsing data, find
in page, Desktop site, settings, and the intents that open it (or hand a verified link to its app)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, present, tap, type_into

from masbench.vphone.apps.chrome import ChromeApp
from masbench.vphone.apps.chrome.web import content as web
from masbench.vphone.intents import Intent
from masbench.vphone.phone import VirtualPhone

PKG = "com.android.chrome"
CLOCK = datetime(2025, 6, 10, 18, 0, tzinfo=UTC)
MARS = "https://en.openpedia.org/wiki/Mars"
OLYMPUS = "https://en.openpedia.org/wiki/Olympus_Mons"
HEADLAMP = "https://www.gearloft.com/p/summit-2-headlamp"


def make_phone(seed: int = 0) -> VirtualPhone:
    return phone_with(ChromeApp(), seed=seed, clock=CLOCK)


@pytest.fixture
def phone() -> VirtualPhone:
    return make_phone()


state = partial(phone_helpers.state, package=PKG)
view = partial(phone_helpers.view, package=PKG)


def menu(phone: VirtualPhone, entry: str) -> None:
    tap(phone, resource_id="menu_button")
    tap(phone, resource_id=entry)


def urls(items: list[dict]) -> list[str]:
    return [item["url"] for item in items]


def open_page(phone: VirtualPhone, url: str) -> None:
    view(phone, url)
    assert state(phone)["tabs"][-1]["url"] == url


# -- the small web -------------------------------------------------------------------------------------


def test_the_web_has_five_sites_of_about_30_pages_whose_links_all_lead_somewhere():
    pages = web.pages()
    assert len(web.sites()) == 5 and len(pages) >= 30
    for page in pages.values():
        for block in page.blocks:
            if "a" in block:
                url = block["a"][1]
                assert url in pages or url.startswith("https://www.google.com/maps/"), (page.url, url)
    assert all(web.resolve(f.url) is None for f in web.files().values())  # files download, not display


def test_search_forgives_case_plurals_and_extra_words():
    assert web.search("olympus mons")[0].url == OLYMPUS
    assert web.search("Summit 2 headlamps please")[0].url == HEADLAMP
    assert web.search("zzz qqq") == []
    assert isinstance(web.resolve("https://duckduckgo.com/?q=mars"), web.SearchPage)


def test_bbc_story_pages_match_the_bbc_app_and_open_in_chrome():
    """bbc.com serves some of the BBC News app's stories at the address its Share gives; Chrome shows them
    itself (the page exists on the web) rather than handing the link to the BBC app."""
    from masbench.vphone.apps.bbc import content as bbc

    story = bbc.catalogue()["60678096"]
    url = bbc.web_url(story)
    assert web.pages()[url].title == f"{story['headline']} - BBC News"
    assert web.search(story["headline"])[0].url == url
    phone = make_phone()
    phone.launch(PKG)
    type_into(phone, "electric car batteries", resource_id="url_bar")
    tap(phone, text=f"{story['headline']} - BBC News")
    assert front(phone)["package"] == PKG and state(phone)["tabs"][-1]["url"] == url


def test_same_seed_gives_the_same_screens_and_state():
    dumps = phone_helpers.seeded_dumps(make_phone, (3, 3), lambda p: p.launch(PKG))
    assert dumps[0] == dumps[1]
    assert state(make_phone(3)) == state(make_phone(3))
    assert state(make_phone(21))["bookmarks"] != state(make_phone(22))["bookmarks"]


def test_public_state_has_what_checks_read(phone):
    public = state(phone)
    assert set(public) == {"tabs", "history", "bookmarks", "folders", "reading_list", "downloads",
                           "site_data", "settings"}  # fmt: skip
    assert public["tabs"] == [
        {"id": 1, "url": web.NEW_TAB, "title": "New tab", "incognito": False, "current": True}
    ]
    assert public["history"] == [] and len(public["bookmarks"]) == 2 and len(public["reading_list"]) == 1
    assert public["settings"] == {"search_engine": "Google", "homepage": web.NEW_TAB, "desktop_site": False}


# -- address bar, pages, back and forward --------------------------------------------------------------


def test_address_bar_searches_with_google_and_pages_are_a_webview(phone):
    phone.launch(PKG)
    type_into(phone, "olympus mons", resource_id="url_bar")
    assert state(phone)["history"][-1]["url"] == "https://www.google.com/search?q=olympus+mons"
    assert find(phone, resource_id="page_url").text == "https://www.google.com/search?q=olympus+mons"
    tap(phone, text="Olympus Mons - Openpedia")
    assert any(e.cls == "android.webkit.WebView" and e.content_desc == "Olympus Mons - Openpedia"
               for e in elements(phone))  # fmt: skip
    assert state(phone)["tabs"][0]["url"] == OLYMPUS


def test_a_long_address_keeps_its_query_string_and_fits_on_one_line(phone):
    long = (
        HEADLAMP + "?utm_source=newsletter&utm_medium=email&utm_campaign=summer-2025-trail-gear-for-everyone"
    )
    view(phone, long)
    assert find(phone, resource_id="page_url").text == long  # the page is served, tracking parameters or not
    assert present(phone, text="Download user manual (PDF)")
    line = next(n for n in phone.frame().window.walk() if n.rid == "page_url")
    assert len(line.lines) == 1 and line.size < 28


def test_typed_host_opens_over_https_and_unknown_hosts_show_the_error_page(phone):
    phone.launch(PKG)
    type_into(phone, "www.gearloft.com", resource_id="url_bar")
    assert state(phone)["tabs"][0]["url"] == "https://www.gearloft.com"
    assert present(phone, text="GearLoft", resource_id="site_header") or present(phone, text="GearLoft")
    type_into(phone, "http://simmerbook.com/recipe/shakshuka", resource_id="url_bar")
    assert (
        state(phone)["history"][-1]["url"] == "https://www.simmerbook.com/recipe/shakshuka"
    )  # the site redirects
    type_into(phone, "nowhere.example", resource_id="url_bar")
    assert present(phone, resource_id="error_title")


def test_chrome_addresses_open_chromes_own_screens(phone):
    phone.launch(PKG)
    type_into(phone, "chrome://history", resource_id="url_bar")
    assert front(phone)["screen"] == "history" and state(phone)["history"] == []
    phone.keyevent("BACK")
    type_into(phone, "chrome://bookmarks/", resource_id="url_bar")
    assert front(phone)["activity"] == "org.chromium.chrome.browser.bookmarks.BookmarkActivity"


def test_back_goes_back_in_the_tab_then_leaves_and_forward_returns(phone):
    open_page(phone, MARS)
    tap(phone, text="Olympus Mons")
    phone.keyevent("BACK")
    assert state(phone)["tabs"][-1]["url"] == MARS and front(phone)["package"] == PKG
    menu(phone, "forward_menu_id")
    assert state(phone)["tabs"][-1]["url"] == OLYMPUS
    phone.keyevent("BACK")
    phone.keyevent("BACK")
    assert front(phone)["package"] != PKG


# -- tabs and Incognito --------------------------------------------------------------------------------


def test_links_open_in_background_tabs_and_the_switcher_closes_and_switches(phone):
    open_page(phone, MARS)
    phone.long_press(*find(phone, text="Olympus Mons").center)
    tap(phone, text="Open in new tab")
    assert urls(state(phone)["tabs"]) == [web.NEW_TAB, MARS, OLYMPUS]
    assert state(phone)["tabs"][1]["current"]
    tap(phone, resource_id="tab_switcher_button")
    assert find(phone, resource_id="toolbar_title").text == "3 open tabs"
    tap(phone, content_desc="Close Mars - Openpedia tab")
    tap(phone, resource_id="tab_card", desc_contains="Olympus")
    assert front(phone)["screen"] == "tab" and [t["url"] for t in state(phone)["tabs"] if t["current"]] == [
        OLYMPUS
    ]


def test_incognito_tabs_leave_no_history_or_site_data(phone):
    phone.launch(PKG)
    menu(phone, "new_incognito_tab_menu_id")
    assert present(phone, text="You've gone Incognito")
    type_into(phone, "mars", resource_id="url_bar")
    tab = state(phone)["tabs"][-1]
    assert tab["incognito"] and tab["url"] == "https://www.google.com/search?q=mars"
    assert state(phone)["history"] == [] and state(phone)["site_data"] == []


def test_launcher_shortcut_and_googlechrome_links_open_new_tabs(phone):
    phone.shell("am start -a chromium.shortcut.action.OPEN_NEW_INCOGNITO_TAB "
                "-n com.android.chrome/org.chromium.chrome.browser.LauncherShortcutActivity")  # fmt: skip
    assert (
        state(phone)["tabs"][-1]["incognito"]
        and front(phone)["activity"] == "com.google.android.apps.chrome.Main"
    )
    view(phone, "googlechrome://navigate?url=https%3A%2F%2Fen.openpedia.org%2Fwiki%2FMars")
    assert state(phone)["tabs"][-1] | {"id": 0} == {"id": 0, "url": MARS, "title": "Mars - Openpedia",
                                                     "incognito": False, "current": True}  # fmt: skip


def test_a_verified_app_link_on_a_page_opens_its_app(phone):
    open_page(phone, "https://news.harborpost.com/2025/06/summer-hiking-tips")
    tap(phone, text="Find trailheads near you on Google Maps")
    assert front(phone)["package"] == "com.google.android.apps.maps"


# -- bookmarks, reading list, downloads ----------------------------------------------------------------


def test_star_bookmarks_into_mobile_bookmarks_and_a_new_folder_takes_it(phone):
    open_page(phone, OLYMPUS)
    menu(phone, "bookmark_this_page_id")
    assert find(phone, resource_id="snackbar").content_desc == "" and present(
        phone, text="Bookmarked in Mobile bookmarks"
    )
    tap(phone, resource_id="snackbar_button")
    tap(phone, resource_id="folder_text")
    tap(phone, resource_id="create_new_folder")
    type_into(phone, "Space", resource_id="folder_title")
    assert front(phone)["screen"] == "edit_bookmark"
    assert state(phone)["bookmarks"][-1] | {"id": 0} == {"id": 0, "url": OLYMPUS, "title": "Olympus Mons - Openpedia",
                                                          "folder": "Space"}  # fmt: skip
    assert state(phone)["folders"] == ["Mobile bookmarks", "Space"]
    phone.keyevent("BACK")
    tap(phone, resource_id="menu_button")
    assert find(phone, resource_id="bookmark_this_page_id").content_desc == "Edit bookmark"


def test_bookmarks_open_in_the_current_tab_and_delete(phone):
    phone.launch(PKG)
    first = state(phone)["bookmarks"][0]
    menu(phone, "all_bookmarks_menu_id")
    tap(phone, text="Mobile bookmarks")
    tap(phone, text=first["title"])
    assert front(phone)["screen"] == "tab" and state(phone)["tabs"][0]["url"] == first["url"]
    menu(phone, "all_bookmarks_menu_id")
    tap(phone, text="Mobile bookmarks")
    tap(phone, resource_id="more", desc_contains=first["title"])
    tap(phone, text="Delete")
    assert first["url"] not in urls(state(phone)["bookmarks"])


def test_reading_list_adds_opens_as_read_and_marks_unread(phone):
    open_page(phone, HEADLAMP)
    menu(phone, "add_to_reading_list_menu_id")
    assert urls(state(phone)["reading_list"])[-1] == HEADLAMP
    menu(phone, "reading_list_menu_id")
    tap(phone, text="Summit 2 Headlamp - GearLoft")
    assert state(phone)["reading_list"][-1]["read"] and front(phone)["screen"] == "tab"
    menu(phone, "reading_list_menu_id")
    tap(phone, resource_id="more", desc_contains="Summit 2")
    tap(phone, text="Mark as unread")
    assert not state(phone)["reading_list"][-1]["read"]


def test_a_file_link_downloads_into_downloads_and_sdcard(phone):
    open_page(phone, HEADLAMP)
    tap(phone, text="Download user manual (PDF)")
    download = state(phone)["downloads"][0]
    assert download["file"] == "summit-2-headlamp-manual.pdf" and download["size"] == "1.2 MB"
    assert phone.fs.exists("/sdcard/Download/summit-2-headlamp-manual.pdf")
    assert state(phone)["tabs"][-1]["url"] == HEADLAMP  # a download does not leave the page
    menu(phone, "downloads_menu_id")
    assert present(phone, text="summit-2-headlamp-manual.pdf")


# -- history and browsing data -------------------------------------------------------------------------


def test_history_lists_searches_and_removes_visits(phone):
    for url in (MARS, HEADLAMP, OLYMPUS):
        open_page(phone, url)
    menu(phone, "open_history_menu_id")
    assert [e.text for e in elements(phone) if e.resource_id.endswith("id/title")][:3] == [
        "Olympus Mons - Openpedia", "Summit 2 Headlamp - GearLoft", "Mars - Openpedia"]  # fmt: skip
    type_into(phone, "gearloft", resource_id="search_text")
    assert not present(phone, text="Mars - Openpedia")
    tap(phone, resource_id="remove")
    assert urls(state(phone)["history"]) == [MARS, OLYMPUS]


def test_delete_browsing_data_keeps_what_is_older_than_the_range_and_unticked_kinds(phone):
    phone.shell("cmd masbench patch com.android.chrome '"
                '{"history": [{"id": 1, "url": "https://a.example/", "title": "A", "time": "2025-06-10T16:00:00+00:00"},'
                ' {"id": 2, "url": "https://b.example/", "title": "B", "time": "2025-06-10T17:30:00+00:00"}],'
                ' "site_data": [{"host": "a.example", "time": "2025-06-10T16:00:00+00:00"},'
                ' {"host": "b.example", "time": "2025-06-10T17:30:00+00:00"}]}\'')  # fmt: skip
    phone.launch(PKG)
    menu(phone, "delete_browsing_data_menu_id")
    tap(phone, resource_id="time_range_spinner")
    tap(phone, text="Last hour")
    tap(phone, text="Browsing history")
    tap(phone, resource_id="clear_button")
    assert urls(state(phone)["history"]) == ["https://a.example/", "https://b.example/"]
    assert [d["host"] for d in state(phone)["site_data"]] == ["a.example"]


# -- find in page, desktop site, settings --------------------------------------------------------------


def test_find_in_page_counts_matches_and_back_closes_it(phone):
    open_page(phone, "https://www.simmerbook.com/recipe/shakshuka")
    menu(phone, "find_in_page_id")
    phone.input_text("egg")
    assert find(phone, resource_id="find_status").text == "1/2"
    tap(phone, resource_id="find_next_button")
    assert find(phone, resource_id="find_status").text == "2/2"
    phone.keyevent("BACK")  # the find bar (the tap closed the keyboard)
    assert present(phone, resource_id="url_bar") and front(phone)["package"] == PKG


def test_desktop_site_is_a_menu_checkbox_and_a_setting(phone):
    open_page(phone, MARS)
    menu(phone, "request_desktop_site_id")
    assert state(phone)["settings"]["desktop_site"] and present(phone, text="Home   About   Contact")
    tap(phone, resource_id="menu_button")
    assert find(phone, resource_id="request_desktop_site_id").checked


def test_search_engine_and_homepage_settings(phone):
    phone.launch(PKG)
    menu(phone, "preferences_id")
    tap(phone, resource_id="search_engine_pref")
    tap(phone, text="DuckDuckGo")
    phone.keyevent("BACK")
    tap(phone, resource_id="homepage_pref")
    type_into(phone, "en.openpedia.org/wiki/Mars", resource_id="homepage_url_edit")
    assert state(phone)["settings"] == {
        "search_engine": "DuckDuckGo",
        "homepage": MARS,
        "desktop_site": False,
    }
    type_into(phone, "simmerbook.com/recipe/shakshuka", resource_id="homepage_url_edit", clear=True)
    assert state(phone)["settings"]["homepage"] == "https://www.simmerbook.com/recipe/shakshuka"  # as shown
    type_into(phone, "en.openpedia.org/wiki/Mars", resource_id="homepage_url_edit", clear=True)
    phone.keyevent("BACK")
    phone.keyevent("BACK")
    type_into(phone, "espresso", resource_id="url_bar")
    assert state(phone)["tabs"][0]["url"] == "https://duckduckgo.com/?q=espresso"
    tap(phone, resource_id="home_button")
    assert state(phone)["tabs"][0]["url"] == MARS


def test_unknown_web_links_open_in_chrome_and_show_their_address(phone):
    assert (
        phone.start_activity(Intent("android.intent.action.VIEW", data="https://example.com/a?b=1")) is None
    )
    assert front(phone)["package"] == PKG
    assert find(phone, resource_id="page_url").text == "https://example.com/a?b=1"
