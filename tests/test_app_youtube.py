"""The YouTube stand-in: the fixed catalogue, deep links and intents, forgiving search with its filters,
the watch page (likes, subscribing, captions and speed, comments, sharing), saving to Watch later and
playlists, the history, channels and Shorts."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import phone_helpers
import pytest
from phone_helpers import find, front, phone_with, present, tap, type_into

from masbench.vphone.app import Activity, App, AppContext, Screen
from masbench.vphone.apps.youtube import YouTubeApp, model
from masbench.vphone.apps.youtube import content as c
from masbench.vphone.intents import Intent, IntentFilter
from masbench.vphone.phone import VirtualPhone
from masbench.vphone.ui import Node

PKG = "com.google.android.youtube"
MAIN = "com.google.android.apps.youtube.app.watchwhile.MainActivity"
CLOCK = datetime(2025, 6, 4, 10, 0, tzinfo=UTC)
BLACK_HOLES = "AdAfgkhSU2t"  # How Black Holes Actually Form (Orbit Explained)
DEEP_THREE = "ZnQcXOXwqRv"  # Deep Three Pointer at the Buzzer (a Short)
KITCHEN = "UCinDZIx2xG6SubdaXuxizk2"  # Kitchen Rhythm
SEND_TEXT = IntentFilter(actions=("android.intent.action.SEND",), mime_types=("text/*",))


def make_phone(seed: int = 0) -> VirtualPhone:
    return phone_with(YouTubeApp(), seed=seed, clock=CLOCK)


@pytest.fixture
def phone() -> VirtualPhone:
    return make_phone()


state = partial(phone_helpers.state, package=PKG)
view = partial(phone_helpers.view, package=PKG)


def ids(items: list[dict]) -> list[str]:
    return [item["video_id"] for item in items]


def search(phone: VirtualPhone, query: str) -> None:
    phone.launch(PKG)
    tap(phone, resource_id="menu_item_search")
    type_into(phone, query, resource_id="search_edit_text")


def title_of(video_id: str) -> str:
    return c.videos()[video_id].title


# -- content and determinism ---------------------------------------------------------------------------


def test_catalogue_has_about_sixty_videos_over_fifteen_channels_with_real_looking_ids():
    channels, videos = c.catalogue()
    assert len(channels) == 15 and len(videos) >= 60
    assert all(len(v.id) == 11 and v.id[0].isalpha() for v in videos.values())
    assert all(len(ch.id) == 24 and ch.id.startswith("UC") for ch in channels.values())
    assert {v.kind for v in videos.values()} == {"video", "short", "live"}
    assert all(v.seconds <= 60 for v in videos.values() if v.kind == "short")
    assert all(v.captions[0] == "English" and len(v.captions) >= 2 for v in videos.values())
    assert all(c.uploads(ch) for ch in channels)


def test_numbers_print_as_the_app_prints_them():
    assert [c.compact(n) for n in (950, 1_204_000, 12_400, 5_600_000)] == ["950", "1.2M", "12K", "5.6M"]
    assert [c.duration(s) for s in (222, 3730, 15120)] == ["3:42", "1:02:10", "4:12:00"]
    assert [c.ago(h) for h in (3, 48, 24 * 21, 24 * 60, 24 * 365)] == [
        "3 hours ago", "2 days ago", "3 weeks ago", "2 months ago", "1 year ago",
    ]  # fmt: skip


def test_same_seed_same_library_and_screens_another_seed_another_library():
    dumps = phone_helpers.seeded_dumps(make_phone, (7, 7), lambda p: p.launch(PKG),
                                       lambda p: tap(p, resource_id="nav_you"))  # fmt: skip
    assert dumps[0] == dumps[1]
    assert state(make_phone(7)) == state(make_phone(7))
    assert state(make_phone(7))["history"] != state(make_phone(8))["history"]


def test_public_state_spells_out_ids_and_keeps_internals_out(phone):
    public = state(phone)
    assert set(public) == {"subscriptions", "lists", "watch_later", "liked", "disliked", "history", "comments",
                           "settings", "now_playing", "downloads", "searches"}  # fmt: skip
    assert len(public["subscriptions"]) == 5 and public["subscriptions"][0]["handle"].startswith("@")
    assert len(public["history"]) == 10 and {"video_id", "channel_id", "watched_at"} <= set(
        public["history"][0]
    )
    assert public["lists"][0]["privacy"] == "private" and len(public["lists"][0]["videos"]) == 3
    assert "epoch" not in public and "next_playlist" not in public


# -- intents and deep links ----------------------------------------------------------------------------


def test_launcher_opens_home_with_chips_and_bottom_navigation(phone):
    assert phone.launch(PKG) is None
    assert front(phone)["screen"] == "home" and front(phone)["activity"] == MAIN
    assert present(phone, resource_id="chip", text="Gaming")
    tap(phone, resource_id="chip", text="Live")
    assert find(phone, resource_id="video_title", nth=0).text in {v.title for v in c.videos().values()
                                                                  if v.kind == "live"}  # fmt: skip
    for tab, screen in (("nav_shorts", "shorts"), ("nav_subscriptions", "subscriptions"), ("nav_you", "you")):
        tap(phone, resource_id=tab)
        assert front(phone)["screen"] == screen


@pytest.mark.parametrize(
    ("uri", "screen", "args"),
    [
        (f"vnd.youtube:{BLACK_HOLES}", "watch", {"video_id": BLACK_HOLES}),
        (f"https://youtu.be/{BLACK_HOLES}", "watch", {"video_id": BLACK_HOLES}),
        (f"https://www.youtube.com/watch?v={BLACK_HOLES}", "watch", {"video_id": BLACK_HOLES}),
        ("https://www.youtube.com/results?search_query=electric+car", "results", {"query": "electric car"}),
        ("https://www.youtube.com/@kitchenrhythm", "channel", {"channel_id": KITCHEN}),
        (f"https://www.youtube.com/channel/{KITCHEN}", "channel", {"channel_id": KITCHEN}),
        ("https://www.youtube.com/feed/subscriptions", "subscriptions", {}),
        ("https://www.youtube.com/feed/library", "you", {}),
        ("https://m.youtube.com/feed/history", "history", {}),
        (f"https://www.youtube.com/shorts/{DEEP_THREE}", "shorts", {"short_id": DEEP_THREE}),
        ("https://www.youtube.com/playlist?list=WL", "playlist", {"list_id": "WL"}),
        ("https://www.youtube.com/shorts", "home", {}),
    ],
)  # fmt: skip
def test_deep_links_open_the_right_screen(phone, uri, screen, args):
    view(phone, uri)
    fg = front(phone)
    assert fg["package"] == PKG and fg["screen"] == screen
    assert args.items() <= fg["args"].items()


def test_playing_a_link_records_the_video_as_watched(phone):
    view(phone, f"vnd.youtube:{BLACK_HOLES}")
    assert ids(state(phone)["history"])[0] == BLACK_HOLES
    assert state(phone)["now_playing"] == {"video_id": BLACK_HOLES, "playing": True}
    tap(phone, resource_id="player_control_play_pause_replay_button")
    assert state(phone)["now_playing"]["playing"] is False


def test_an_unknown_video_is_unavailable_and_an_unknown_handle_falls_back_home(phone):
    view(phone, "vnd.youtube:noSuchVideo")
    assert present(phone, text="This video isn't available anymore")
    assert not present(phone, resource_id="like_button")
    view(phone, "https://www.youtube.com/@nobodyhere")
    assert front(phone)["screen"] == "home"


def test_youtube_links_are_verified_so_they_open_the_app_without_a_package(phone):
    phone_helpers.view(phone, "https://www.youtube.com/feed/library", package=None)
    assert front(phone)["package"] == PKG


def test_search_intent_and_launcher_shortcut_actions(phone):
    out = phone.shell(f"am start -a android.intent.action.SEARCH --es query 'three pointer' -p {PKG}")
    assert out.exit_code == 0 and front(phone)["args"]["query"] == "three pointer"
    out = phone.shell(f"am start -a com.google.android.youtube.action.open.shorts "
                      f"-n '{PKG}/com.google.android.youtube.app.honeycomb.Shell$HomeActivity'")  # fmt: skip
    assert out.exit_code == 0 and front(phone)["screen"] == "shorts"


# -- search --------------------------------------------------------------------------------------------


def test_search_forgives_plurals_and_word_order():
    assert model.search_videos("car electric", {}) == model.search_videos("Electric Cars", {})
    titles = [v.title for v in model.search_videos("three pointers", {})]
    assert "Deep Three Pointer at the Buzzer" in titles and "Best Three Pointers of the Season" in titles


def test_typing_shows_suggestions_and_enter_shows_results_with_the_channel_first(phone):
    phone.launch(PKG)
    tap(phone, resource_id="menu_item_search")
    phone.input_text("sourd")
    assert present(phone, resource_id="search_suggestion", content_desc="sourdough discard crackers")
    phone.keyevent("ENTER")
    assert front(phone)["args"]["query"] == "sourd"
    assert find(phone, resource_id="channel_title", nth=0).text == "Sunday Sourdough"
    assert state(phone)["searches"][0] == "sourd"


def test_filters_narrow_and_sort_the_results(phone):
    search(phone, "electric car")
    tap(phone, resource_id="filter_button")
    tap(phone, resource_id="filter_chip", text="This week")
    tap(phone, resource_id="filter_chip", text="View count")
    tap(phone, resource_id="apply_button")
    args = front(phone)["args"]
    assert (args["upload"], args["sort"], args["type"]) == ("week", "views", None)
    assert find(phone, resource_id="video_title", nth=0).text == "I Drove an Electric Car for 30 Days"
    assert not present(phone, text="Electric Car Charging Myths Busted")  # three weeks old


def test_duration_and_type_filters():
    under_four = model.search_videos("pasta", {"duration": "short"})
    assert under_four and all(v.seconds < 240 for v in under_four)
    assert [kind for kind, _ in model.search("kitchen rhythm", {"type": "channel"})] == ["channel"]
    assert model.search("pasta", {"type": "movie"}) == []


# -- the watch page ------------------------------------------------------------------------------------


def test_like_and_dislike_exclude_each_other(phone):
    view(phone, f"vnd.youtube:{BLACK_HOLES}")
    tap(phone, resource_id="like_button")
    assert BLACK_HOLES in ids(state(phone)["liked"])
    tap(phone, resource_id="dislike_button")
    assert BLACK_HOLES not in ids(state(phone)["liked"]) and ids(state(phone)["disliked"]) == [BLACK_HOLES]


def test_subscribe_then_unsubscribe_after_confirming(phone):
    view(phone, "https://www.youtube.com/@trailheadtravel")
    channel = c.channel_by_handle("trailheadtravel")
    before = len(state(phone)["subscriptions"])
    tap(phone, resource_id="subscribe_button")
    assert channel.id in [s["channel_id"] for s in state(phone)["subscriptions"]]
    assert find(phone, resource_id="subscribe_button").text == "Subscribed"
    tap(phone, resource_id="subscribe_button")
    tap(phone, resource_id="cancel_button")
    assert len(state(phone)["subscriptions"]) == before + 1
    tap(phone, resource_id="subscribe_button")
    tap(phone, resource_id="unsubscribe_button")
    assert len(state(phone)["subscriptions"]) == before


def test_captions_and_playback_speed_are_kept_per_video(phone):
    view(phone, f"vnd.youtube:{BLACK_HOLES}")
    tap(phone, resource_id="player_overflow_button")
    tap(phone, resource_id="captions_item")
    assert [e.text for e in phone_helpers.elements(phone) if e.resource_id.endswith("captions_option")] == [
        "Off",
        *c.videos()[BLACK_HOLES].captions,
    ]
    tap(phone, resource_id="captions_option", text="German")
    tap(phone, resource_id="player_overflow_button")
    tap(phone, resource_id="playback_speed_item")
    tap(phone, resource_id="speed_option", text="1.75x")
    assert state(phone)["settings"] == [{"video_id": BLACK_HOLES, "captions": "German", "speed": 1.75}]


def test_comments_are_posted_and_shown_first(phone):
    view(phone, f"vnd.youtube:{BLACK_HOLES}")
    tap(phone, resource_id="comments_entry_point")
    type_into(phone, "  Great   explanation  ", resource_id="comment_field")
    assert [(x["video_id"], x["text"]) for x in state(phone)["comments"]] == [
        (BLACK_HOLES, "Great explanation")
    ]
    assert find(phone, resource_id="comment_text", nth=0).text == "Great explanation"


def test_copy_link_puts_the_short_link_on_the_clipboard(phone):
    view(phone, f"vnd.youtube:{BLACK_HOLES}")
    tap(phone, resource_id="share_button")
    tap(phone, resource_id="copy_link")
    assert phone.clipboard == f"https://youtu.be/{BLACK_HOLES}"


# -- saving, playlists and history ---------------------------------------------------------------------


def test_save_sheet_ticks_watch_later_and_creates_a_playlist_with_the_video(phone):
    phone.app_states[PKG]["watch_later"] = []
    view(phone, f"vnd.youtube:{BLACK_HOLES}")
    tap(phone, resource_id="save_button")
    tap(phone, resource_id="playlist_checkbox", text="Watch later")
    assert ids(state(phone)["watch_later"])[0] == BLACK_HOLES
    tap(phone, resource_id="create_playlist_button")
    tap(phone, resource_id="playlist_title")
    phone.input_text("Space nights")
    tap(phone, resource_id="privacy_option", text="Unlisted")
    tap(phone, resource_id="create_button")
    new = state(phone)["lists"][-1]
    assert (new["name"], new["privacy"], ids(new["videos"])) == ("Space nights", "unlisted", [BLACK_HOLES])
    assert find(phone, resource_id="save_button").text == "Saved"


def test_history_menu_removes_one_video(phone):
    first, second = ids(state(phone)["history"])[:2]
    view(phone, "https://www.youtube.com/feed/history")
    tap(phone, resource_id="menu_button", content_desc=f"Action menu for {title_of(second)}")
    tap(phone, resource_id="menu_item_remove_history")
    assert ids(state(phone)["history"])[:1] == [first] and second not in ids(state(phone)["history"])


def test_watch_later_list_removes_from_its_menu(phone):
    saved = ids(state(phone)["watch_later"])
    view(phone, "https://www.youtube.com/playlist?list=WL")
    assert find(phone, resource_id="playlist_summary").text.endswith(f"{len(saved)} videos")
    tap(phone, resource_id="menu_button", content_desc=f"Action menu for {title_of(saved[0])}")
    tap(phone, resource_id="menu_item_watch_later")
    assert ids(state(phone)["watch_later"]) == saved[1:]


# -- channels, Shorts, subscriptions -------------------------------------------------------------------


def test_channel_videos_tab_sorts_latest_and_popular(phone):
    view(phone, "https://www.youtube.com/@kitchenrhythm")
    tap(phone, resource_id="tab", content_desc="Videos")
    assert find(phone, resource_id="video_title", nth=0).text == "Lemon Chicken Traybake for Busy Weeknights"
    tap(phone, resource_id="sort_chip", text="Popular")
    assert find(phone, resource_id="video_title", nth=0).text == "Three Dinners from One Roast Chicken"


def test_a_short_opens_in_the_shorts_player_and_can_be_liked(phone):
    search(phone, "three pointer")
    tap(phone, resource_id="video_title", text="Deep Three Pointer at the Buzzer")
    assert front(phone)["screen"] == "shorts" and find(phone, resource_id="reel_title", nth=0).text == (
        "Deep Three Pointer at the Buzzer"
    )
    tap(phone, resource_id="like_button", nth=0)
    assert DEEP_THREE in ids(state(phone)["liked"])


def test_subscriptions_feed_shows_only_subscribed_channels_newest_first(phone):
    phone.launch(PKG)
    tap(phone, resource_id="nav_subscriptions")
    subscribed = {s["name"] for s in state(phone)["subscriptions"]}
    avatars = {
        e.content_desc for e in phone_helpers.elements(phone) if e.resource_id.endswith("subscribed_channel")
    }
    assert avatars == subscribed
    first = find(phone, resource_id="video_meta", nth=0).text
    assert first.split(" · ")[0] in subscribed


class Notes(App):
    """An app that takes shared text, as a note-taking app does, so the share sheet has a target."""

    package = "com.example.notes"
    label = "Notes"
    activities = (Activity("com.example.notes.Share", "note", (SEND_TEXT,)),)
    screens = {"note": lambda ctx: Node()}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        ctx.state["shared"] = intent.extras.get("android.intent.extra.TEXT")
        return ctx.screen("note")


def test_share_sheet_lists_apps_that_take_text_and_sends_the_link():
    phone = phone_with(YouTubeApp(), Notes(), clock=CLOCK)
    view(phone, f"vnd.youtube:{BLACK_HOLES}")
    tap(phone, resource_id="share_button")
    tap(phone, text="Notes")
    assert front(phone)["package"] == "com.example.notes"
    shared = phone.app_states["com.example.notes"]["shared"]
    assert shared == f"How Black Holes Actually Form https://youtu.be/{BLACK_HOLES}"


def test_the_description_dates_the_upload_on_the_phone_calendar(phone):
    view(phone, f"vnd.youtube:{BLACK_HOLES}")  # three weeks before the clock's June 4
    assert find(phone, resource_id="upload_info").text == "3,300,000 views · May 14, 2025"
