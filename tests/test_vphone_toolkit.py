"""The app toolkit: layouts (stack sizing, flow, lazy lists), themes and text styles, declarative apps
with modal dialogs, and the focused field kept above the soft keyboard."""

from __future__ import annotations

import pytest

from masbench.vphone import keyboard
from masbench.vphone.app import LAUNCHER_FILTER, Activity, App, AppContext
from masbench.vphone.apps import default_apps
from masbench.vphone.build import build_phone
from masbench.vphone.display import HEIGHT, NAV_BAR_H
from masbench.vphone.phone import VirtualPhone
from masbench.vphone.theme import Theme, theme, use_theme
from masbench.vphone.ui import TEXT, VIEWGROUP, Node, hit, layout, measure_height
from masbench.vphone.widgets import (
    button,
    column,
    dialog,
    flow,
    lazy_list,
    list_item,
    scroll_page,
    spacer,
    text,
    text_field,
)

SCREEN = (0, 0, 1080, 2400)


def _lay(root: Node, h: int = 2400) -> dict[str, int]:
    offsets: dict[str, int] = {}
    layout(root, 0, 0, 1080, h, SCREEN, offsets)
    return offsets


def test_stack_children_wrap_their_content_unless_they_fill():
    small = Node(TEXT, text="hi", h=100)
    wrapped = column(text("one line"))
    filling = Node(VIEWGROUP, weight=1)
    root = Node(layout="stack", valign="start", children=[small, wrapped, filling])
    _lay(root, 1000)
    assert small.bounds[3] - small.bounds[1] == 100
    assert 0 < wrapped.bounds[3] - wrapped.bounds[1] < 100
    assert filling.bounds == (0, 0, 1080, 1000)


def test_flow_wraps_children_into_rows():
    chips = [Node(TEXT, text=f"c{i}", w=300, h=80) for i in range(5)]
    root = flow(*chips, gap=20)
    _lay(root)
    rows = sorted({c.bounds[1] for c in chips})
    assert rows == [0, 100]  # 3 chips of 300 + 2 gaps fit in 1080, the fourth wraps
    assert [c.bounds[0] for c in chips[:3]] == [0, 320, 640]
    assert measure_height(root, 1080) == 180


def test_lazy_list_builds_only_visible_rows_and_scrolls_to_the_true_end():
    built: list[int] = []

    def row(i: int) -> Node:
        built.append(i)
        return Node(TEXT, text=f"row {i}", h=200)

    root = column(lazy_list("rows", 300, 200, row, gap=0))
    offsets = _lay(root, 1000)
    assert built == [0, 1, 2, 3, 4, 5]  # 1000 px shows rows 0-4 and the top of row 5
    assert offsets["rows.max"] == 300 * 200 - 1000
    built.clear()
    offsets["rows"] = 10**9  # a fling past the end stops at the end
    layout(root, 0, 0, 1080, 1000, SCREEN, offsets)
    assert built[-1] == 299 and offsets["rows"] == offsets["rows.max"]


def test_text_styles_come_from_the_current_theme():
    brand = Theme(primary="#d32323", ink="#111111", muted="#777777")
    with use_theme(brand):
        assert theme() is brand
        title, caption = text("Title", "title"), text("meta", "caption")
        assert (title.size, title.bold, title.fg) == (brand.style("title").size, True, "#111111")
        assert caption.fg == "#777777" and not caption.bold
        assert button("Go", None).bg == "#d32323"
        assert text("x", "body", size=99).size == 99  # an explicit override wins
        with pytest.raises(KeyError, match="no text style 'huge'"):
            text("x", "huge")
    assert theme() is not brand


class Notes(App):
    """A two-screen app with a dialog, built only from the declarative parts."""

    package = "com.example.notes"
    label = "Notes"
    activities = (
        Activity("com.example.notes.Main", "list", (LAUNCHER_FILTER,)),
        Activity("com.example.notes.Edit", "edit"),
    )
    theme = Theme(primary="#00796b")
    screen_activities = {"edit": "com.example.notes.Edit"}
    screens = {
        "list": lambda ctx: column(
            *[list_item(f"Note {i}", on_tap=ctx.link("edit", note=i), rid="note") for i in range(3)],
            button("Delete all", ctx.opener("confirm", count=3), rid="delete_all"),
        ),
        "edit": lambda ctx: scroll_page(
            "page", spacer(2300), text_field("body", "Write…", rid="body"), rid="editor", weight=1
        ),
    }
    dialogs = {
        "confirm": lambda ctx: dialog(
            f"Delete {ctx.dialog_args['count']} notes?",
            [],
            [button("Delete", ctx.close, rid="ok")],
            ctx.close,
        )
    }


@pytest.fixture
def notes_phone() -> VirtualPhone:
    phone = build_phone("notes", apps=[*default_apps(), Notes()])
    phone.launch(Notes.package)
    return phone


def _node(phone: VirtualPhone, rid: str) -> Node:
    return next(n for n in phone.frame().window.walk() if n.rid == rid)


def _tap(phone: VirtualPhone, rid: str) -> None:
    x1, y1, x2, y2 = _node(phone, rid).clip
    phone.tap((x1 + x2) // 2, (y1 + y2) // 2)


def test_link_opens_a_screen_in_its_declared_activity(notes_phone):
    _tap(notes_phone, "note")
    assert (notes_phone.top.name, notes_phone.top.args) == ("edit", {"note": 0})
    assert notes_phone.top.activity == "com.example.notes.Edit"


def test_an_open_dialog_is_modal_and_back_closes_it(notes_phone):
    _tap(notes_phone, "delete_all")
    assert notes_phone.top.ui["dialog"] == "confirm"
    xml = notes_phone.ui_dump_xml()
    assert "Delete 3 notes?" in xml and "Note 1" not in xml
    window = notes_phone.frame().window
    beneath = next(n for n in window.walk() if n.text == "Note 1")
    centre = ((beneath.clip[0] + beneath.clip[2]) // 2, (beneath.clip[1] + beneath.clip[3]) // 2)
    assert hit(window, *centre, lambda n: n.clickable).rid == "touch_outside"
    notes_phone.keyevent("BACK")
    assert "dialog" not in notes_phone.top.ui and notes_phone.top.name == "list"


def test_opening_an_undeclared_dialog_is_an_error(notes_phone):
    ctx = AppContext(notes_phone, notes_phone.apps[Notes.package], notes_phone.top)
    with pytest.raises(KeyError, match="no dialog 'missing'"):
        ctx.open("missing")


def test_the_focused_field_is_scrolled_above_the_keyboard(notes_phone):
    _tap(notes_phone, "note")
    editor = _node(notes_phone, "editor")
    assert _node(notes_phone, "body").clip[3] <= editor.clip[3]  # reachable by scrolling only
    notes_phone.top.ui["focus"] = "body"
    notes_phone.invalidate()
    field = _node(notes_phone, "body")
    keyboard_top = HEIGHT - NAV_BAR_H - keyboard.HEIGHT
    assert field.bounds[3] <= keyboard_top and field.visible()


class Agenda(App):
    """An app answering `content query` on its provider, as Calendar answers for its events."""

    package = "com.example.agenda"
    label = "Agenda"
    providers = ("com.example.agenda",)

    def query(self, ctx, uri, where, sort):
        if uri != "content://com.example.agenda/events":
            raise ValueError(f"Unknown URI {uri}")
        return [
            {"_id": 1, "title": "Standup", "location": None},
            {"_id": 2, "title": "Review", "location": "B2"},
        ]


def test_content_query_reaches_the_app_that_declares_the_authority():
    phone = build_phone("agenda", apps=[*default_apps(), Agenda()])
    out = phone.shell("content query --uri content://com.example.agenda/events --projection title:location")
    assert out.exit_code == 0
    assert out.stdout.decode().splitlines() == [
        "Row: 0 title=Standup, location=NULL",
        "Row: 1 title=Review, location=B2",
    ]
    bad = phone.shell("content query --uri content://com.example.agenda/nope")
    assert (
        bad.exit_code != 0
        and "Unknown URI content://com.example.agenda/nope" in (bad.stdout + bad.stderr).decode()
    )
    unknown = phone.shell("content query --uri content://com.example.other/x")
    assert unknown.exit_code != 0 and "Unknown URI" in (unknown.stdout + unknown.stderr).decode()
