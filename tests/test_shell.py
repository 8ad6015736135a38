"""The virtual phone's shell: POSIX syntax as adb clients send it, and the Android commands they run."""

from __future__ import annotations

import base64
import io
import json
import re
import shlex

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from masbench.vphone.build import build_phone
from masbench.vphone.commands.am import parse_intent
from masbench.vphone.phone import VirtualPhone
from masbench.vphone.shell import run_shell

# The regexes adbutils 2.x applies to our output (adbutils/shell.py).
FOCUS_RE = re.compile(r"mCurrentFocus=Window\{.*\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\}")
RESUMED_RE = re.compile(
    r"mResumedActivity: ActivityRecord\{.*?\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\s.*?\}"
)
TOP_RE = re.compile(r"ACTIVITY (?P<package>[^\s]+)/(?P<activity>[^/\s]+) \w+ pid=(?P<pid>\d+)")
DISPLAY_RE = re.compile(
    r".*DisplayViewport{.*?valid=true, .*?orientation=(?P<orientation>\d+), .*?deviceWidth=(?P<width>\d+), deviceHeight=(?P<height>\d+).*"
)
SETTINGS = "com.android.settings"
CHROME = "com.android.chrome"


def out(phone: VirtualPhone, command: str) -> str:
    return run_shell(phone, command).stdout.decode()


def events(phone: VirtualPhone, kind: str) -> list[dict]:
    return [e.as_json() for e in phone.events if e.kind == kind]


# -- syntax --------------------------------------------------------------------------------------------
def test_posix_quoting_keeps_words_together(phone):
    assert out(phone, "echo 'a b' \"c  d\" e\\ f") == "a b c  d e f\n"
    assert out(phone, "echo '' x") == " x\n"  # an empty quoted word is still an argument
    assert out(phone, 'echo "it\'s" \'say "hi"\'') == 'it\'s say "hi"\n'


@given(st.text(max_size=40))
@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_shlex_quoted_arguments_arrive_unchanged(phone, text):
    assert (
        run_shell(phone, f"printf %s {shlex.quote(text)}").stdout.decode("utf-8", "surrogateescape") == text
    )


def test_single_quotes_are_literal_and_double_quotes_expand(phone):
    assert out(phone, "X=5; echo $X ${X} \"$X\" '$X'") == "5 5 5 $X\n"
    assert out(phone, 'echo "a\\$b" \\$HOME') == "a$b $HOME\n"


def test_sequences_and_conditionals_follow_exit_status(phone):
    assert out(phone, "true && echo yes || echo no; false && echo yes || echo no") == "yes\nno\n"
    assert out(phone, "false; echo $?; true; echo $?") == "1\n0\n"
    assert out(phone, "! false && echo negated") == "negated\n"


def test_shell2_exit_suffix_reports_the_last_status(phone):
    """adbutils' shell2 and uiautomator2 append `; echo X4EXIT:$?` to learn the exit status."""
    assert out(phone, "ls /nope; echo X4EXIT:$?").endswith("X4EXIT:1\n")
    assert out(phone, "nosuchcmd; echo X4EXIT:$?").endswith("X4EXIT:127\n")
    assert out(phone, "getprop ro.build.version.sdk; echo X4EXIT:$?") == "35\nX4EXIT:0\n"


def test_empty_line_does_nothing(phone):
    result = run_shell(phone, "   ")
    assert (result.stdout, result.stderr, result.exit_code) == (b"", b"", 0)


def test_unknown_command_answers_like_android(phone):
    result = run_shell(phone, "frobnicate --now")
    assert result.stderr == b"/system/bin/sh: frobnicate: inaccessible or not found\n"
    assert result.exit_code == 127
    assert run_shell(phone, "/system/bin/getprop ro.build.version.release").stdout == b"15\n"


def test_syntax_errors_run_nothing(phone):
    for line in (
        "echo 'open",
        "echo a ;; echo b",
        "&& echo x",
        "echo a |",
        "if true; then echo x; fi",
        "cat <<EOF",
    ):
        result = run_shell(phone, f"{line}")
        assert result.exit_code == 1, line
        assert result.stderr.startswith(b"/system/bin/sh: syntax error: "), line
        assert result.stdout == b"", line


def test_redirections_write_the_phone_fs(phone):
    run_shell(phone, "echo one > /sdcard/notes.txt; echo two >> /sdcard/notes.txt")
    assert phone.fs.read("/sdcard/notes.txt") == b"one\ntwo\n"
    run_shell(phone, "echo fresh > /sdcard/notes.txt")
    assert out(phone, "cat < /sdcard/notes.txt") == "fresh\n"


def test_stderr_redirection_and_merging(phone):
    merged = run_shell(phone, "ls /nope 2>&1")
    assert merged.stdout == b"ls: /nope: No such file or directory\n" and merged.stderr == b""
    assert run_shell(phone, "ls /nope 2>/dev/null").stderr == b""
    run_shell(phone, "ls /nope /sdcard > /data/local/tmp/all.txt 2>&1")
    assert b"No such file" in phone.fs.read("/data/local/tmp/all.txt")
    assert run_shell(phone, "echo to-err >&2").stderr == b"to-err\n"
    assert run_shell(phone, "echo x >/dev/null").stdout == b""


def test_cd_makes_relative_paths_work_within_one_line(phone):
    assert out(phone, "cd /sdcard && echo x > rel.txt && pwd && cat rel.txt") == "/sdcard\nx\n"
    assert phone.fs.read("/storage/emulated/0/rel.txt") == b"x\n"
    assert out(phone, "pwd") == "/\n"  # each `adb shell` line is a new shell


def test_shell_user_cannot_write_outside_sdcard_and_tmp(phone):
    result = run_shell(phone, "echo x > /system/evil")
    assert result.exit_code == 1
    assert result.stderr == b"/system/bin/sh: can't create /system/evil: Permission denied\n"


def test_pipes_into_text_filters(phone):
    assert out(phone, "printf 'a\\nB\\nc\\n' | grep -i b") == "B\n"
    assert out(phone, "printf 'a\\nb\\nc\\n' | grep -v b | wc -l") == "2\n"
    assert out(phone, "printf 'x1\\nx22\\n' | grep -E 'x[0-9]{2}'") == "x22\n"
    assert run_shell(phone, "echo abc | grep -q zzz").exit_code == 1
    assert out(phone, "printf '1\\n2\\n3\\n4\\n' | head -n 2 | tail -n 1") == "2\n"
    assert out(phone, "echo aGk= | base64 -d") == "hi"


def test_variable_prefix_and_command_substitution(phone):
    assert out(phone, "GREETING=hey sh -c 'echo $GREETING'") == "hey\n"
    assert out(phone, "echo $(getprop ro.product.brand) `echo tick`") == "google tick\n"


def test_globs_expand_over_the_fs(phone):
    run_shell(phone, "touch /sdcard/Download/a.txt /sdcard/Download/b.txt /sdcard/Download/c.png")
    assert out(phone, "ls /sdcard/Download/*.txt") == "/sdcard/Download/a.txt\n/sdcard/Download/b.txt\n"
    assert out(phone, "echo '*.txt'") == "*.txt\n"


def test_binary_stdout_survives(phone):
    png = run_shell(phone, "screencap -p").stdout
    assert Image.open(io.BytesIO(png)).size == (1080, 2400)
    run_shell(phone, "screencap -p /sdcard/shot.png")
    assert phone.fs.read("/sdcard/shot.png") == png


# -- input ---------------------------------------------------------------------------------------------
def test_input_text_maps_percent_s_to_space(phone):
    assert run_shell(phone, "input text 'hello%sworld'").exit_code == 0
    assert events(phone, "text")[-1]["text"] == "hello world"


def test_input_text_cannot_type_non_ascii_like_android(phone):
    result = run_shell(phone, "input text 'café'")
    assert result.exit_code == 255
    assert b"NullPointerException" in result.stderr
    assert not events(phone, "text")


def test_input_tap_accepts_floats_and_rejects_bad_arguments(phone):
    assert run_shell(phone, "input tap 540.7 1200.2").exit_code == 0
    assert events(phone, "tap")[-1] | {"seq": 0, "t_ms": 0} == {
        "kind": "tap",
        "x": 540,
        "y": 1200,
        "seq": 0,
        "t_ms": 0,
    }
    bad = run_shell(phone, "input tap 1")
    assert bad.exit_code == 1 and bad.stderr.startswith(b"Error: Invalid arguments for command: tap")


def test_input_keyevent_names_and_numbers(phone):
    run_shell(phone, "am start -n com.android.settings/.Settings")
    assert run_shell(phone, "input keyevent 3").exit_code == 0
    assert phone.current_focus()[0] == phone.home_package
    run_shell(phone, "input keyevent KEYCODE_BACK ENTER 66 --longpress POWER")
    assert [e["key"] for e in events(phone, "key")] == ["HOME", "BACK", "ENTER", "ENTER", "POWER"]
    unknown = run_shell(phone, "input keyevent KEYCODE_NOPE")
    assert unknown.exit_code == 1 and unknown.stderr == b"Error: Unknown keycode: KEYCODE_NOPE\n"


# -- activity manager ----------------------------------------------------------------------------------
def test_am_start_component_moves_focus(phone):
    result = run_shell(phone, "am start -n com.android.settings/.Settings")
    assert result.stdout == b"Starting: Intent { cmp=com.android.settings/.Settings }\n"
    assert phone.current_focus() == (SETTINGS, "com.android.settings.Settings")


def test_am_start_view_uri_with_ampersand(phone):
    url = "https://www.example.com/search?q=a+b&page=2"
    result = run_shell(phone, f"am start -a android.intent.action.VIEW -d {shlex.quote(url)}")
    assert result.exit_code == 0
    assert f"dat={url}" in result.stdout.decode()
    assert phone.current_focus()[0] == CHROME
    assert url in json.dumps(phone.app_state(CHROME))


def test_am_start_trailing_uri_is_data(phone):
    run_shell(phone, "am start 'https://example.org/x?y=1&z=2'")
    assert phone.current_focus()[0] == CHROME


def test_am_intent_extras_are_typed():
    args = shlex.split(
        "-a android.intent.action.SEND --es subject 'Hi there' --ei n 5 --el big 9000000000 --ef f 1.5 "
        "--ez flag true --ez off 0 --esa to 'a@x.com,b\\,c@y.com' --eia nums 1,2 --activity-clear-top "
        "-c android.intent.category.DEFAULT -p com.google.android.gm"
    )
    intent = parse_intent("start", args, {}).intent
    assert intent.action == "android.intent.action.SEND"
    assert intent.package == "com.google.android.gm"
    assert intent.categories == ["android.intent.category.DEFAULT"]
    assert intent.extras == {
        "subject": "Hi there",
        "n": 5,
        "big": 9000000000,
        "f": 1.5,
        "flag": True,
        "off": False,
        "to": ["a@x.com", "b,c@y.com"],
        "nums": [1, 2],
    }


def test_am_start_failure_prints_android_error_and_exits_1(phone):
    result = run_shell(phone, "am start -a com.example.NOTHING_HANDLES_THIS")
    assert result.exit_code == 1
    assert result.stderr.startswith(b"Error: Activity not started, unable to resolve Intent {")
    missing = run_shell(phone, "am start -n com.android.settings/.Nope")
    assert missing.exit_code == 1
    assert (
        b"Error: Activity class {com.android.settings/com.android.settings.Nope} does not exist."
        in missing.stderr
    )
    bad = run_shell(phone, "am start --bogus-flag")
    assert bad.exit_code == 255 and b"Unknown option: --bogus-flag" in bad.stderr


def test_am_start_non_exported_activity_is_denied(phone):
    result = run_shell(phone, "am start -n com.android.settings/.SubSettings")
    assert result.exit_code == 255
    assert b"java.lang.SecurityException: Permission Denial" in result.stderr


def test_am_start_wait_reports_launch(phone):
    lines = out(phone, "am start -W -n com.android.settings/.Settings").splitlines()
    assert lines[1:3] == ["Status: ok", "LaunchState: COLD"]
    assert lines[3] == "Activity: com.android.settings/.Settings"
    assert lines[-1] == "Complete"
    assert int(lines[4].split(": ")[1]) > 0


def test_am_force_stop_returns_home(phone):
    run_shell(phone, "am start -n com.android.settings/.Settings")
    run_shell(phone, "am force-stop com.android.settings")
    assert phone.current_focus()[0] == phone.home_package
    assert SETTINGS not in phone.running


def test_am_broadcast_reports_completion(phone):
    result = out(phone, "am broadcast -a ADB_INPUT_TEXT --es msg 'hi there'")
    assert result.splitlines()[0] == "Broadcasting: Intent { act=ADB_INPUT_TEXT flg=0x400000 (has extras) }"
    assert re.fullmatch(r"Broadcast completed: result=-?\d+", result.splitlines()[1])
    assert events(phone, "text")[-1]["text"] == "hi there"


def test_monkey_launches_and_reports_unknown_packages(phone):
    result = run_shell(phone, "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    assert result.exit_code == 0 and b"Events injected: 1" in result.stdout
    assert phone.current_focus()[0] == SETTINGS
    missing = run_shell(phone, "monkey -p com.nope 1")
    assert missing.exit_code == 251
    assert missing.stderr == b"** No activities found to run, monkey aborted.\n"


# -- packages ------------------------------------------------------------------------------------------
def test_pm_list_packages(phone):
    names = re.findall(r"^package:([^\s]+)\r?$", out(phone, "pm list packages"), re.M)
    assert names == sorted(names)
    assert {SETTINGS, CHROME, phone.home_package} <= set(names)
    assert "package:com.android.adbkeyboard" in out(phone, "pm list packages -3")
    assert SETTINGS not in out(phone, "pm list packages -3")
    assert out(phone, "pm list packages chrome") == "package:com.android.chrome\n"
    assert out(phone, "pm list packages -f chrome").endswith(".apk=com.android.chrome\n")


def test_pm_path_and_package_versions(phone):
    assert out(phone, f"pm path {CHROME}").startswith("package:/")
    assert run_shell(phone, "pm path com.nope").exit_code == 1
    dump = out(phone, f"dumpsys package {CHROME}")
    assert re.search(r"versionName=(?P<name>[^\s]+)", dump).group("name") == phone.apps[CHROME].version_name
    assert int(re.search(r"versionCode=(?P<code>\d+)", dump).group("code")) == phone.apps[CHROME].version_code
    assert re.search(r"firstInstallTime=([-\d]+\s+[:\d]+)", dump)


def test_pm_resolve_activity_brief(phone):
    result = out(
        phone, "cmd package resolve-activity --brief -c android.intent.category.LAUNCHER com.android.settings"
    )
    assert result.splitlines() == [
        "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true",
        "com.android.settings/.Settings",
    ]


def test_pm_clear_and_install(phone):
    run_shell(phone, f'cmd masbench patch {CHROME} \'{{"history": ["x"]}}\'')
    assert out(phone, f"pm clear {CHROME}") == "Success\n"
    assert phone.app_state(CHROME)["history"] == []
    run_shell(phone, "touch /data/local/tmp/app.apk")  # an empty file is no APK (see test_vphone_android15)
    empty = run_shell(phone, "pm install -r -t /data/local/tmp/app.apk")
    assert empty.exit_code == 1
    assert empty.stdout.startswith(b"Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl")
    missing = run_shell(phone, "pm install /data/local/tmp/none.apk")
    assert missing.stderr.startswith(b"Error: Unable to open file: /data/local/tmp/none.apk\n")
    assert missing.exit_code == 255


# -- settings ------------------------------------------------------------------------------------------
def test_settings_round_trip(phone):
    assert out(phone, "settings get system no_such_key") == "null\n"
    run_shell(phone, "settings put system screen_brightness 200")
    assert out(phone, "settings get system screen_brightness") == "200\n"
    assert events(phone, "setting")[-1]["value"] == "200"
    assert "screen_brightness=200" in out(phone, "settings list system").splitlines()
    assert out(phone, "settings delete system screen_brightness") == "Deleted 1 rows\n"
    assert run_shell(phone, "settings get bogus x").exit_code == 255


def test_radio_switches_update_settings(phone):
    run_shell(phone, "svc wifi disable")
    assert phone.settings["global"]["wifi_on"] == "0"
    run_shell(phone, "cmd wifi set-wifi-enabled enabled")
    assert phone.settings["global"]["wifi_on"] == "1"
    run_shell(phone, "cmd connectivity airplane-mode enable")
    assert phone.settings["global"]["airplane_mode_on"] == "1"
    assert out(phone, "cmd connectivity airplane-mode") == "enabled\n"


def test_ime_set_changes_the_default_input_method(phone):
    ids = out(phone, "ime list -s -a").split()
    assert "com.android.adbkeyboard/.AdbIME" in ids
    gboard = next(i for i in ids if "latin" in i)
    assert out(phone, f"ime set {gboard}") == f"Input method {gboard} selected for user #0\n"
    assert out(phone, "settings get secure default_input_method") == gboard + "\n"


def test_content_query_reads_the_settings_provider(phone):
    rows = out(phone, "content query --uri content://settings/global --where \"name='wifi_on'\"")
    assert re.fullmatch(r"Row: 0 _id=\d+, name=wifi_on, value=1\n", rows)
    assert (
        out(phone, "content query --uri content://settings/global --projection name:value --where name=nope")
        == "No result found.\n"
    )


# -- dumpsys and window manager ------------------------------------------------------------------------
def test_current_app_regexes_of_adbutils(phone):
    run_shell(phone, "am start -n com.android.settings/.Settings")
    focus = FOCUS_RE.search(out(phone, "dumpsys window windows"))
    assert (focus.group("package"), focus.group("activity")) == (SETTINGS, "com.android.settings.Settings")
    assert RESUMED_RE.search(out(phone, "dumpsys activity activities")).group("package") == SETTINGS
    assert "topResumedActivity=ActivityRecord{" in out(phone, "dumpsys activity activities")
    top = TOP_RE.search(out(phone, "dumpsys activity top"))
    assert top.group("package") == SETTINGS and int(top.group("pid")) > 0
    assert "mFocusedApp=ActivityRecord{" in out(phone, "dumpsys window")
    assert out(phone, "dumpsys window | grep mCurrentFocus").count("\n") == 1


def test_window_size_and_rotation_as_adbutils_reads_them(phone):
    assert re.search(r"Physical size: (\d+)x(\d+)", out(phone, "wm size")).groups() == ("1080", "2400")
    assert out(phone, "wm density") == "Physical density: 420\n"
    display = out(phone, "dumpsys display")
    first = next(line for line in display.splitlines() if re.search(r".*?orientation=(?P<o>\d+)", line))
    assert re.search(r"orientation=(\d+)", first).group(1) == "0"
    viewport = next(DISPLAY_RE.match(line) for line in display.splitlines() if DISPLAY_RE.match(line))
    assert viewport.group("width", "height") == ("1080", "2400")
    assert "mBaseDisplayInfo=" in display


def test_power_battery_and_display_ids(phone):
    assert "mHoldingDisplaySuspendBlocker=true" in out(phone, "dumpsys power")
    assert "  level: 100\n" in out(phone, "dumpsys battery")
    display_id = re.findall(r"Display (\d+) ", out(phone, "dumpsys SurfaceFlinger --display-id"))[0]
    assert run_shell(phone, f"screencap -p -d {display_id}").stdout.startswith(b"\x89PNG")
    assert run_shell(phone, "dumpsys nosuchservice").stderr == b"Can't find service: nosuchservice\n"


def test_dumpsys_is_deterministic(phone):
    first = out(phone, "dumpsys window windows; dumpsys activity activities")
    second = out(build_phone("vphone-1"), "dumpsys window windows; dumpsys activity activities")
    assert first == second


def test_uiautomator_dump_as_adbutils_runs_it(phone):
    command = "rm -f /data/local/tmp/uidump.xml; uiautomator dump /data/local/tmp/uidump.xml && echo success"
    result = out(phone, command)
    assert result == "UI hierchary dumped to: /data/local/tmp/uidump.xml\nsuccess\n"
    assert phone.fs.read("/data/local/tmp/uidump.xml").startswith(b"<?xml")
    assert "UI hierchary dumped to: /sdcard/window_dump.xml" in out(phone, "uiautomator dump")


# -- system --------------------------------------------------------------------------------------------
def test_getprop(phone):
    assert out(phone, "getprop ro.serialno") == "vphone-1\n"
    assert out(phone, "getprop no.such.prop") == "\n"
    assert "[ro.build.version.sdk]: [35]" in out(phone, "getprop").splitlines()


def test_ps_lists_running_apps_in_nine_columns(phone):
    """uiautomator2's `_pidof_app`: fields[1] is the pid, fields[-1] the name, at least 9 fields."""
    run_shell(phone, "am start -n com.android.settings/.Settings")
    lines = out(phone, "ps -A").splitlines()
    assert len(lines[0].split()) == 9
    row = next(line.split() for line in lines if line.split()[-1] == SETTINGS)
    assert len(row) == 9 and int(row[1]) > 0
    assert out(phone, f"pidof {SETTINGS}") == row[1] + "\n"


def test_toybox_md5sum_matches_hashlib(phone):
    import hashlib

    phone.fs.write("/data/local/tmp/u2.jar", b"jar-bytes")
    expected = hashlib.md5(b"jar-bytes").hexdigest()
    assert out(phone, "toybox md5sum /data/local/tmp/u2.jar") == f"{expected}  /data/local/tmp/u2.jar\n"


def test_logcat_dumps_the_event_log_and_clears(phone):
    run_shell(phone, "input keyevent HOME")
    assert '"kind": "key"' in out(phone, "logcat -d -v time")
    run_shell(phone, "logcat -c")
    assert out(phone, "logcat -d") == "--------- beginning of main\n"


def test_unknown_cmd_service(phone):
    result = run_shell(phone, "cmd nosuch thing")
    assert (result.stderr, result.exit_code) == (b"cmd: Can't find service: nosuch\n", 20)


# -- cmd masbench --------------------------------------------------------------------------------------
def test_masbench_reset_restores_seed_and_clock(phone):
    run_shell(phone, "am start -n com.android.settings/.Settings")
    reply = json.loads(out(phone, "cmd masbench reset --seed 7 --clock 2025-01-02T03:04:05Z"))
    assert reply == {"ok": True, "seed": 7, "clock": "2025-01-02T03:04:05+00:00"}
    assert phone.seed == 7 and phone.current_focus()[0] == phone.home_package
    assert json.loads(out(phone, "cmd masbench time"))["clock"].startswith("2025-01-02T03:04:05")
    assert run_shell(phone, "cmd masbench reset --clock yesterday").exit_code == 1


def test_masbench_state_and_patch_deep_merge(phone):
    assert json.loads(out(phone, f"cmd masbench state {CHROME}")) == phone.app_state(CHROME)
    assert json.loads(out(phone, "cmd masbench state"))["serial"] == "vphone-1"
    patch = {"prefs": {"a": 1, "nested": {"x": 1}}, "history": ["https://a.example"]}
    assert json.loads(out(phone, f"cmd masbench patch {CHROME} {shlex.quote(json.dumps(patch))}")) == {
        "ok": True
    }
    b64 = base64.b64encode(json.dumps({"prefs": {"nested": {"y": 2}}}).encode()).decode()
    run_shell(phone, f"cmd masbench patch {CHROME} --b64 {b64}")
    state = phone.app_states[CHROME]
    assert state["prefs"] == {"a": 1, "nested": {"x": 1, "y": 2}}
    assert state["history"] == ["https://a.example"]
    assert run_shell(phone, "cmd masbench state com.nope").exit_code == 1
    assert run_shell(phone, f"cmd masbench patch {CHROME} '[1]'").exit_code == 1


def test_masbench_events_since(phone):
    run_shell(phone, "input keyevent HOME; input keyevent BACK")
    lines = [json.loads(line) for line in out(phone, "cmd masbench events --since 1").splitlines()]
    assert [e["seq"] for e in lines] == list(range(1, len(phone.events)))
    assert all(e["seq"] >= 1 for e in lines)


def test_masbench_apps_and_clipboard(phone):
    apps = json.loads(out(phone, "cmd masbench apps"))
    settings_app = next(a for a in apps if a["package"] == SETTINGS)
    assert settings_app == {
        "package": SETTINGS,
        "label": "Settings",
        "launcher_activity": "com.android.settings.Settings",
        "in_launcher": True,
    }
    run_shell(phone, "cmd masbench clipboard 'copied text'")
    assert json.loads(out(phone, "cmd masbench clipboard")) == {"text": "copied text"}


def test_masbench_unknown_subcommand_prints_usage(phone):
    result = run_shell(phone, "cmd masbench frob")
    assert result.exit_code == 1 and b"usage: cmd masbench" in result.stderr


# -- robustness ----------------------------------------------------------------------------------------
@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_text_gives_a_result_never_an_exception(phone, text):
    result = run_shell(phone, text)
    assert isinstance(result.stdout, bytes) and isinstance(result.stderr, bytes)
    assert 0 <= result.exit_code <= 255
    assert b"internal error" not in result.stderr


SHELL_ALPHABET = st.sampled_from(
    ["echo", "ls", "cat", "am", "start", "-n", "pm", "list", "input", "text", "tap", "1", "-", "'", '"', "$", "$?",
     ";", "&&", "||", "|", ">", "2>&1", "<", "(", ")", "`", "\\", " ", "*", "x", "/sdcard", "grep", "settings",
     "get", "cmd", "masbench", "dumpsys", "window", "keyevent", "=", "${", "}", "$(", "\n", "#", "!"]
)  # fmt: skip


@given(st.lists(SHELL_ALPHABET, max_size=25).map("".join))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_shell_like_garbage_never_breaks_the_interpreter(phone, text):
    result = run_shell(phone, text)
    assert b"internal error" not in result.stderr, (text, result.stderr)


def test_what_device_control_code_reads_is_answered_as_android_15_prints_it():
    phone = build_phone("vphone-1")
    phone.shell("am start -n com.android.settings/.Settings")
    out = lambda cmd: phone.shell(cmd).stdout.decode()  # noqa: E731
    frame = re.search(r"physicalFrame=\[(\d+), (\d+), (\d+), (\d+)\]", out("dumpsys input"))
    assert frame and frame.groups() == ("0", "0", "1080", "2400")  # AndroidWorld's frame boundary
    assert re.search(r"SurfaceOrientation: (\d)", out("dumpsys input")).group(1) == "0"
    stacks = re.findall(r"taskId=(\d+): (\S+)/(\S+) .*visible=(\w+)", out("am stack list"))
    assert stacks[0][1:] == ("com.android.settings", "com.android.settings.Settings", "true")
    assert all(visible == "false" for *_, visible in stacks[1:])
    assert "feature:android.hardware.touchscreen" in out("pm list features").splitlines()
    assert "Total RAM:" in out("dumpsys meminfo") and "mCallState=0" in out("dumpsys telephony.registry")
