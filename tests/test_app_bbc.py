"""The BBC News stand-in: the story catalogue and seeded edition, deep links and the SEARCH intent, Home's
section tabs, articles (save, share, related stories, text size), live pages, My News topics, Popular,
Search, Saved items and Settings."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, present, tap

from masbench.vphone.apps.bbc import content, model
from masbench.vphone.intents import Intent
from masbench.vphone.phone import VirtualPhone

PKG = "bbc.mobile.news.ww"
CLOCK = datetime(2025, 11, 20, 8, 30, tzinfo=UTC)
LEAD_AI = "64302184"  # "New AI model can write and debug computer code" (Technology)
WIMBLEDON = "64687101"  # a live page (Sport)
FLOODS = "67443582"  # a video story (World)


def make_phone(seed: int = 0) -> VirtualPhone:
    return phone_with(seed=seed, clock=CLOCK)


@pytest.fixture
def phone() -> VirtualPhone:
    return make_phone()


state = partial(phone_helpers.state, package=PKG)
view = partial(phone_helpers.view, package=PKG)


def texts(phone: VirtualPhone, rid: str) -> list[str]:
    return [e.text for e in elements(phone) if e.resource_id.endswith(f"id/{rid}")]


# -- content and determinism ---------------------------------------------------------------------------


def test_catalogue_has_nine_sections_of_nine_stories_with_related_links():
    stories = content.catalogue()
    assert len(stories) == 81 and list(content.SECTIONS)[:2] == ["world", "uk"]
    assert all(sum(s["section"] == key for s in stories.values()) == 9 for key in content.SECTIONS)
    for sid, item in stories.items():
        assert len(sid) == 8 and sid.isdigit()
        assert len(item["related"]) == 3 and sid not in item["related"]
        assert set(item["related"]) <= set(stories)
    assert sum(s["video"] for s in stories.values()) >= content.CHART_SIZE
    assert {"Climate", "Artificial intelligence", "Football"} <= set(content.topics())


def test_same_seed_gives_the_same_edition_and_another_seed_another():
    dumps = []
    for seed in (5, 5, 6):
        p = make_phone(seed)
        p.launch(PKG)
        dumps.append(p.ui_dump_xml())
    assert dumps[0] == dumps[1] != dumps[2]


def test_public_state_is_the_readers_data_and_the_edition_stays_private(phone):
    public = state(phone)
    assert set(public) == {"followed_topics", "saved", "settings", "history", "recent_searches"}
    assert public["settings"] == {
        "text_size": "medium",
        "notifications": {"breaking_news": True, "top_stories": True, "uk": False, "business": False,
                          "technology": False, "sport": False, "live": False},
    }  # fmt: skip
    assert len(public["saved"]) == 2 and len(public["followed_topics"]) == 2
    edition = phone.app_states[PKG]["edition"]
    assert all(p < CLOCK.isoformat() for p in edition["published"].values())
    assert len(edition["most_read"]) == len(edition["most_watched"]) == 10


# -- launching and deep links --------------------------------------------------------------------------


def test_launcher_opens_top_stories_with_the_lead_story_first(phone):
    assert phone.launch(PKG) is None
    fg = front(phone)
    assert (fg["activity"], fg["screen"]) == ("bbc.mobile.news.ww.HomeWwActivity", "home")
    lead = phone.app_states[PKG]["edition"]["top_stories"][0]
    assert texts(phone, "story_headline")[0] == content.catalogue()[lead]["headline"]


@pytest.mark.parametrize(
    ("uri", "section"),
    [
        ("https://www.bbc.com/news/world", "world"),
        ("https://www.bbc.com/news/world/africa", "world"),
        ("https://www.bbc.co.uk/news/science_and_environment", "science"),
        ("https://www.bbc.co.uk/news/entertainment_and_arts", "entertainment"),
        ("https://www.bbc.co.uk/sport", "sport"),
        ("bbcnews://section/climate", "climate"),
    ],
)
def test_section_links_open_home_on_that_tab(phone, uri, section):
    view(phone, uri)
    assert front(phone)["args"] == {"section": section}
    assert find(phone, resource_id="section_heading").text == content.SECTIONS[section]
    assert find(phone, resource_id="section_tab", content_desc=content.SECTIONS[section]).center[0] < 1080


@pytest.mark.parametrize(
    "uri",
    [
        f"https://www.bbc.com/news/articles/{LEAD_AI}",
        f"https://www.bbc.co.uk/news/technology-{LEAD_AI}",
        f"bbcnews://article/{LEAD_AI}",
    ],
)
def test_article_links_open_the_story_and_record_it_as_read(phone, uri):
    view(phone, uri)
    assert (front(phone)["screen"], front(phone)["args"]) == ("article", {"id": LEAD_AI})
    assert find(phone, resource_id="article_headline").text == content.catalogue()[LEAD_AI]["headline"]
    assert state(phone)["history"] == [LEAD_AI]


def test_live_coverage_opens_as_a_live_page_and_unknown_ids_fall_back_to_home(phone):
    view(phone, f"https://www.bbc.com/news/articles/{WIMBLEDON}")
    assert front(phone)["screen"] == "live" and len(texts(phone, "live_update")) >= 1
    view(phone, "https://www.bbc.com/news/live/12345678")
    assert front(phone)["screen"] == "home" and "not available" in phone.toasts[-1]


def test_app_links_and_the_search_intent(phone):
    for uri, screen in [("bbcnews://mynews", "my_news"), ("bbcnews://saved", "saved"),
                        ("bbcnews://video", "video"), ("bbcnews://settings", "settings")]:  # fmt: skip
        view(phone, uri)
        assert front(phone)["screen"] == screen
    view(phone, "bbcnews://popular?chart=watched")
    assert front(phone)["args"] == {"chart": "watched"}
    assert (
        phone.start_activity(Intent("android.intent.action.SEARCH", package=PKG, extras={"query": "Cars"}))
        is None
    )
    assert (front(phone)["screen"], front(phone)["args"]) == ("search", {"query": "Cars"})
    assert state(phone)["recent_searches"] == ["Cars"]


# -- reading -------------------------------------------------------------------------------------------


def test_section_tab_swaps_the_feed_and_its_lead_opens(phone):
    phone.launch(PKG)
    tap(phone, resource_id="section_tab", content_desc="Technology")
    assert front(phone)["args"] == {"section": "technology"}
    lead = phone.app_states[PKG]["edition"]["order"]["technology"][0]
    tap(phone, resource_id="story_card", nth=0)
    assert front(phone)["args"] == {"id": lead}


def test_save_toggles_and_the_newest_save_comes_first(phone):
    view(phone, f"bbcnews://article/{LEAD_AI}")
    tap(phone, resource_id="save_button")
    saved = state(phone)["saved"]
    assert len(saved) == 3 and saved[0]["id"] == LEAD_AI and saved[0]["section"] == "technology"
    assert find(phone, resource_id="save_button").content_desc == "Remove from saved"
    tap(phone, resource_id="save_button")
    assert LEAD_AI not in [s["id"] for s in state(phone)["saved"]]


def test_share_copies_the_web_link_and_related_stories_open(phone):
    view(phone, f"bbcnews://article/{LEAD_AI}")
    tap(phone, resource_id="share_button")
    assert find(phone, resource_id="share_url").text == f"https://www.bbc.com/news/technology-{LEAD_AI}"
    tap(phone, resource_id="share_copy_link")
    assert phone.clipboard == f"https://www.bbc.com/news/technology-{LEAD_AI}"
    while not present(phone, resource_id="related_link"):
        phone.swipe(540, 1800, 540, 600)
    tap(phone, resource_id="related_link", nth=0)
    first = content.catalogue()[LEAD_AI]["related"][0]
    assert front(phone)["args"] == {"id": first} and state(phone)["history"][:2] == [first, LEAD_AI]


def test_video_stories_have_a_player(phone):
    view(phone, f"bbcnews://article/{FLOODS}")
    assert find(phone, resource_id="video_status").text.startswith("Video, ")
    tap(phone, resource_id="play_button")
    assert find(phone, resource_id="video_status").text == "Playing"


def test_text_size_setting_changes_the_article_body(phone):
    def body_size() -> int:
        view(phone, f"bbcnews://article/{LEAD_AI}")
        node = next(n for n in phone.frame().window.walk() if n.rid == "article_paragraph")
        return node.size

    medium = body_size()
    view(phone, "bbcnews://settings")
    tap(phone, resource_id="text_size_setting")
    tap(phone, resource_id="text_size_option", text="Extra large")
    assert state(phone)["settings"]["text_size"] == "extra_large"
    assert find(phone, resource_id="text_size_value").text == "Extra large"
    assert body_size() > medium


def test_notification_switches_toggle_one_category(phone):
    view(phone, "bbcnews://settings")
    tap(phone, resource_id="notification_switch", text="Top stories")
    tap(phone, resource_id="notification_switch", text="Sport")
    notes = state(phone)["settings"]["notifications"]
    assert (notes["top_stories"], notes["sport"], notes["breaking_news"]) == (False, True, True)


# -- My News, Saved, Search, Popular -------------------------------------------------------------------


def test_following_topics_keeps_them_sorted_and_fills_my_news(phone):
    phone.app_states[PKG]["followed_topics"] = []
    view(phone, "bbcnews://mynews")
    assert present(phone, resource_id="empty_message")
    tap(phone, resource_id="add_topics_button")
    tap(phone, resource_id="topic_name", text="Climate")
    phone_helpers.type_into(phone, "artificial", resource_id="topic_search")
    assert texts(phone, "topic_name") == ["Artificial intelligence"]
    tap(phone, resource_id="topic_name", text="Artificial intelligence")
    assert state(phone)["followed_topics"] == ["Artificial intelligence", "Climate"]
    phone.back()
    feed = model.my_news_feed(phone.app_states[PKG])
    assert texts(phone, "followed_topic") == ["Artificial intelligence", "Climate"]
    assert texts(phone, "story_headline")[0] == content.catalogue()[feed[0]]["headline"]
    assert all(
        {"Climate", "Artificial intelligence"} & set(content.catalogue()[sid]["topics"]) for sid in feed
    )


def test_saved_items_can_be_opened_and_removed(phone):
    second = state(phone)["saved"][1]["id"]
    view(phone, "bbcnews://saved")
    assert find(phone, resource_id="toolbar_title").text == "Saved items (2)"
    tap(phone, resource_id="remove_saved_button", nth=0)
    assert [s["id"] for s in state(phone)["saved"]] == [second]
    tap(phone, resource_id="saved_item", nth=0)
    assert front(phone)["args"] == {"id": second}


def test_search_forgives_word_order_and_plurals(phone):
    view(phone, "bbcnews://search?q=electric%20cars")
    found = texts(phone, "story_headline")
    assert "Electric car sales overtake diesel in Europe" in found and len(found) == 3
    assert model.search(phone.app_states[PKG], "car electric") == model.search(
        phone.app_states[PKG], "electric cars"
    )
    phone_helpers.type_into(phone, "zzz", clear=True, resource_id="search_box")
    assert present(phone, resource_id="empty_message")


def test_popular_ranks_most_read_and_most_watched(phone):
    view(phone, "bbcnews://popular")
    edition = phone.app_states[PKG]["edition"]
    assert texts(phone, "chart_rank")[0] == "1"
    assert texts(phone, "story_headline")[0] == content.catalogue()[edition["most_read"][0]]["headline"]
    tap(phone, resource_id="tab", content_desc="Most watched")
    assert front(phone)["args"] == {"chart": "watched"}
    assert texts(phone, "story_headline")[0] == content.catalogue()[edition["most_watched"][0]]["headline"]


def test_bottom_navigation_reaches_every_tab(phone):
    phone.launch(PKG)
    for rid, screen in [("nav_my_news", "my_news"), ("nav_popular", "popular"), ("nav_video", "video"),
                        ("nav_search", "search"), ("nav_home", "home")]:  # fmt: skip
        tap(phone, resource_id=rid)
        assert front(phone)["screen"] == screen
    phone.back()
    assert front(phone)["package"] != PKG
