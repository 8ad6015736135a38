"""Android Settings stand-in (`com.android.settings`). Its switches and sliders read and write the same
system settings table that `settings get/put` sees, so GUI and shell agree."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ..identity import identity
from ..intents import CATEGORY_DEFAULT, Intent, IntentFilter
from ..theme import TextStyle, Theme, theme
from ..ui import SEEKBAR, Node
from ..widgets import (
    app_bar,
    button,
    choice_dialog,
    column,
    dialog,
    divider,
    icon_button,
    list_item,
    radio,
    row,
    scroll_page,
    search_field,
    switch,
    text,
)

S = "com.android.settings.Settings"
SUB = "com.android.settings.SubSettings"  # where pages without an activity of their own open
APP_DETAILS = "android.settings.APPLICATION_DETAILS_SETTINGS"
APP_DETAILS_ACTIVITY = "com.android.settings.applications.InstalledAppDetails"
DENSITIES = {"Small": "378", "Default": "", "Large": "472", "Larger": "525"}


def _filter(*actions: str) -> tuple[IntentFilter, ...]:
    return (IntentFilter(actions=actions, categories=(CATEGORY_DEFAULT,)),)


# (title, summary-maker, screen) of the top-level list, in Pixel order
TOP_LEVEL = (
    ("Network & internet", "Wi-Fi, mobile, data usage, hotspot", "network", "wifi"),
    ("Connected devices", "Bluetooth, pairing", "connected", "bluetooth"),
    ("Apps", "Recent apps, default apps", "apps", "apps"),
    ("Notifications", "Notification history, conversations", "notifications", "bell"),
    ("Battery", "100%", "battery", "brightness"),
    ("Storage", "31% used - 44.1 GB free", "storage", "apps"),
    ("Sound & vibration", "Volume, haptics, Do Not Disturb", "sound", "bell"),
    ("Display", "Dark theme, font size, brightness", "display", "brightness"),
    ("Wallpaper & style", "Colors, themed icons, app grid", "wallpaper", "star"),
    ("Accessibility", "Display, interaction, audio", "accessibility", "person"),
    ("Security & privacy", "App security, device lock, permissions", "security", "check"),
    ("Location", "On - 3 apps have access to location", "location", "pin"),
    ("Passwords & accounts", "Saved passwords, autofill, synced accounts", "accounts", "person"),
    ("System", "Languages, gestures, time, backup", "system", "settings"),
    ("About phone", "sdk_gphone64_x86_64", "about", "person"),
)
SEARCHABLE = {
    "Wi-Fi": "wifi", "Internet": "network", "Airplane mode": "network", "Bluetooth": "connected",
    "Dark theme": "display", "Brightness level": "display", "Display size and text": "display_size",
    "Screen timeout": "display", "Android version": "about", "Hotspot & tethering": "network",
}  # fmt: skip
WIFI_NETWORKS = ("AndroidWifi", "Home-5G", "CoffeeShop Guest", "Office")


FONT_SCALES = (("Small", "0.85"), ("Default", "1.0"), ("Large", "1.15"), ("Largest", "1.3"))
ACTIVITIES = (
    Activity(S, "main", (LAUNCHER_FILTER, *_filter("android.settings.SETTINGS"))),
    Activity(f"{S}$NetworkDashboardActivity", "network", _filter("android.settings.WIRELESS_SETTINGS", "android.settings.AIRPLANE_MODE_SETTINGS")),
    Activity(f"{S}$WifiSettingsActivity", "wifi", _filter("android.settings.WIFI_SETTINGS")),
    Activity(f"{S}$ConnectedDeviceDashboardActivity", "connected", _filter("android.settings.BLUETOOTH_SETTINGS")),
    Activity(f"{S}$DisplaySettingsActivity", "display", _filter("android.settings.DISPLAY_SETTINGS")),
    Activity(f"{S}$MyDeviceInfoActivity", "about", _filter("android.settings.DEVICE_INFO_SETTINGS")),
    Activity(f"{S}$ManageApplicationsActivity", "apps", _filter("android.settings.APPLICATION_SETTINGS", "android.settings.MANAGE_APPLICATIONS_SETTINGS")),
    Activity(APP_DETAILS_ACTIVITY, "app_details", (IntentFilter(actions=(APP_DETAILS,), schemes=("package",)),)),
    Activity(SUB, "sub", (), exported=False),
)  # fmt: skip


# -- the system settings table: what `settings get/put` reads and writes ---------------------------------
def _get(ctx: AppContext, ns: str, key: str, default: str = "0") -> str:
    return ctx.phone.settings[ns].get(key, default)


def _put(ctx: AppContext, ns: str, key: str, value: str) -> None:
    ctx.phone.settings[ns][key] = value
    ctx.log("setting", namespace=ns, key=key, value=value)


def _toggle(ctx: AppContext, ns: str, key: str) -> Callable[[], None]:
    def flip() -> None:
        _put(ctx, ns, key, "0" if _get(ctx, ns, key) == "1" else "1")
        if key == "airplane_mode_on" and _get(ctx, ns, key) == "1":
            _put(ctx, "global", "wifi_on", "0")
            _put(ctx, "global", "bluetooth_on", "0")

    return flip


def _bluetooth(ctx: AppContext) -> Callable[[], None]:
    def flip() -> None:
        value = "0" if _get(ctx, "global", "bluetooth_on") == "1" else "1"
        _put(ctx, "global", "bluetooth_on", value)
        _put(ctx, "secure", "bluetooth_on", value)

    return flip


def _brightness(ctx: AppContext, delta_percent: int) -> None:
    level = int(_get(ctx, "system", "screen_brightness", "102"))
    percent = max(0, min(100, round(level * 100 / 255) + delta_percent))
    _put(ctx, "system", "screen_brightness", str(round(percent * 255 / 100)))


def _density_label(ctx: AppContext) -> str:
    forced = _get(ctx, "secure", "display_density_forced", "")
    return next((name for name, value in DENSITIES.items() if value == forced), "Default")


# -- screens --------------------------------------------------------------------------------------------
def _page(ctx: AppContext, title: str, *items: Node | None) -> Node:
    return column(
        app_bar(title, ctx.back), scroll_page("page", *items, rid="recycler_view"), rid="settings_root"
    )


def _section(label: str) -> Node:
    return text(label, "section", pad=(48, 40, 48, 10))


def main(ctx: AppContext) -> Node:
    query = str(ctx.ui.get("search", "")).strip()
    if query:
        hits = [(t, s) for t, s in SEARCHABLE.items() if query.lower() in t.lower()]
        body = [
            list_item(t, "Settings", on_tap=ctx.link(s), icon="search", rid="search_result") for t, s in hits
        ]
        body = body or [text(f"No results for “{query}”", "body", fg=theme().muted, pad=60, rid="no_results")]
    else:
        body = [
            list_item(t, s, on_tap=ctx.link(scr), icon=ic, rid="dashboard_tile")
            for t, s, scr, ic in TOP_LEVEL
        ]
    return column(
        text("Settings", "display", bold=False, pad=(60, 110, 60, 40), rid="homepage_title"),
        row(search_field("search", "Search Settings", None, rid="search_action_bar"), pad=(40, 0, 40, 30)),
        scroll_page("page", *body, rid="recycler_view"),
    )


def network(ctx: AppContext) -> Node:
    wifi_on = _get(ctx, "global", "wifi_on") == "1"
    return _page(
        ctx, "Network & internet",
        list_item("Internet", "AndroidWifi" if wifi_on else "Off", on_tap=ctx.link("wifi"), icon="wifi", rid="internet"),
        list_item("SIMs", "T-Mobile", icon="apps"),
        switch("Airplane mode", _get(ctx, "global", "airplane_mode_on") == "1", _toggle(ctx, "global", "airplane_mode_on"), rid="airplane_mode"),
        list_item("Hotspot & tethering", "Off", icon="share"),
        list_item("Data Saver", "Off", icon="filter"),
        list_item("VPN", "None", icon="check"),
        list_item("Private DNS", "Automatic", icon="settings"),
    )  # fmt: skip


def wifi(ctx: AppContext) -> Node:
    on = _get(ctx, "global", "wifi_on") == "1"
    status = ("Connected", "Saved")
    networks = [
        list_item(n, status[i] if i < len(status) else "", icon="wifi", rid="wifi_network")
        for i, n in enumerate(WIFI_NETWORKS if on else ())
    ]
    return _page(
        ctx, "Internet",
        switch("Wi-Fi", on, _toggle(ctx, "global", "wifi_on"), rid="wifi_switch"),
        *networks,
        list_item("Network preferences", "Wi-Fi turns back on automatically", icon="settings"),
    )  # fmt: skip


def connected(ctx: AppContext) -> Node:
    on = _get(ctx, "global", "bluetooth_on") == "1"
    return _page(
        ctx, "Connected devices",
        switch("Bluetooth", on, _bluetooth(ctx), rid="bluetooth_switch"),
        list_item("Pair new device", "Device name: Pixel 7" if on else "Bluetooth will turn on to pair", icon="plus", rid="add_bt_devices"),
        list_item("Connection preferences", "Bluetooth, Android Auto, NFC", icon="bluetooth"),
    )  # fmt: skip


def display(ctx: AppContext) -> Node:
    level = int(_get(ctx, "system", "screen_brightness", "102"))
    percent = round(level * 100 / 255)
    dark = _get(ctx, "secure", "ui_night_mode", "1") == "2"
    adaptive = _get(ctx, "system", "screen_brightness_mode") == "1"
    minutes = int(_get(ctx, "system", "screen_off_timeout", "60000")) // 60000
    seconds = int(_get(ctx, "system", "screen_off_timeout", "60000")) // 1000
    timeout = (
        f"After {minutes} minute{'s' if minutes != 1 else ''} of inactivity"
        if seconds >= 60
        else f"After {seconds} seconds"
    )
    return _page(
        ctx, "Display",
        _section("Brightness"),
        row(
            icon_button("brightness", "Decrease brightness", lambda: _brightness(ctx, -10), rid="brightness_down", size=44),
            Node(SEEKBAR, text=f"{percent}%", desc="Brightness level", rid="brightness_slider", weight=1, h=104, size=38, bg="#e8f0fe", radius=52, align="center", valign="center"),
            icon_button("brightness", "Increase brightness", lambda: _brightness(ctx, +10), rid="brightness_up", size=60),
            pad=(32, 0, 32, 0), gap=12, valign="center", desc="Brightness level",
        ),
        switch("Adaptive brightness", adaptive, _toggle(ctx, "system", "screen_brightness_mode"), rid="adaptive_brightness"),
        divider(),
        _section("Appearance"),
        switch("Dark theme", dark, lambda: _put(ctx, "secure", "ui_night_mode", "1" if dark else "2"), rid="dark_ui_mode"),
        list_item("Display size and text", _density_label(ctx), on_tap=ctx.link("display_size"), icon="apps", rid="display_size"),
        list_item("Screen timeout", timeout, icon="calendar"),
        list_item("Auto-rotate screen", "Off", icon="share"),
    )  # fmt: skip


def display_size(ctx: AppContext) -> Node:
    current = _density_label(ctx)
    options = [
        radio(name, name == current, partial(_put, ctx, "secure", "display_density_forced", value), rid="display_size_option")
        for name, value in DENSITIES.items()
    ]  # fmt: skip
    scale = _get(ctx, "system", "font_scale", "1.0")
    font_label = next((label for label, value in FONT_SCALES if value == scale), scale)
    return _page(
        ctx, "Display size and text",
        _section("Preview"),
        text("Make the items on your screen smaller or larger.", "body", pad=(48, 0, 48, 20)),
        *options,
        divider(),
        list_item("Font size", font_label, icon="apps", on_tap=ctx.opener("font"), rid="font_size"),
    )  # fmt: skip


def about(ctx: AppContext) -> Node:
    props = ctx.phone.props
    return _page(
        ctx,
        "About phone",
        list_item("Device name", "Pixel 7"),
        list_item("Phone number", "+1 650-555-6789"),
        list_item("Model", props["ro.product.model"]),
        list_item("Android version", props["ro.build.version.release"], rid="firmware_version"),
        list_item("Build number", props["ro.build.id"]),
    )


def apps(ctx: AppContext) -> Node:
    installed = sorted((a for a in ctx.phone.apps.values() if a.in_launcher), key=lambda a: a.label.lower())
    rows = [
        list_item(
            a.label, a.version_name, ctx.link("app_details", package=a.package), icon="apps", rid="app_entry"
        )
        for a in installed
    ]
    return _page(ctx, "Apps", _section("All apps"), *rows)


def app_details(ctx: AppContext) -> Node:
    """App info: open or force-stop the app, or clear its storage (`am force-stop`, `pm clear`)."""
    app = ctx.phone.apps[ctx.args["package"]]
    running = app.package in ctx.phone.running

    def open_app() -> None:
        ctx.phone.launch(app.package)

    def force_stop() -> None:
        ctx.phone.force_stop(app.package)
        ctx.toast(f"{app.label} stopped")

    return _page(
        ctx,
        "App info",
        column(
            app.icon(160),
            text(app.label, "title", rid="entity_header_title", align="center"),
            text(f"version {app.version_name}", "caption", fg=theme().muted, align="center"),
            align="center", gap=12, pad=(48, 40, 48, 24),
        ),
        row(
            button("Open", open_app, rid="button1", primary=False,
                   enabled=app.launcher_activity is not None),
            button("Force stop", force_stop, rid="button3", primary=False, enabled=running),
            gap=24, pad=(48, 0, 48, 24),
        ),
        list_item("Storage & cache", "Clear storage", ctx.opener("clear_storage"), icon="apps", rid="storage"),
    )  # fmt: skip


def clear_storage_dialog(ctx: AppContext) -> Node:
    app = ctx.phone.apps[ctx.args["package"]]

    def clear() -> None:
        ctx.close()
        ctx.phone.clear_data(app.package)

    body = [text(f"All of {app.label}'s data will be deleted permanently.", "body", pad=(60, 0, 60, 20))]
    actions = [button("Cancel", ctx.close, primary=False), button("Delete", clear, rid="button1")]
    return dialog("Delete app data?", body, actions, ctx.close)


def placeholder(title: str, ctx: AppContext) -> Node:
    """A top-level page the benchmark does not use: its title and nothing to change."""
    return _page(
        ctx, title, text("Nothing to change here on the virtual phone.", "body", fg=theme().muted, pad=60)
    )


def font_dialog(ctx: AppContext) -> Node:
    current = _get(ctx, "system", "font_scale", "1.0")

    def pick(value: str) -> None:
        _put(ctx, "system", "font_scale", value)
        ctx.close()

    return choice_dialog(
        "Font size", {value: label for label, value in FONT_SCALES}, current, pick, ctx.close
    )


SCREENS: dict[str, Callable[[AppContext], Node]] = {
    **{screen: partial(placeholder, title) for title, _, screen, _ in TOP_LEVEL},
    "main": main, "network": network, "wifi": wifi, "connected": connected, "display": display,
    "display_size": display_size, "about": about, "apps": apps, "app_details": app_details,
}  # fmt: skip
# a page opens in its own activity where it has one, else in SubSettings, as on a Pixel
OWN_ACTIVITY = {a.screen: a.cls for a in ACTIVITIES if a.screen in SCREENS}


class SettingsApp(App):
    package = identity("settings").package
    label = identity("settings").label
    icon_bg = "#5f6368"
    icon_glyph = "settings"
    version_name = "15"
    activities = ACTIVITIES
    theme = Theme(styles={**Theme().styles, "section": TextStyle(36, bold=True, role="primary")})
    screens = SCREENS
    dialogs = {"font": font_dialog, "clear_storage": clear_storage_dialog}

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen | None:
        if activity.screen != "app_details":
            return super().open(ctx, activity, intent)
        package = (intent.data or "").removeprefix("package:")
        if package not in ctx.phone.apps:
            return None  # Settings finishes at once on an unknown package
        return ctx.screen("app_details", activity=activity.cls, package=package)

    screen_activities = {**dict.fromkeys(SCREENS, SUB), **OWN_ACTIVITY}
