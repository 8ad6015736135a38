"""Android Settings stand-in (`com.android.settings`). Its switches and sliders read and write the same
system settings table that `settings get/put` sees, so GUI and shell agree."""

from __future__ import annotations

from collections.abc import Callable

from ..app import LAUNCHER_FILTER, Activity, App, AppContext, Screen
from ..identity import identity
from ..intents import CATEGORY_DEFAULT, Intent, IntentFilter
from ..ui import SEEKBAR, Node
from ..widgets import (
    app_bar,
    button,
    column,
    dialog,
    divider,
    icon_button,
    list_item,
    overlay,
    radio,
    row,
    scroll_page,
    search_field,
    switch,
    text,
)

PACKAGE = "com.android.settings"
S = "com.android.settings.Settings"
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


class SettingsApp(App):
    package = identity("settings").package
    label = identity("settings").label
    icon_bg = "#5f6368"
    icon_glyph = "settings"
    version_name = "15"
    activities = (
        Activity(S, "main", (LAUNCHER_FILTER, *_filter("android.settings.SETTINGS"))),
        Activity(f"{S}$NetworkDashboardActivity", "network", _filter("android.settings.WIRELESS_SETTINGS", "android.settings.AIRPLANE_MODE_SETTINGS")),
        Activity(f"{S}$WifiSettingsActivity", "wifi", _filter("android.settings.WIFI_SETTINGS")),
        Activity(f"{S}$ConnectedDeviceDashboardActivity", "connected", _filter("android.settings.BLUETOOTH_SETTINGS")),
        Activity(f"{S}$DisplaySettingsActivity", "display", _filter("android.settings.DISPLAY_SETTINGS")),
        Activity(f"{S}$MyDeviceInfoActivity", "about", _filter("android.settings.DEVICE_INFO_SETTINGS")),
        Activity(f"{S}$ManageApplicationsActivity", "apps", _filter("android.settings.APPLICATION_SETTINGS", "android.settings.MANAGE_APPLICATIONS_SETTINGS")),
        Activity("com.android.settings.SubSettings", "sub", (), exported=False),
    )  # fmt: skip

    def open(self, ctx: AppContext, activity: Activity, intent: Intent) -> Screen:
        return ctx.screen(activity.screen, activity=activity.cls)

    # -- settings access ---------------------------------------------------------------------------
    @staticmethod
    def _get(ctx: AppContext, ns: str, key: str, default: str = "0") -> str:
        return ctx.phone.settings[ns].get(key, default)

    @staticmethod
    def _put(ctx: AppContext, ns: str, key: str, value: str) -> None:
        ctx.phone.settings[ns][key] = value
        ctx.log("setting", namespace=ns, key=key, value=value)

    def _toggle(self, ctx: AppContext, ns: str, key: str) -> Callable[[], None]:
        def flip() -> None:
            self._put(ctx, ns, key, "0" if self._get(ctx, ns, key) == "1" else "1")
            if key == "airplane_mode_on" and self._get(ctx, ns, key) == "1":
                self._put(ctx, "global", "wifi_on", "0")
                self._put(ctx, "global", "bluetooth_on", "0")

        return flip

    def _sub(self, ctx: AppContext, screen: str) -> Callable[[], None]:
        activity = next(
            (a.cls for a in self.activities if a.screen == screen), "com.android.settings.SubSettings"
        )
        return lambda: ctx.go(screen, activity=activity)

    # -- screens -----------------------------------------------------------------------------------
    def build(self, ctx: AppContext) -> Node:
        screen = ctx.top.name
        builder = getattr(self, f"_screen_{screen}", None)
        body = builder(ctx) if builder else self._placeholder(ctx, screen)
        return overlay(body, self._dialog(ctx))

    def _page(self, ctx: AppContext, title: str, *items: Node | None) -> Node:
        return column(
            app_bar(title, ctx.back),
            scroll_page("page", *items, rid="recycler_view"),
            bg="#ffffff", rid="settings_root",
        )  # fmt: skip

    def _screen_main(self, ctx: AppContext) -> Node:
        query = str(ctx.ui.get("search", "")).strip()
        if query:
            hits = [(t, s) for t, s in SEARCHABLE.items() if query.lower() in t.lower()]
            items = [
                list_item(t, "Settings", on_tap=self._sub(ctx, s), icon="search", rid="search_result")
                for t, s in hits
            ]
            body: list[Node] = items or [
                text(f"No results for “{query}”", size=40, fg="#5f6368", pad=60, rid="no_results")
            ]
        else:
            body = [
                list_item(t, s, on_tap=self._sub(ctx, scr), icon=ic, rid="dashboard_tile")
                for t, s, scr, ic in TOP_LEVEL
            ]
        return column(
            text("Settings", size=84, pad=(60, 110, 60, 40), rid="homepage_title"),
            row(
                search_field("search", "Search Settings", None, rid="search_action_bar"), pad=(40, 0, 40, 30)
            ),
            scroll_page("page", *body, rid="recycler_view"),
            bg="#ffffff",
        )

    def _screen_network(self, ctx: AppContext) -> Node:
        wifi_on = self._get(ctx, "global", "wifi_on") == "1"
        return self._page(
            ctx, "Network & internet",
            list_item("Internet", "AndroidWifi" if wifi_on else "Off", on_tap=self._sub(ctx, "wifi"), icon="wifi", rid="internet"),
            list_item("SIMs", "T-Mobile", icon="apps"),
            switch("Airplane mode", self._get(ctx, "global", "airplane_mode_on") == "1", self._toggle(ctx, "global", "airplane_mode_on"), rid="airplane_mode"),
            list_item("Hotspot & tethering", "Off", icon="share"),
            list_item("Data Saver", "Off", icon="filter"),
            list_item("VPN", "None", icon="check"),
            list_item("Private DNS", "Automatic", icon="settings"),
        )  # fmt: skip

    def _screen_wifi(self, ctx: AppContext) -> Node:
        on = self._get(ctx, "global", "wifi_on") == "1"
        networks = (
            [
                list_item(
                    n, "Connected" if i == 0 else "Saved" if i == 1 else "", icon="wifi", rid="wifi_network"
                )
                for i, n in enumerate(WIFI_NETWORKS)
            ]
            if on
            else []
        )
        return self._page(
            ctx, "Internet",
            switch("Wi-Fi", on, self._toggle(ctx, "global", "wifi_on"), rid="wifi_switch"),
            *networks,
            list_item("Network preferences", "Wi-Fi turns back on automatically", icon="settings"),
        )  # fmt: skip

    def _screen_connected(self, ctx: AppContext) -> Node:
        on = self._get(ctx, "global", "bluetooth_on") == "1"
        return self._page(
            ctx, "Connected devices",
            switch("Bluetooth", on, self._bluetooth(ctx), rid="bluetooth_switch"),
            list_item("Pair new device", "Device name: Pixel 7" if on else "Bluetooth will turn on to pair", icon="plus", rid="add_bt_devices"),
            list_item("Connection preferences", "Bluetooth, Android Auto, NFC", icon="bluetooth"),
        )  # fmt: skip

    def _bluetooth(self, ctx: AppContext) -> Callable[[], None]:
        def flip() -> None:
            value = "0" if self._get(ctx, "global", "bluetooth_on") == "1" else "1"
            self._put(ctx, "global", "bluetooth_on", value)
            self._put(ctx, "secure", "bluetooth_on", value)

        return flip

    def _screen_display(self, ctx: AppContext) -> Node:
        level = int(self._get(ctx, "system", "screen_brightness", "102"))
        percent = round(level * 100 / 255)
        dark = self._get(ctx, "secure", "ui_night_mode", "1") == "2"
        adaptive = self._get(ctx, "system", "screen_brightness_mode") == "1"
        timeout_s = int(self._get(ctx, "system", "screen_off_timeout", "60000")) // 1000
        return self._page(
            ctx, "Display",
            text("Brightness", size=36, fg="#1a73e8", bold=True, pad=(48, 40, 48, 10)),
            row(
                icon_button("brightness", "Decrease brightness", lambda: self._brightness(ctx, -10), rid="brightness_down", size=44),
                Node(SEEKBAR, text=f"{percent}%", desc="Brightness level", rid="brightness_slider", weight=1, h=104, size=38, bg="#e8f0fe", radius=52, align="center", valign="center"),
                icon_button("brightness", "Increase brightness", lambda: self._brightness(ctx, +10), rid="brightness_up", size=60),
                pad=(32, 0, 32, 0), gap=12, valign="center", desc="Brightness level",
            ),
            switch("Adaptive brightness", adaptive, self._toggle(ctx, "system", "screen_brightness_mode"), rid="adaptive_brightness"),
            divider(),
            text("Appearance", size=36, fg="#1a73e8", bold=True, pad=(48, 40, 48, 10)),
            switch("Dark theme", dark, lambda: self._put(ctx, "secure", "ui_night_mode", "1" if dark else "2"), rid="dark_ui_mode"),
            list_item("Display size and text", self._density_label(ctx), on_tap=self._sub(ctx, "display_size"), icon="apps", rid="display_size"),
            list_item("Screen timeout", f"After {timeout_s // 60} minute{'s' if timeout_s // 60 != 1 else ''} of inactivity" if timeout_s >= 60 else f"After {timeout_s} seconds", icon="calendar"),
            list_item("Auto-rotate screen", "Off", icon="share"),
        )  # fmt: skip

    def _brightness(self, ctx: AppContext, delta_percent: int) -> None:
        level = int(self._get(ctx, "system", "screen_brightness", "102"))
        percent = max(0, min(100, round(level * 100 / 255) + delta_percent))
        self._put(ctx, "system", "screen_brightness", str(round(percent * 255 / 100)))

    def _density_label(self, ctx: AppContext) -> str:
        forced = self._get(ctx, "secure", "display_density_forced", "")
        return next((name for name, value in DENSITIES.items() if value == forced), "Default")

    def _screen_display_size(self, ctx: AppContext) -> Node:
        current = self._density_label(ctx)
        options = [
            radio(
                name,
                name == current,
                lambda name=name: self._put(ctx, "secure", "display_density_forced", DENSITIES[name]),
                rid="display_size_option",
            )
            for name in DENSITIES
        ]
        font_scale = self._get(ctx, "system", "font_scale", "1.0")
        return self._page(
            ctx, "Display size and text",
            text("Preview", size=36, fg="#1a73e8", bold=True, pad=(48, 30, 48, 10)),
            text("Make the items on your screen smaller or larger.", size=40, pad=(48, 0, 48, 20)),
            *options,
            divider(),
            list_item("Font size", {"0.85": "Small", "1.0": "Default", "1.15": "Large", "1.3": "Largest"}.get(font_scale, font_scale), icon="apps", on_tap=lambda: ctx.ui.update(dialog="font"), rid="font_size"),
        )  # fmt: skip

    def _screen_about(self, ctx: AppContext) -> Node:
        props = ctx.phone.props
        return self._page(
            ctx,
            "About phone",
            list_item("Device name", "Pixel 7"),
            list_item("Phone number", "+1 650-555-6789"),
            list_item("Model", props["ro.product.model"]),
            list_item("Android version", props["ro.build.version.release"], rid="firmware_version"),
            list_item("Build number", props["ro.build.id"]),
        )

    def _screen_apps(self, ctx: AppContext) -> Node:
        apps = sorted((a for a in ctx.phone.apps.values() if a.in_launcher), key=lambda a: a.label.lower())
        return self._page(ctx, "Apps", text("All apps", size=36, fg="#1a73e8", bold=True, pad=(48, 30, 48, 10)),
                          *[list_item(a.label, a.version_name, icon="apps", rid="app_entry") for a in apps])  # fmt: skip

    def _placeholder(self, ctx: AppContext, screen: str) -> Node:
        title = next((t for t, _, s, _ in TOP_LEVEL if s == screen), screen.replace("_", " ").title())
        return self._page(
            ctx, title, text("Nothing to change here on the virtual phone.", size=40, fg="#5f6368", pad=60)
        )

    def _dialog(self, ctx: AppContext) -> Node | None:
        if ctx.ui.get("dialog") != "font":
            return None
        current = self._get(ctx, "system", "font_scale", "1.0")

        def pick(value: str) -> Callable[[], None]:
            return lambda: (self._put(ctx, "system", "font_scale", value), ctx.ui.pop("dialog", None))

        options = [
            radio(label, value == current, pick(value))
            for label, value in (("Small", "0.85"), ("Default", "1.0"), ("Large", "1.15"), ("Largest", "1.3"))
        ]
        return dialog(
            "Font size",
            options,
            [button("Cancel", lambda: ctx.ui.pop("dialog", None), primary=False)],
            lambda: ctx.ui.pop("dialog", None),
        )
