"""The screen as AndroidWorld's T3A and M3A see it: which nodes are listed, under which number, how each
is printed, and how an action naming one by that number reaches the device.

AndroidWorld keeps every node of the accessibility tree that is a leaf, has a content description or is
scrollable (`representation_utils.forest_to_ui_elements`, invisible nodes left out), numbers them in tree
order, and shows only those whose box overlaps the screen (`m3a_utils.validate_ui_element`), each under
its number in the whole list, so the shown numbers may skip. T3A prints each element's whole record (its
`UIElement` dataclass as Python prints it), M3A a short dict of its texts and flags.

The executor and the trajectory speak of the observation's own element list (`parse_ui_dump`), so
`ground` turns an action on AndroidWorld's numbers into one on the same node there, or, for a node that list
leaves out (an unlabelled leaf), into the touch AndroidWorld would make at its centre.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from masbench.actions import ScrollAction, SwipeAction
from masbench.device.commands import scroll_gesture
from masbench.device.elements import dump_nodes, node_element, parse_bounds

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.device import Observation, UIElement

NO_BOUNDS = (0, 0, 0, 0)
SCROLL_MS = 400  # as `Device.scroll` strokes


@dataclass(frozen=True)
class Screen:
    """AndroidWorld's element list of one observation: `elements[i].index == i`, shown or not."""

    elements: list[UIElement]
    width: int
    height: int

    @property
    def shown(self) -> list[UIElement]:
        """The elements the prompt lists and the marks box: a box that overlaps the screen."""
        return [el for el in self.elements if on_screen(el, self.width, self.height)]


def screen(observation: Observation) -> Screen:
    """AndroidWorld's element list for `observation`, read from its UI dump."""
    elements: list[UIElement] = []
    for attrs, has_children in dump_nodes(observation.xml):
        if attrs.get("visible-to-user", "true").strip().lower() == "false":
            continue
        if not has_children or attrs.get("content-desc") or attrs.get("scrollable") == "true":
            bounds = parse_bounds(attrs.get("bounds")) or NO_BOUNDS
            elements.append(node_element(attrs, len(elements), bounds))
    return Screen(elements, observation.width, observation.height)


def on_screen(element: UIElement, width: int, height: int) -> bool:
    """AndroidWorld's test of a listed element: a non-empty box that overlaps the screen."""
    x1, y1, x2, y2 = element.bounds
    return x1 < x2 and y1 < y2 and x1 < width and y1 < height and x2 > 0 and y2 > 0


def full_record(el: UIElement) -> str:
    """T3A's line: the element's whole record as AndroidWorld's dataclass prints it. A UI dump has no
    normalised box, tooltip or metadata (None there too, without a screen size), and only visible nodes."""
    x1, y1, x2, y2 = el.bounds
    fields = {
        "text": el.text or None,
        "content_description": el.content_desc or None,
        "class_name": el.cls or None,
        "bbox": None,
        "bbox_pixels": f"BoundingBox(x_min={x1}, x_max={x2}, y_min={y1}, y_max={y2})",
        "hint_text": el.hint or None,
        "is_checked": el.checked,
        "is_checkable": el.checkable,
        "is_clickable": el.clickable,
        "is_editable": el.editable,
        "is_enabled": el.enabled,
        "is_focused": el.focused,
        "is_focusable": el.focusable,
        "is_long_clickable": el.long_clickable,
        "is_scrollable": el.scrollable,
        "is_selected": el.selected,
        "is_visible": True,
        "package_name": el.package or None,
        "resource_name": el.resource_id or None,
        "tooltip": None,
        "resource_id": None,
        "metadata": None,
    }
    body = ", ".join(f"{k}={v if k == 'bbox_pixels' else repr(v)}" for k, v in fields.items())
    return f"UI element {el.index}: UIElement({body})"


def concise_record(el: UIElement) -> str:
    """M3A's line: the texts that are set, quoted as they are, then the interaction flags."""
    parts = [f'"index": {el.index}']
    for key, value in (("text", el.text), ("content_description", el.content_desc), ("hint_text", el.hint)):
        if value:
            parts.append(f'"{key}": "{value}"')
    parts += [f'"is_clickable": {el.clickable}', f'"is_long_clickable": {el.long_clickable}']
    parts.append(f'"is_editable": {el.editable}')
    if el.scrollable:
        parts.append('"is_scrollable": True')
    if el.focusable:
        parts.append('"is_focusable": True')
    parts += [f'"is_selected": {el.selected}', f'"is_checked": {el.checked}']
    return f"UI element {el.index}: {{{', '.join(parts)}}}"


def ground(action: Action, seen: Screen, observation: Observation) -> tuple[Action | None, str | None]:
    """`action` with its AndroidWorld number replaced by the same node in the observation's element list,
    or by the touch AndroidWorld makes on a node that list leaves out; (None, why) for a number that names
    no element shown."""
    index = getattr(action, "index", None)
    if index is None:
        return action, None
    if index >= len(seen.elements):
        return None, f"element index {index} is out of range 0..{len(seen.elements) - 1}"
    element = seen.elements[index]
    if not on_screen(element, seen.width, seen.height):
        return None, f"element {index} is not on the screen"
    same = _same_node(element, observation)
    if same is not None:
        return action.model_copy(update={"index": same.index}), None
    if isinstance(action, ScrollAction):
        x1, y1, x2, y2 = scroll_gesture(action.direction, _clipped(element, seen.width, seen.height))
        return SwipeAction(x1=x1, y1=y1, x2=x2, y2=y2, duration_ms=SCROLL_MS), None
    x, y = element.center
    return action.model_copy(update={"index": None, "x": max(0, x), "y": max(0, y)}), None


def _clipped(element: UIElement, width: int, height: int) -> tuple[int, int, int, int]:
    x1, y1, x2, y2 = element.bounds
    return max(0, x1), max(0, y1), min(width, x2), min(height, y2)


def _same_node(element: UIElement, observation: Observation) -> UIElement | None:
    """The observation's element for the same node: same box (clipped to the screen, as that list is)
    and the same class, texts and id."""
    key = _identity(element, _clipped(element, observation.width, observation.height))
    return next((el for el in observation.elements if _identity(el, el.bounds) == key), None)


def _identity(el: UIElement, box: tuple[int, int, int, int]) -> tuple[object, ...]:
    return box, el.cls, el.text, el.content_desc, el.resource_id
