"""KB loading: the test KB loads, and every broken variant is reported by file, entry and field."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from masbench.shortcuts import KBError, KnowledgeBase, Shortcut, load_kb
from masbench.shortcuts.loader import default_kb_dir

KB_DIR = Path(__file__).parent / "data" / "kb"

GOOD = """\
app: amazon
package: com.amazon.mShop.android.shopping
shortcuts:
  - name: search_product
    type: deeplink
    description: Open search results for a query.
    parameters:
      - {name: query, type: string, required: true}
      - {name: brand, type: string}
      - {name: sort, type: string, enum: [featured, price_asc], default: featured}
    example: 'amazon.search_product(query="shoes", brand="Nike")'
    deeplink:
      uri: "https://www.amazon.com/s?k={query}"
      optional_query: {rh: "p_89:{brand}", s: "{sort}"}
"""


@pytest.fixture
def kb_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kb").mkdir()
    return tmp_path / "kb"


def problems_for(kb_dir: Path, text: str, name: str = "amazon.yaml") -> list[str]:
    (kb_dir / name).write_text(textwrap.dedent(text))
    with pytest.raises(KBError) as info:
        load_kb(kb_dir)
    return info.value.problems


def test_test_kb_loads_with_every_type():
    kb = load_kb(KB_DIR)
    assert isinstance(kb, KnowledgeBase)
    assert kb.counts() == {"api": 5, "deeplink": 2, "rpa": 6, "replay": 1, "dynamic": 1}
    assert kb.apps() == ["chrome", "launcher", "settings"]
    assert kb["settings.open_display"].package == "com.android.settings"
    assert kb["launcher.go_home"].package == "com.google.android.apps.nexuslauncher"  # from the catalog
    assert kb.sources["chrome.search"] == KB_DIR / "chrome.yaml"


def test_good_file_fills_defaults(kb_dir: Path):
    (kb_dir / "amazon.yaml").write_text(GOOD)
    shortcut = load_kb(kb_dir)["amazon.search_product"]
    assert shortcut.qualified_name == "amazon.search_product"
    assert shortcut.deeplink is not None
    assert shortcut.deeplink.package == "com.amazon.mShop.android.shopping"
    assert shortcut.expect is not None and shortcut.expect.package == "com.amazon.mShop.android.shopping"
    assert shortcut.verified is True
    assert shortcut.signature() == (
        'amazon.search_product(query: string, brand?: string, sort?: "featured"|"price_asc" = "featured")'
        " — Open search results for a query."
    )


def test_single_file_and_env_default(kb_dir: Path, monkeypatch: pytest.MonkeyPatch):
    (kb_dir / "amazon.yaml").write_text(GOOD)
    assert len(load_kb(kb_dir / "amazon.yaml")) == 1
    monkeypatch.setenv("MASBENCH_KB_DIR", str(kb_dir))
    assert default_kb_dir() == kb_dir
    assert "amazon.search_product" in load_kb()


def test_default_dir_is_the_checkouts_shortcuts_kb(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("MASBENCH_KB_DIR", raising=False)
    assert default_kb_dir() == Path(__file__).resolve().parents[1] / "shortcuts_kb"


def test_missing_directory_names_the_path_and_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MASBENCH_KB_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(
        KBError, match=r"nowhere: no such knowledge-base file or directory \(set MASBENCH_KB_DIR"
    ):
        load_kb()


def test_bad_parameter_type_names_file_entry_and_field(kb_dir: Path):
    problems = problems_for(kb_dir, GOOD.replace("{name: query, type: string", "{name: query, type: text"))
    assert problems[0].startswith(
        'kb/amazon.yaml: shortcut search_product: field "parameters.0.type": Input should be'
    )
    assert "'string', 'integer'" in problems[0]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("type: deeplink", "type: rpa", 'field "rpa": an rpa shortcut needs its "rpa" block'),
        (
            "k={query}",
            "k={colour}",
            'field "deeplink.uri": placeholder {colour} is not a parameter (parameters: query, brand, sort)',
        ),
        ("k={query}", "k={brand}", 'field "deeplink.uri": placeholder {brand} is optional without a default'),
        (
            '"p_89:{brand}"',
            '"p_89:{maker}"',
            'field "deeplink.optional_query.rh": placeholder {maker} is not a parameter',
        ),
        (
            'brand="Nike")',
            "brand=5)",
            "field \"example\": does not validate: amazon.search_product: argument 'brand' must be a string, got 5",
        ),
        (
            '(query="shoes", ',
            "(",
            "field \"example\": does not validate: amazon.search_product: missing required argument 'query'",
        ),
        (
            "example: 'amazon.search_product",
            "example: 'amazon.search",
            'field "example": calls amazon.search, not amazon.search_product',
        ),
        (
            "default: featured",
            "default: newest",
            'field "parameters.2": must be one of "featured", "price_asc", got "newest"',
        ),
        (
            "{name: brand, type: string}",
            "{name: brand, type: string, required: true, default: x}",
            "parameter 'brand' is required, so it cannot have a default",
        ),
        (
            "{name: brand, type: string}",
            "{name: query, type: string}",
            "field \"parameters\": parameter 'query' is declared twice",
        ),
        (
            "description: Open search results for a query.",
            "description: ''",
            'field "description": String should have at least 1 character',
        ),
        (
            "    deeplink:",
            "    package: x\n    deeplink:",
            'field "package": set once per file, at the top, not per shortcut',
        ),
        ("    deeplink:", "    colour: red\n    deeplink:", 'field "colour": Extra inputs are not permitted'),
    ],
)
def test_broken_entry_is_reported_with_its_field(kb_dir: Path, old: str, new: str, expected: str):
    assert old in GOOD
    problems = problems_for(kb_dir, GOOD.replace(old, new))
    assert problems[0].startswith("kb/amazon.yaml: shortcut search_product: ")
    assert expected in problems[0]


def test_invalid_yaml_names_the_line(kb_dir: Path):
    problems = problems_for(kb_dir, GOOD.replace("    type: deeplink", "    type: [deeplink"))
    assert problems[0].startswith("kb/amazon.yaml:") and "invalid YAML" in problems[0]


def test_entry_without_a_name_is_named_by_position(kb_dir: Path):
    problems = problems_for(kb_dir, GOOD + "  - type: api\n    description: x\n    api: {action: A}\n")
    assert problems == ['kb/amazon.yaml: shortcut #1: field "name": Field required']


def test_file_level_problems(kb_dir: Path):
    assert problems_for(kb_dir, "- just a list\n") == [
        "kb/amazon.yaml: expected a mapping with app, package and shortcuts"
    ]
    assert 'field "app"' in problems_for(kb_dir, GOOD.replace("app: amazon", "app: Amazon Shopping"))[0]
    unknown_app = problems_for(
        kb_dir, "app: tiktok\nshortcuts:\n  - {name: a, type: api, description: d, api: {action: X}}\n"
    )
    assert unknown_app == [
        "kb/amazon.yaml: shortcut a: field \"package\": app 'tiktok' is not in the catalog, so give its package"
    ]


def test_duplicates_across_files_are_rejected(kb_dir: Path):
    (kb_dir / "a_first.yaml").write_text(GOOD)
    problems = problems_for(kb_dir, GOOD, name="b_second.yaml")
    assert problems == [
        "kb/b_second.yaml: shortcut search_product: duplicate of amazon.search_product in kb/a_first.yaml"
    ]


def test_every_problem_of_every_file_is_reported(kb_dir: Path):
    (kb_dir / "a.yaml").write_text(GOOD.replace("type: string, required", "type: str, required"))
    problems = problems_for(kb_dir, GOOD.replace("k={query}", "k={nope}"), name="b.yaml")
    assert [p.split(":")[0] for p in problems] == ["kb/a.yaml", "kb/b.yaml"]


RPA = """\
app: settings
shortcuts:
  - name: open_display
    type: api
    description: Display page.
    api: {action: android.settings.DISPLAY_SETTINGS}
  - name: dark
    type: rpa
    description: Dark theme on.
    parameters: [{name: label, type: string, required: true}]
    rpa:
      steps:
        - shortcut: "settings.open_display()"
        - tap: {text: "{label}"}
"""


def test_rpa_problems_name_the_step_field(kb_dir: Path):
    cases = {
        '- tap: {text: "{label}"}': (
            '- tap: {txt: "{label}"}',
            'field "rpa.steps.1.tap.txt": Extra inputs are not permitted',
        ),
        "- shortcut: ": ("- shortcutt: ", 'field "rpa.steps.0": a step needs exactly one of: shortcut, tap,'),
        "settings.open_display()": (
            "settings.open_displya()",
            "field \"rpa.steps.0.shortcut\": unknown shortcut 'settings.open_displya'; did you mean settings.open_display?",
        ),
        '{text: "{label}"}': (
            '{text: "{lable}"}',
            'field "rpa.steps.1.tap.text": placeholder {lable} is not a parameter',
        ),
    }
    for old, (new, expected) in cases.items():
        problems = problems_for(kb_dir, RPA.replace(old, new), name="settings.yaml")
        assert len(problems) == 1, problems
        assert problems[0].startswith("kb/settings.yaml: shortcut dark: "), problems
        assert expected in problems[0], problems


def test_shortcuts_calling_each_other_in_a_cycle_are_rejected(kb_dir: Path):
    text = (
        RPA
        + '  - name: loop\n    type: rpa\n    description: x\n    rpa: {steps: [{shortcut: "settings.loop2()"}]}\n'
    )
    text += '  - name: loop2\n    type: rpa\n    description: y\n    rpa: {steps: [{shortcut: "settings.loop()"}]}\n'
    problems = problems_for(kb_dir, text, name="settings.yaml")
    assert problems == [
        "kb/settings.yaml: shortcut loop: calls itself through settings.loop -> settings.loop2 -> settings.loop",
        "kb/settings.yaml: shortcut loop2: calls itself through settings.loop2 -> settings.loop -> settings.loop2",
    ]


def test_placeholders_outside_template_fields_are_rejected():
    with pytest.raises(
        ValueError, match=r"api.action: placeholders are only filled in the URI, data and extras"
    ):
        Shortcut.model_validate(
            {"app": "settings", "name": "x", "type": "api", "description": "d",
             "parameters": [{"name": "page"}], "api": {"action": "android.settings.{page}"}}
        )  # fmt: skip


def test_replay_cannot_contain_answer_or_finish():
    with pytest.raises(ValueError, match="'finish' cannot be part of a replay"):
        Shortcut.model_validate(
            {"app": "settings", "name": "x", "type": "replay", "description": "d",
             "replay": {"actions": [{"action": "home"}, {"action": "finish"}]}}
        )  # fmt: skip


def test_explicit_null_expect_turns_the_postcondition_off():
    base = {"app": "settings", "name": "x", "type": "api", "description": "d", "api": {"action": "A"}}
    assert Shortcut.model_validate(base).expect is not None
    assert Shortcut.model_validate({**base, "expect": None}).expect is None
    broadcast = Shortcut.model_validate({**base, "api": {"kind": "broadcast", "action": "A"}})
    assert broadcast.expect is None


def test_kb_filter_and_lookup():
    kb = load_kb(KB_DIR)
    only = kb.filter(apps=["settings"], types=["rpa", "replay"])
    assert {s.type for s in only} == {"rpa", "replay"} and {s.app for s in only} == {"settings"}
    assert [s.name for s in kb.by_app("launcher")] == ["go_home"]
    with pytest.raises(KeyError, match=r"did you mean settings\.open_display"):
        kb["settings.open_dispaly"]


def test_shortcuts_survive_a_dump_and_reload():
    """What `list --format json` prints (and what generation writes) validates back to the same entry."""
    for shortcut in load_kb(KB_DIR):
        data = shortcut.model_dump(mode="json", by_alias=True, exclude_none=True)
        assert Shortcut.model_validate(data) == shortcut
