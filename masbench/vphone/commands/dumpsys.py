"""`dumpsys SERVICE`: just the lines clients parse (adbutils' regexes, uiautomator2, agents' greps), laid out
as Android 15 prints them, with stable hashes so two runs produce identical text."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from ..display import NAV_BAR_H, STATUS_BAR_H
from ..intents import short_component
from ..phone import IMES
from .base import (
    CommandError,
    Proc,
    all_packages,
    apk_path,
    hash7,
    is_system,
    pid_of,
    task_id,
    uid_of,
    user_name,
)
from .getevent import TOUCH
from .screen import DISPLAY_ID

if TYPE_CHECKING:
    from ..app import Screen
    from ..phone import VirtualPhone

CONFIG = (
    "{1.0 ?mcc?mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi nrml long port finger -keyb/v/h -nav/h "
    "winConfig={ mBounds=Rect(0, 0 - 1080, 2400) mAppBounds=Rect(0, 0 - 1080, 2400) mMaxBounds=Rect(0, 0 - 1080, 2400) "
    "mDisplayRotation=ROTATION_0 mWindowingMode=fullscreen mActivityType=undefined mAlwaysOnTop=undefined "
    "mRotation=ROTATION_0} s.6 fontWeightAdjustment=0}"
)


def window_title(package: str, activity: str) -> str:
    return f"{package}/{activity}"


def window_ref(package: str, activity: str) -> str:
    return f"Window{{{hash7('window', package, activity)} u0 {window_title(package, activity)}}}"


def record(phone: VirtualPhone, screen: Screen, index: int) -> str:
    """`ActivityRecord{hash u0 pkg/.Act tN}` for the screen at `index` of the back stack."""
    name = short_component(screen.package, screen.activity)
    return f"ActivityRecord{{{hash7('record', screen.package, screen.activity, str(index))} u0 {name} t{task_id(phone, screen.package)}}}"


def tasks(phone: VirtualPhone) -> list[tuple[str, list[tuple[int, Screen]]]]:
    """(package, [(stack index, screen)...]) per task, top task first; a task is an app's screens."""
    order: list[str] = []
    for screen in reversed(phone.stack):
        if screen.package not in order:
            order.append(screen.package)
    return [(pkg, [(i, s) for i, s in enumerate(phone.stack) if s.package == pkg]) for pkg in order]


def session(phone: VirtualPhone, package: str) -> str:
    return f"Session{{{hash7('session', package)} {pid_of(phone, package)}:{user_name(uid_of(phone, package)).replace('_', '')}}}"


def keyboard_shown(phone: VirtualPhone) -> bool:
    return bool(phone.top.ui.get("focus"))


ROTATIONS = ("ROTATION_0", "ROTATION_90", "ROTATION_180", "ROTATION_270")
WINDOW_SECTIONS_RULE = "-" * 79  # between the sections of a plain `dumpsys window`


def _window(p: Proc, args: list[str]) -> None:
    """`dumpsys window [displays|windows]`: without a section, both, as WindowManagerService dumps all."""
    section = args[0] if args else ""
    if section in ("", "displays", "d"):
        _window_displays(p)
    if section == "":
        p.lines(["", WINDOW_SECTIONS_RULE])
    if section in ("", "windows", "w"):
        _window_windows(p)


def _window_displays(p: Proc) -> None:
    """The display's content and its DisplayRotation (AndroidWorld greps `mCurrentRotation=ROTATION_N`).
    The phone renders portrait only, so the display stays at ROTATION_0; the user rotation settings
    (accelerometer_rotation, user_rotation) show as what they are."""
    phone = p.phone
    w, h, dpi = phone.width, phone.height, phone.density
    system = phone.settings["system"]
    free = system.get("accelerometer_rotation", "0") == "1"
    user_rotation = system.get("user_rotation", "0")
    user_rotation = ROTATIONS[int(user_rotation)] if user_rotation in ("0", "1", "2", "3") else ROTATIONS[0]
    app_h = h - NAV_BAR_H
    p.lines(
        [
            "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)",
            f"  Display: mDisplayId=0 rootTasks={len(tasks(phone))}",
            f"    init={w}x{h} {dpi}dpi mMinSizeOfResizeableTaskDp=220 cur={w}x{h} app={w}x{app_h} "
            f"rng={w}x{w - STATUS_BAR_H}-{h}x{h - STATUS_BAR_H}",
            f"    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,{w},{h}))",
            "",
            f"  DisplayFrames w={w} h={h} r=0",
            "",
            "  DisplayRotation",
            "    mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED",
            "    mLastOrientation=-1",
            "    mRotation=0 mDeferredRotationPauseCount=0",
            "    mLandscapeRotation=ROTATION_90 mSeascapeRotation=ROTATION_270",
            "    mPortraitRotation=ROTATION_0 mUpsideDownRotation=ROTATION_180",
            "    mSupportAutoRotation=true",
            "    WindowOrientationListener",
            f"      mEnabled={str(free).lower()}",
            "      mCurrentRotation=ROTATION_0",
            "      mSensorType=null",
            '      mSensor={Sensor name="Goldfish 3-axis Accelerometer", vendor="The Android Open Source Project", '
            "version=1, type=1, maxRange=39.3, resolution=2.480159E-4, power=3.0, minDelay=10000}",
            "      mRate=2",
            "",
            "    mCarDockRotation=-1 mDeskDockRotation=-1",
            f"    mUserRotationMode={'USER_ROTATION_FREE' if free else 'USER_ROTATION_LOCKED'} "
            f"mUserRotation={user_rotation} mCameraRotationMode=0 mAllowAllRotations=unknown",
            "    mDemoHdmiRotation=ROTATION_270 mDemoHdmiRotationLock=false mUndockedHdmiRotation=-1",
            "    mLidOpenRotation=-1",
            "    mFixedToUserRotation=false",
        ]
    )


def _window_windows(p: Proc) -> None:
    phone = p.phone
    package, activity = phone.current_focus()
    focus = window_ref(package, activity)
    ime_window = f"Window{{{hash7('window', 'InputMethod')} u0 InputMethod}}"
    out = ["WINDOW MANAGER WINDOWS (dumpsys window windows)"]
    system = [
        ("NavigationBar0", "NAVIGATION_BAR", True),
        ("StatusBar", "STATUS_BAR", True),
        ("InputMethod", "INPUT_METHOD", keyboard_shown(phone)),
    ]
    n = 0
    for title, kind, visible in system:
        out += [
            f"  Window #{n} Window{{{hash7('window', title)} u0 {title}}}:",
            f"    mDisplayId=0 rootTaskId=1 mSession={session(phone, 'com.android.systemui')}",
            f"    mAttrs={{(0,0)(fillxwrap) ty={kind} fmt=TRANSLUCENT}}",
            f"    isOnScreen={str(visible).lower()}",
            f"    isVisible={str(visible).lower()}",
        ]
        n += 1
    for k, (pkg, screens) in enumerate(tasks(phone)):
        act = screens[-1][1].activity
        out += [
            f"  Window #{n} {window_ref(pkg, act)}:",
            f"    mDisplayId=0 rootTaskId={task_id(phone, pkg)} mSession={session(phone, pkg)}",
            f"    mOwnerUid={uid_of(phone, pkg)} showForAllUsers=false package={pkg} appop=NONE",
            "    mAttrs={(0,0)(fillxfill) sim={adjust=resize forwardNavigation} ty=BASE_APPLICATION fmt=TRANSLUCENT}",
            f"    isOnScreen={str(k == 0).lower()}",
            f"    isVisible={str(k == 0).lower()}",
        ]
        n += 1
    out += [
        "",
        f"  mGlobalConfiguration={CONFIG}",
        "  mHasPermanentDpad=false",
        "  mTopFocusedDisplayId=0",
        f"  mInputMethodTarget in display# 0 {focus}",
        f"  mInputMethodWindow={ime_window}",
        f"  mCurrentFocus={focus}",
        f"  mFocusedApp={record(phone, phone.top, len(phone.stack) - 1)}",
    ]
    p.lines(out)


def _activity(p: Proc, args: list[str]) -> None:
    phone = p.phone
    sub = args[0] if args else "activities"
    top = phone.top
    resumed = record(phone, top, len(phone.stack) - 1)
    if sub == "top":
        pkg, screens = tasks(phone)[0]
        index, screen = screens[-1]
        p.lines(
            [
                f"TASK {uid_of(phone, pkg)}:{pkg} id={task_id(phone, pkg)} userId=0",
                f"  ACTIVITY {short_component(pkg, screen.activity)} {hash7('record', pkg, screen.activity, str(index))} pid={pid_of(phone, pkg)}",
                f"    Local Activity {hash7('local', pkg, screen.activity)} State:",
                "      mResumed=true mStopped=false mFinished=false",
                "      mIsChangingConfigurations=false",
                f"      mCurrentConfig={CONFIG}",
            ]
        )
        return
    if sub in ("processes", "p"):
        out = ["ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)"]
        for n, pkg in enumerate(sorted(phone.running | {phone.home_package})):
            user = user_name(uid_of(phone, pkg)).replace("_", "")
            out.append(
                f"  *APP* UID {uid_of(phone, pkg)} ProcessRecord{{{hash7('proc', pkg)} {pid_of(phone, pkg)}:{pkg}/{user}}}"
            )
            out.append(f"    lruSeq={n} pid={pid_of(phone, pkg)}")
        p.lines(out)
        return
    header = "recents" if sub in ("recents", "r") else "activities"
    out = [
        f"ACTIVITY MANAGER {header.upper()} (dumpsys activity {header})",
        "Display #0 (activities from top to bottom):",
    ]
    for k, (pkg, screens) in enumerate(tasks(phone)):
        kind = "home" if pkg == phone.home_package else "standard"
        visible = str(k == 0).lower()
        out.append(
            f"  * Task{{{hash7('task', pkg)} #{task_id(phone, pkg)} type={kind} A={uid_of(phone, pkg)}:{pkg} U=0 "
            f"visible={visible} visibleRequested={visible} mode=fullscreen translucent=false sz={len(screens)}}}"
        )
        for n, (index, screen) in reversed(list(enumerate(screens))):
            out.append(f"    * Hist  #{n}: {record(phone, screen, index)}")
            out.append(f"      packageName={pkg} processName={pkg}")
            out.append(f"      state={'RESUMED' if screen is top else 'STOPPED'}")
    out += [
        f"  ResumedActivity: {resumed}",
        "  Resumed activities in task display areas (from top to bottom):",
        f"    Resumed: {resumed}",
        "",
        f"  mFocusedRootTask=Task{{{hash7('task', top.package)} #{task_id(phone, top.package)}}}",
        f"  mResumedActivity: {resumed}",
        f"  topResumedActivity={resumed}",
        "  mCurrentUser=0",
    ]
    p.lines(out)


def _display(p: Proc, args: list[str]) -> None:
    w, h, dpi = p.phone.width, p.phone.height, p.phone.density
    unique = f"local:{DISPLAY_ID}"
    viewport = (
        f"DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='{unique}', "
        f"physicalPort=0, orientation=0, logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect(0, 0 - {w}, {h}), "
        f"deviceWidth={w}, deviceHeight={h}}}"
    )
    p.lines(
        [
            "DISPLAY MANAGER (dumpsys display)",
            "  mOnlyCore=false",
            "  mSafeMode=false",
            "  mPendingTraversal=false",
            f"  mViewports=[{viewport}]",
            f"  mDefaultViewport=[{viewport}]",
            "",
            "Display Devices: size=1",
            f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="{unique}", {w} x {h}, modeId 1, defaultModeId 1, '
            f"supportedModes [{{id=1, width={w}, height={h}, fps=60.0}}], density {dpi}, {dpi}.0 x {dpi}.0 dpi, "
            "appVsyncOff 1000000, presDeadline 16666666, touch INTERNAL, rotation 0, type INTERNAL, address {port=0}, "
            "state ON, FLAG_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS}",
            f'    mBaseDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, displayGroupId 0, FLAG_SECURE, '
            f"FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, real {w} x {h}, largest app {w} x {h}, "
            f"smallest app {w} x {h}, appVsyncOff 1000000, presDeadline 16666666, mode 1, defaultMode 1, "
            f"rotation 0, density {dpi} ({dpi}.0 x {dpi}.0) dpi, layerStack 0, type INTERNAL, state ON}}",
            "",
            "Logical Displays: size=1",
            "  Display 0:",
            "    mDisplayId=0",
            f'    mBaseDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, real {w} x {h}, rotation 0, density {dpi}}}',
            "    mOverrideDisplayInfo=null",
            "    orientation=0 mCurrentOrientation=0",
        ]
    )


def _power(p: Proc, args: list[str]) -> None:
    p.lines(
        [
            "POWER MANAGER (dumpsys power)",
            "",
            "Power Manager State:",
            "  mDirty=0x0",
            "  mWakefulness=Awake",
            "  mWakefulnessChanging=false",
            "  mIsPowered=true",
            "  mPlugType=1",
            "  mBatteryLevel=100",
            f"  mStayOn={str(p.phone.settings['global'].get('stay_on_while_plugged_in', '0') != '0').lower()}",
            "  mBootCompleted=true",
            "  mSystemReady=true",
            "  mWakeLockSummary=0x0",
            "  mUserActivitySummary=0x1",
            "  mHoldingWakeLockSuspendBlocker=false",
            "  mHoldingDisplaySuspendBlocker=true",
            "",
            "Display Power: state=ON",
        ]
    )


def _battery(p: Proc, args: list[str]) -> None:
    p.lines(
        [
            "Current Battery Service state:",
            "  AC powered: true",
            "  USB powered: false",
            "  Wireless powered: false",
            "  Dock powered: false",
            "  Max charging current: 0",
            "  Max charging voltage: 0",
            "  Charge counter: 10000",
            "  status: 2",
            "  health: 2",
            "  present: true",
            "  level: 100",
            "  scale: 100",
            "  voltage: 5000",
            "  temperature: 250",
            "  technology: Li-ion",
        ]
    )


def package_dump(phone: VirtualPhone, package: str) -> list[str]:
    """The part of `dumpsys package PKG` clients read: resolver table, versions, paths, flags, times."""
    app = phone.apps.get(package)
    version_name = app.version_name if app else "15"
    version_code = app.version_code if app else 35
    out = ["Activity Resolver Table:"]
    non_data: list[str] = []
    schemes: list[str] = []
    for activity in app.activities if app else ():
        for f in activity.filters:
            ref = f"{hash7('activity', package, activity.cls)} {short_component(package, activity.cls)} filter {hash7('filter', package, activity.cls, repr(f))}"
            body = [f'          Action: "{a}"' for a in f.actions] + [
                f'          Category: "{c}"' for c in f.categories
            ]
            body += [f'          Scheme: "{s}"' for s in f.schemes] + [
                f'          Authority: "{h}": -1' for h in f.hosts
            ]
            body += [f'          Path: "PatternMatcher{{GLOB: {pp}}}"' for pp in f.path_patterns]
            body += [f'          Type: "{t}"' for t in f.mime_types] + (
                ["          AutoVerify=true"] if f.auto_verify else []
            )
            if f.schemes:
                schemes += [f"      {s}:" for s in f.schemes[:1]] + [f"        {ref}"] + body
            else:
                non_data += [f"      {a}:" for a in f.actions[:1]] + [f"        {ref}"] + body
    if non_data:
        out += ["  Non-Data Actions:", *non_data]
    if schemes:
        out += ["  Schemes:", *schemes]
    installed = (phone.boot_clock - timedelta(days=30)).strftime("%Y-%m-%d %H:%M:%S")
    flags = (
        "[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ]"
        if is_system(phone, package)
        else "[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]"
    )
    code_path = apk_path(phone, package).rsplit("/", 1)[0]
    out += [
        "",
        "Packages:",
        f"  Package [{package}] ({hash7('package', package)}):",
        f"    appId={uid_of(phone, package)}",
        f"    pkg=Package{{{hash7('pkg', package)} {package}}}",
        f"    codePath={code_path}",
        f"    resourcePath={code_path}",
        "    primaryCpuAbi=x86_64",
        "    secondaryCpuAbi=null",
        f"    versionCode={version_code} minSdk=28 targetSdk=35",
        f"    versionName={version_name}",
        "    splits=[base]",
        "    apkSigningVersion=3",
        f"    flags={flags}",
        f"    timeStamp={installed}",
        f"    firstInstallTime={installed}",
        f"    lastUpdateTime={installed}",
        "    installerPackageName=com.android.vending",
        f"    signatures=PackageSignatures{{{hash7('sigs', package)} [{hash7('cert', package)}]}}",
        f"    pkgFlags={flags}",
        f"    User 0: ceDataInode={uid_of(phone, package) * 7} installed=true hidden=false suspended=false "
        f"distractionFlags=0 stopped={str(package not in phone.running).lower()} notLaunched=false enabled=0 "
        "instant=false virtual=false",
    ]
    return out


def _package(p: Proc, args: list[str]) -> None:
    names = [a for a in args if not a.startswith("-")]
    if not names:
        for package in all_packages(p.phone):
            p.lines(package_dump(p.phone, package))
        return
    if names[0] not in all_packages(p.phone):
        p.line(f"Unable to find package: {names[0]}")
        return
    p.lines(package_dump(p.phone, names[0]))


def _input_method(p: Proc, args: list[str]) -> None:
    phone = p.phone
    current = phone.settings["secure"].get("default_input_method", "")
    shown = str(keyboard_shown(phone)).lower()
    out = ["Current Input Method Manager state:", f"  Input Methods: mMethodMapUpdateCount={len(IMES)}"]
    for n, ime in enumerate(IMES):
        out += [
            f"  InputMethod #{n}:",
            f"    mId={ime} mSettingsActivityName=null mIsVrOnly=false mSupportsSwitchingToNextInputMethod=false",
        ]
    package, activity = phone.current_focus()
    out += [
        f"  mCurMethodId={current}",
        f"  mSelectedMethodId={current}",
        f"  mCurId={current} mHaveConnection=true mBoundToMethod=true mVisibleBound={shown}",
        f"  mCurFocusedWindow={window_ref(package, activity)}",
        f"  mInputShown={shown}",
        f"  mShowRequested={shown}",
        f"  mImeWindowVis={'0x3' if shown == 'true' else '0x0'}",
    ]
    p.lines(out)


def _surfaceflinger(p: Proc, args: list[str]) -> None:
    line = f'Display {DISPLAY_ID} (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"'
    if "--display-id" in args:
        p.line(line)
        return
    p.lines(
        [
            "Build configuration: [sf PRESENT_TIME_OFFSET=0 FORCE_HWC_FOR_RBG_TO_YUV=1 MAX_VIRT_DISPLAY_DIM=0 RUNNING_WITHOUT_SYNC_FRAMEWORK=0 NUM_FRAMEBUFFER_SURFACE_BUFFERS=3]",
            line,
        ]
    )


def _wifi(p: Proc, args: list[str]) -> None:
    on = p.phone.settings["global"].get("wifi_on", "0") != "0"
    p.lines([f"Wi-Fi is {'enabled' if on else 'disabled'}", f"Current wifi state: {'3' if on else '1'}"])


def _input(p: Proc, args: list[str]) -> None:
    """The parts device-control code reads (AndroidWorld: the physical frame and SurfaceOrientation)."""
    w, h = p.phone.width, p.phone.height
    p.lines(
        [
            "INPUT MANAGER (dumpsys input)",
            "",
            "Input Manager Service (Java) State:",
            "  Interactive: true",
            "",
            "Event Hub State:",
            "  Devices:",
            f"    2: {TOUCH.name}",
            "      Classes: TOUCH | TOUCH_MT",
            "",
            "Input Reader State (Nums of device: 1):",
            f"  Device 2: {TOUCH.name}",
            "    Touch Input Mapper (mode - DIRECT):",
            "      Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation=0, "
            f"logicalFrame=[0, 0, {w}, {h}], physicalFrame=[0, 0, {w}, {h}], deviceSize=[{w}, {h}], isActive=[true]",
            "      SurfaceOrientation: 0",
            f"      SurfaceWidth: {w}px",
            f"      SurfaceHeight: {h}px",
        ]
    )


def _meminfo(p: Proc, args: list[str]) -> None:
    running = sorted(p.phone.running)
    p.lines(
        [
            "Applications Memory Usage (in Kilobytes):",
            "Uptime: 3600000 Realtime: 3600000",
            "",
            "Total PSS by process:",
            *(
                f"    {61_440 + 4_096 * i:,}K: {package} (pid {1200 + i})"
                for i, package in enumerate(running)
            ),
            "",
            "Total RAM: 2,010,204K (status normal)",
            " Free RAM:   912,336K (  312,088K cached pss +   498,416K cached kernel +   101,832K free)",
            " Used RAM: 1,001,244K (  724,980K used pss +   276,264K kernel)",
        ]
    )


def _telephony(p: Proc, args: list[str]) -> None:
    p.lines(
        [
            "last known state:",
            "  Phone Id=0",
            "  mCallState=0",
            "  mServiceState={mVoiceRegState=0(IN_SERVICE), mDataRegState=0(IN_SERVICE), "
            "mOperatorAlphaLong=T-Mobile, mOperatorNumeric=310260}",
            "  mDataConnectionState=2",
            "  mDataConnectionNetworkType=13",
            "  mSignalStrength=SignalStrength:{mLte=CellSignalStrengthLte: rssi=-51 rsrp=-84 rsrq=-5 level=4}",
        ]
    )


SERVICES: dict[str, Callable[[Proc, list[str]], None]] = {
    "window": _window,
    "activity": _activity,
    "display": _display,
    "power": _power,
    "battery": _battery,
    "package": _package,
    "input_method": _input_method,
    "SurfaceFlinger": _surfaceflinger,
    "wifi": _wifi,
    "input": _input,
    "meminfo": _meminfo,
    "telephony.registry": _telephony,
}


def dumpsys(p: Proc, args: list[str]) -> int:
    if not args or args[0] == "-l":
        p.lines(["Currently running services:", *(f"  {name}" for name in sorted(SERVICES))])
        return 0
    service = SERVICES.get(args[0])
    if service is None:
        raise CommandError(f"Can't find service: {args[0]}", 0)
    service(p, args[1:])
    return 0


COMMANDS = {"dumpsys": dumpsys}
