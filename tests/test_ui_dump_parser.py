"""parse_ui_dump on real-world-like uiautomator dumps, and fuzzing: arbitrary text never crashes it."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from masbench.device import UIElement, parse_ui_dump
from masbench.device.elements import parse_bounds

# Modelled on an Android 15 Amazon Shopping results page: nested FrameLayouts, a search EditText with a
# hint, a RecyclerView with items, unknown attributes (drawing-order, hint, display-id), an
# ImageView without id or text, a zero-size node, a &#10; entity and Unicode.
AMAZON = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">\
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.amazon.mShop.android.shopping" \
content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" \
scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]" drawing-order="0" \
hint="" display-id="0">\
<node index="0" text="" resource-id="android:id/content" class="android.widget.FrameLayout" \
package="com.amazon.mShop.android.shopping" content-desc="" checkable="false" checked="false" clickable="false" \
enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" \
selected="false" bounds="[0,63][1080,2274]">\
<node index="0" text="" resource-id="com.amazon.mShop.android.shopping:id/rs_search_src_text" \
class="android.widget.EditText" package="com.amazon.mShop.android.shopping" content-desc="" checkable="false" \
checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" \
long-clickable="true" password="false" selected="false" bounds="[147,94][933,220]" hint="Search Amazon" />\
<node index="1" text="" resource-id="" class="android.widget.ImageView" package="com.amazon.mShop.android.shopping" \
content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" \
scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,220][1080,224]" />\
<node index="2" text="" resource-id="com.amazon.mShop.android.shopping:id/results" \
class="androidx.recyclerview.widget.RecyclerView" package="com.amazon.mShop.android.shopping" content-desc="" \
checkable="false" checked="false" clickable="false" enabled="true" focusable="true" focused="false" scrollable="true" \
long-clickable="false" password="false" selected="false" bounds="[0,224][1080,2274]">\
<node index="0" text="" resource-id="" class="android.view.ViewGroup" package="com.amazon.mShop.android.shopping" \
content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" \
scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,224][1080,700]">\
<node index="0" text="Nike Air Zoom Pegasus 41 – Men&apos;s&#10;Running Shoes" resource-id="" \
class="android.widget.TextView" package="com.amazon.mShop.android.shopping" content-desc="" checkable="false" \
checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" \
long-clickable="false" password="false" selected="false" bounds="[300,260][1040,380]" />\
<node index="1" text="€129,99" resource-id="" class="android.widget.TextView" \
package="com.amazon.mShop.android.shopping" content-desc="" checkable="false" checked="false" clickable="false" \
enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" \
selected="false" bounds="[300,400][600,460]" />\
<node index="2" text="Add to Cart" resource-id="com.amazon.mShop.android.shopping:id/add_to_cart_button" \
class="android.widget.Button" package="com.amazon.mShop.android.shopping" content-desc="" checkable="false" \
checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" \
long-clickable="false" password="false" selected="false" bounds="[300,560][760,680]" />\
</node>\
<node index="1" text="" resource-id="" class="android.widget.CheckBox" package="com.amazon.mShop.android.shopping" \
content-desc="Prime only" checkable="true" checked="true" clickable="true" enabled="false" focusable="true" \
focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,700][200,800]" />\
<node index="2" text="Hidden" resource-id="" class="android.widget.TextView" package="com.amazon.mShop.android.shopping" \
content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" \
scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][0,0]" />\
</node></node></node></hierarchy>"""


def by_text(elements: list[UIElement], text: str) -> UIElement:
    return next(el for el in elements if el.text == text)


def test_real_world_dump_keeps_meaningful_nodes_in_document_order() -> None:
    els = parse_ui_dump(AMAZON)
    assert [el.index for el in els] == list(range(len(els)))
    classes = [el.short_class for el in els]
    # the outer FrameLayout and the divider ImageView carry nothing; android:id/content has an id
    assert classes == [
        "FrameLayout",
        "EditText",
        "RecyclerView",
        "ViewGroup",
        "TextView",
        "TextView",
        "Button",
        "CheckBox",
    ]
    assert "Hidden" not in [el.text for el in els]  # empty bounds: not on screen


def test_edit_text_with_hint_and_flags() -> None:
    search = parse_ui_dump(AMAZON)[1]
    assert search.hint == "Search Amazon"
    assert search.editable and search.focused and search.clickable and search.long_clickable
    assert search.short_id == "rs_search_src_text"
    assert search.bounds == (147, 94, 933, 220)
    assert search.center == (540, 157)
    assert (search.width, search.height) == (786, 126)
    assert (
        search.describe()
        == '[1] EditText hint="Search Amazon" id=rs_search_src_text clickable long-clickable editable focused'
    )


def test_entities_unicode_and_describe() -> None:
    els = parse_ui_dump(AMAZON)
    title = els[4]
    assert title.text == "Nike Air Zoom Pegasus 41 – Men's\nRunning Shoes"
    assert by_text(els, "€129,99").package == "com.amazon.mShop.android.shopping"
    button = by_text(els, "Add to Cart")
    assert button.describe() == '[6] Button "Add to Cart" id=add_to_cart_button clickable'
    assert button.is_actionable
    assert not title.is_actionable
    checkbox = els[7]
    assert checkbox.checked and not checkbox.enabled and not checkbox.is_actionable
    assert checkbox.describe() == '[7] CheckBox desc="Prime only" clickable checked disabled'
    assert parse_ui_dump(AMAZON)[0].short_id == "android:content"


def test_two_hierarchies_trailing_text_and_several_windows() -> None:
    one = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0"><node index="0" text="Home" class="android.widget.TextView" package="com.a"
 bounds="[0,0][100,100]"/></hierarchy>"""
    two = """<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="1">
<node index="0" class="android.widget.FrameLayout" package="com.android.systemui" bounds="[0,0][1080,63]">
  <node index="0" text="9:30" class="android.widget.TextView" package="com.android.systemui" bounds="[20,0][120,63]"/>
</node>
<node index="1" class="android.widget.FrameLayout" package="com.b" bounds="[0,63][1080,2400]">
  <node index="0" content-desc="Navigate up" class="android.widget.ImageButton" clickable="true" package="com.b"
   bounds="[0,63][147,210]"/>
</node></hierarchy>"""
    text = one + "\nUI hierchary dumped to: /dev/tty\n" + two + "\nUI hierchary dumped to: /dev/tty\n"
    els = parse_ui_dump(text)
    assert [(el.index, el.text or el.content_desc) for el in els] == [
        (0, "Home"),
        (1, "9:30"),
        (2, "Navigate up"),
    ]
    assert els[2].package == "com.b"


def test_leading_shell_noise_and_bytes_input() -> None:
    noisy = 'UI hierchary dumped to: /sdcard/window_dump.xml\n<hierarchy><node text="OK" bounds="[1,1][5,5]"/></hierarchy>'
    assert [el.text for el in parse_ui_dump(noisy)] == ["OK"]
    assert [el.text for el in parse_ui_dump(noisy.encode())] == ["OK"]


@pytest.mark.parametrize("bounds", ["", "[0,0][0,0]", "[10,10][5,20]", "[a,b][c,d]", "0,0,10,10", "[1,2]"])
def test_bad_bounds_drop_the_node(bounds: str) -> None:
    xml = f'<hierarchy><node text="x" clickable="true" bounds="{bounds}"/><node text="y" bounds="[0,0][9,9]"/></hierarchy>'
    assert [el.text for el in parse_ui_dump(xml)] == ["y"]


def test_missing_attributes_get_defaults() -> None:
    (el,) = parse_ui_dump('<hierarchy><node text="bare" bounds="[0,0][10,10]"/></hierarchy>')
    assert el.cls == "" and el.resource_id == "" and el.enabled and not el.clickable
    assert el.describe() == '[0] View "bare"'


def test_invalid_control_characters_and_bad_char_refs_survive() -> None:
    xml = '<hierarchy><node text="a\x01b&#1;c&#x1F;" bounds="[0,0][10,10]"/>\x00</hierarchy>'
    (el,) = parse_ui_dump(xml)
    assert el.text.replace(" ", "") == "abc"


def test_screen_clipping_and_invisible_nodes() -> None:
    xml = """<hierarchy>
      <node text="partly off" bounds="[-50,100][200,300]"/>
      <node text="fully off" bounds="[1200,100][1300,300]"/>
      <node text="not visible" visible-to-user="false" bounds="[0,0][10,10]"/>
    </hierarchy>"""
    els = parse_ui_dump(xml, screen=(1080, 2400))
    assert [(el.text, el.bounds) for el in els] == [("partly off", (0, 100, 200, 300))]
    assert len(parse_ui_dump(xml)) == 2  # without a screen only the visibility flag drops nodes


def test_empty_input_and_empty_hierarchy() -> None:
    assert parse_ui_dump("") == []
    assert parse_ui_dump("  \n ") == []
    assert parse_ui_dump('<?xml version="1.0"?><hierarchy rotation="0"/>') == []
    assert parse_ui_dump("<hierarchy><node") == []  # truncated: nothing recoverable


@pytest.mark.parametrize("text", ["ERROR: could not get idle state.", "hello", "<html><body/></html>", "{}"])
def test_not_a_dump_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="not a uiautomator dump"):
        parse_ui_dump(text)


def test_parse_bounds() -> None:
    assert parse_bounds("[0,63][1080,2274]") == (0, 63, 1080, 2274)
    assert parse_bounds("[ 1 , 2 ][ 3 , 4 ]") == (1, 2, 3, 4)
    assert parse_bounds(None) is None
    assert parse_bounds("[5,5][5,9]") is None


def test_identical_dumps_give_identical_elements() -> None:
    assert parse_ui_dump(AMAZON) == parse_ui_dump(AMAZON)


_FRAGMENTS = st.sampled_from(
    [
        "<hierarchy>",
        "</hierarchy>",
        "<node ",
        "/>",
        ">",
        "</node>",
        'bounds="[0,0][10,10]"',
        'text="',
        '"',
        "&#10;",
        "&#0;",
        "&amp;",
        "&bogus;",
        "<?xml version='1.0' encoding='UTF-8' ?>",
        "<!DOCTYPE x [<!ENTITY a 'aaaa'>]>",
        "&a;",
        "<![CDATA[",
        "]]>",
        "\x00",
        "\ud800",
        "UI hierchary dumped to: /dev/tty",
    ]
)


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=20)), max_size=30).map("".join))
def test_arbitrary_text_only_ever_raises_value_error(text: str) -> None:
    try:
        result = parse_ui_dump(text)
    except ValueError:
        return
    assert isinstance(result, list)
    assert [el.index for el in result] == list(range(len(result)))


@settings(max_examples=200, deadline=None, database=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_only_ever_raise_value_error(data: bytes) -> None:
    with contextlib.suppress(ValueError):
        parse_ui_dump(data)
