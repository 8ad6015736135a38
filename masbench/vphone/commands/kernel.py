"""What the emulator's kernel reports: `ip` and `ifconfig` (addresses and routes of the emulator's network,
wlan0 at 10.0.2.16 behind the 10.0.2.2 gateway, down while Wi-Fi is off) and the /proc files read with `cat`
(`/proc/stat`, `/proc/uptime`), computed from the phone's modelled clock so they move as time passes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .base import CommandError, Proc
from .power import kernel_start_ms

if TYPE_CHECKING:
    from ..phone import VirtualPhone

CPUS = 4  # a Pixel 7 AVD's default hw.cpu.ncore
USER_HZ = 100
BOOT_UPTIME_S = 95  # the emulator had been up this long when the phone's clock starts
# Share of each CPU's time per /proc/stat column: user nice system idle iowait irq softirq steal guest guest_nice
CPU_SHARES = (0.061, 0.009, 0.042, 0.871, 0.012, 0.0, 0.005, 0.0, 0.0, 0.0)
WLAN = {"index": 3, "mac": "02:15:b2:00:00:00", "inet": "10.0.2.16", "prefix": 24, "gateway": "10.0.2.2"}
ROUTE_TABLE = 1021  # the per-network table netd routes wlan0's traffic through


def _uptime_s(phone: VirtualPhone) -> float:
    """Seconds since the kernel started: the emulator's boot, or the phone's last reboot."""
    return uptime_at(phone, phone.device_ms)


def uptime_at(phone: VirtualPhone, device_ms: int) -> float:
    """The kernel's uptime (CLOCK_MONOTONIC, in seconds) at the phone time `device_ms`."""
    start = kernel_start_ms(phone)
    return (BOOT_UPTIME_S + device_ms / 1000) if start is None else (device_ms - start) / 1000


def proc_stat(phone: VirtualPhone) -> str:
    jiffies = int(_uptime_s(phone) * USER_HZ)
    per_cpu = [
        [int(jiffies * share * (1 + 0.04 * (cpu - 1.5) * (n != 3))) for n, share in enumerate(CPU_SHARES)]
        for cpu in range(CPUS)
    ]
    total = [sum(column) for column in zip(*per_cpu, strict=True)]
    switches = jiffies * 57
    lines = [
        "cpu  " + " ".join(map(str, total)),
        *(f"cpu{n} " + " ".join(map(str, row)) for n, row in enumerate(per_cpu)),
        f"intr {jiffies * 31} 0 {jiffies // 9} 0 0 0 0 0 0 0 {jiffies // 40} 0 0 0",
        f"ctxt {switches}",
        f"btime {int(phone.now().timestamp() - _uptime_s(phone))}",
        f"processes {4200 + phone.device_ms // 1000}",
        "procs_running 2",
        "procs_blocked 0",
        f"softirq {jiffies * 12} 0 {jiffies * 4} 1 {jiffies // 30} 0 0 {jiffies // 7} {jiffies * 3} 0 {jiffies * 2}",
    ]
    return "\n".join(lines) + "\n"


def proc_uptime(phone: VirtualPhone) -> str:
    up = _uptime_s(phone)
    return f"{up:.2f} {up * CPUS * CPU_SHARES[3]:.2f}\n"


PROC_FILES: dict[str, Callable[[VirtualPhone], str]] = {"/proc/stat": proc_stat, "/proc/uptime": proc_uptime}


def proc_file(phone: VirtualPhone, path: str) -> bytes | None:
    """The content of a generated /proc file, or None when `path` is not one."""
    make = PROC_FILES.get(path)
    return None if make is None else make(phone).encode()


# -- ip -----------------------------------------------------------------------------------------------
def _wifi_up(phone: VirtualPhone) -> bool:
    return phone.settings["global"].get("wifi_on", "0") != "0"


def _addr_blocks(phone: VirtualPhone, family: str) -> dict[str, list[str]]:
    """`ip addr` lines per interface; family is "", "4" or "6"."""
    v4, v6 = family != "6", family != "4"
    lo = ["1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000"]
    lo.append("    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00")
    if v4:
        lo += ["    inet 127.0.0.1/8 scope host lo", "       valid_lft forever preferred_lft forever"]
    if v6:
        lo += ["    inet6 ::1/128 scope host ", "       valid_lft forever preferred_lft forever"]
    up = _wifi_up(phone)
    flags, state = ("BROADCAST,MULTICAST,UP,LOWER_UP", "UP") if up else ("BROADCAST,MULTICAST", "DOWN")
    wlan = [
        f"{WLAN['index']}: wlan0: <{flags}> mtu 1500 qdisc mq state {state} group default qlen 1000",
        f"    link/ether {WLAN['mac']} brd ff:ff:ff:ff:ff:ff",
    ]
    if up and v4:
        wlan += [
            f"    inet {WLAN['inet']}/{WLAN['prefix']} brd 10.0.2.255 scope global wlan0",
            "       valid_lft forever preferred_lft forever",
        ]
    if up and v6:
        wlan += [
            "    inet6 fec0::15:b2ff:fe00:0/64 scope site dynamic noprefixroute ",
            "       valid_lft 86341sec preferred_lft 14341sec",
            "    inet6 fe80::15:b2ff:fe00:0/64 scope link ",
            "       valid_lft forever preferred_lft forever",
        ]
    return {"lo": lo, "wlan0": wlan}


def _routes(phone: VirtualPhone, args: list[str]) -> list[str]:
    if not _wifi_up(phone):
        if args[:1] == ["get"]:
            raise CommandError("RTNETLINK answers: Network is unreachable", 2)
        return []
    src = WLAN["inet"]
    if args[:1] == ["get"]:
        if len(args) < 2:
            raise CommandError('Command line is not complete. Try "ip route help".', 255)
        return [
            f"{args[1]} via {WLAN['gateway']} dev wlan0 table {ROUTE_TABLE} src {src} uid 2000 ",
            "    cache ",
        ]
    return [f"10.0.2.0/{WLAN['prefix']} dev wlan0 proto kernel scope link src {src} "]


def ip(p: Proc, args: list[str]) -> int:
    """`ip [-4|-6] addr|route|link [show] [dev] IFACE` as iproute2 prints them on the emulator."""
    family = ""
    while args and args[0].startswith("-"):
        if args[0] in ("-4", "-6"):
            family = args[0][1]
        elif args[0] not in ("-d", "-s", "-details", "-stats"):
            raise CommandError(f'Option "{args[0]}" is unknown, try "ip -help".', 255)
        args = args[1:]
    if not args:
        raise CommandError("Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }", 255)
    obj, rest = args[0], args[1:]
    if rest[:1] and rest[0] in ("show", "list", "lst", "ls"):
        rest = rest[1:]
    if "route".startswith(obj) and obj != "":
        p.lines(_routes(p.phone, rest))
        return 0
    if obj in ("a", "ad", "addr", "address", "l", "li", "link"):
        blocks = _addr_blocks(p.phone, family)
        if obj.startswith("l"):
            blocks = {name: lines[:2] for name, lines in blocks.items()}
        if rest[:1] == ["dev"]:
            rest = rest[1:]
        if rest:
            if rest[0] not in blocks:
                raise CommandError(f'Device "{rest[0]}" does not exist.')
            blocks = {rest[0]: blocks[rest[0]]}
        p.lines([line for lines in blocks.values() for line in lines])
        return 0
    raise CommandError(f'Object "{obj}" is unknown, try "ip help".', 255)


def _ifconfig_block(phone: VirtualPhone, name: str) -> list[str]:
    """toybox ifconfig's paragraph for one interface; traffic counters grow with the modelled clock."""
    traffic = int(_uptime_s(phone) * 40)
    if name == "lo":
        head = ["lo        Link encap:Local Loopback ", "          inet addr:127.0.0.1  Mask:255.0.0.0 ",
                "          inet6 addr: ::1/128 Scope: Host", "          UP LOOPBACK RUNNING  MTU:65536  Metric:1"]  # fmt: skip
        rx = tx = (traffic // 10, traffic * 9)
    else:
        up = _wifi_up(phone)
        head = [f"wlan0     Link encap:Ethernet  HWaddr {WLAN['mac']}  Driver mac80211_hwsim"]
        if up:
            head += [
                f"          inet addr:{WLAN['inet']}  Bcast:10.0.2.255  Mask:255.255.255.0 ",
                "          inet6 addr: fec0::15:b2ff:fe00:0/64 Scope: Site",
                "          inet6 addr: fe80::15:b2ff:fe00:0/64 Scope: Link",
            ]
        head.append(
            f"          {'UP BROADCAST RUNNING MULTICAST' if up else 'BROADCAST MULTICAST'}  MTU:1500  Metric:1"
        )
        rx, tx = (traffic, traffic * 610), (traffic * 3 // 4, traffic * 95)
    return [
        *head,
        f"          RX packets:{rx[0]} errors:0 dropped:0 overruns:0 frame:0 ",
        f"          TX packets:{tx[0]} errors:0 dropped:0 overruns:0 carrier:0 ",
        "          collisions:0 txqueuelen:1000 ",
        f"          RX bytes:{rx[1]} TX bytes:{tx[1]} ",
        "",
    ]


def ifconfig(p: Proc, args: list[str]) -> int:
    """`ifconfig [-a] [IFACE]`: the interfaces that are up (all with -a), or one; changing them needs
    root, which the shell user does not have."""
    names = [a for a in args if a != "-a"]
    if len(names) > 1:
        raise CommandError(f"ifconfig: {names[0]}: Operation not permitted")
    if names and names[0] not in ("lo", "wlan0"):
        raise CommandError(f"ifconfig: {names[0]}: No such device")
    shown = names or (["lo", "wlan0"] if "-a" in args or _wifi_up(p.phone) else ["lo"])
    p.lines([line for name in shown for line in _ifconfig_block(p.phone, name)])
    return 0


COMMANDS = {"ip": ip, "ifconfig": ifconfig}
