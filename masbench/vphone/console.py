"""The emulator console of a virtual phone: the telnet protocol an Android emulator serves on its console
port (5554, 5556, ...), so `adb emu ...`-style clients and the benchmark's snapshot reset talk to a virtual
phone exactly as to an emulator.

The session: a banner asking for the auth token (the one in `~/.emulator_console_auth_token`), `auth TOKEN`,
then commands, each answered by its output and `OK`, or by `KO: reason`. Served: `avd snapshot
save|load|list|delete NAME` (the phone's own saved states), `geo fix LONGITUDE LATITUDE`, `sms send NUMBER
TEXT`, `gsm call NUMBER` (recorded in the phone's event log), `kill`, `help`, `quit`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shlex
import socketserver
import threading
from collections.abc import Callable
from io import BufferedIOBase
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .phone import VirtualPhone

TOKEN_FILE = Path.home() / ".emulator_console_auth_token"
HELP = """Android console commands:

    help|h|?         print a list of commands
    kill             kill the emulator instance
    quit|exit        quit control session
    geo              Geo-location commands
    gsm              GSM related commands
    sms              SMS related commands
    avd              control virtual device execution
    auth             user authentication for the emulator console
"""


class ConsoleError(Exception):
    """A command the console refuses: answered `KO: <message>`."""


class ConsoleServer:
    """One phone's console on a loopback TCP port (`port`), served from a thread until `stop()`.
    `token` is what `auth` must give (None: no authentication, as with an empty token file)."""

    def __init__(
        self,
        phone: VirtualPhone,
        port: int = 0,
        token: str | None = None,
        on_kill: Callable[[], None] | None = None,
    ) -> None:
        self.phone, self.token, self.on_kill = phone, token, on_kill
        console = self

        class Session(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                console._session(self.rfile, self.wfile)

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", port), Session)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, name=f"console-{self.port}", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- one session ---------------------------------------------------------------------------------
    def _session(self, rfile: BufferedIOBase, wfile: BufferedIOBase) -> None:
        def say(text: str) -> None:
            wfile.write(text.replace("\n", "\r\n").encode())
            wfile.flush()

        authed = self.token is None
        if authed:
            say("Android Console: type 'help' for a list of commands\nOK\n")
        else:
            say(
                "Android Console: Authentication required\n"
                "Android Console: type 'auth <auth_token>' to authenticate\n"
                f"Android Console: you can find your <auth_token> in \n'{TOKEN_FILE}'\nOK\n"
            )
        for raw in rfile:
            words = raw.decode(errors="replace").strip().split()
            if not words:
                continue
            if words[0] in ("quit", "exit"):
                return
            if words[0] == "auth":
                if self.token is not None and words[1:] == [self.token]:
                    authed = True
                    say("Android Console: type 'help' for a list of commands\nOK\n")
                else:
                    say(f"KO: authentication token does not match {TOKEN_FILE}\n")
                continue
            if not authed and words[0] not in ("help", "h", "?"):
                say("KO: unknown command, try 'help'\n")
                continue
            if words[0] == "kill":
                say("OK: killing emulator, bye bye\n")
                if self.on_kill is not None:
                    self.on_kill()
                return
            try:
                output = self.run(words)
            except ConsoleError as exc:
                say(f"KO: {exc}\n")
            else:
                say(output + "OK\n")

    def run(self, words: list[str]) -> str:
        """One authenticated command's output (without the final OK); ConsoleError to refuse it."""
        command, args = words[0], words[1:]
        if command in ("help", "h", "?"):
            return HELP
        if command == "avd" and args[:1] == ["snapshot"]:
            return self._snapshot(args[1:])
        if command == "geo" and args[:1] == ["fix"] and len(args) >= 3:
            longitude, latitude = _number(args[1]), _number(args[2])
            self.phone.log("geo_fix", longitude=longitude, latitude=latitude)
            return ""
        if command == "sms" and args[:1] == ["send"] and len(args) >= 3:
            self.phone.log("sms_received", sender=args[1], text=" ".join(args[2:]))
            return ""
        if command == "gsm" and args[:1] == ["call"] and len(args) == 2:
            self.phone.log("call_received", number=args[1])
            return ""
        raise ConsoleError("unknown command, try 'help'")

    def _snapshot(self, args: list[str]) -> str:
        action = args[0] if args else ""
        if action == "list":
            names = saved_states(self.phone)
            rows = "".join(
                f"{i:<4}{name:<24}0 B  2025-06-02 09:30:00   00:00:00.000\n"
                for i, name in enumerate(names, 1)
            )
            return (
                "List of snapshots present on all disks:\nID  TAG                     VM SIZE                DATE       VM CLOCK\n"
                + rows
            )
        if action in ("save", "load", "delete") and len(args) == 2:
            verb = {"save": "save", "load": "restore", "delete": "forget"}[action]
            if action != "save" and args[1] not in saved_states(self.phone):
                raise ConsoleError(f"snapshot '{args[1]}' does not exist")
            result = self.phone.shell(f"cmd masbench {verb} {shlex.quote(args[1])}")
            if result.exit_code != 0:
                reason = (result.stderr or result.stdout).decode(errors="replace").strip()
                raise ConsoleError(reason or f"could not {action} snapshot '{args[1]}'")
            return ""
        raise ConsoleError("usage: avd snapshot list|save|load|delete <name>")


def saved_states(phone: VirtualPhone) -> list[str]:
    from .commands.masbench import saved_names

    return saved_names(phone)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ConsoleError(f"not a number: {text!r}") from None


def console_token() -> str | None:
    """The token consoles ask for, as the emulator decides it: the token file's content; an empty file turns
    authentication off; a missing one is created with a random token (readable by its owner only) first."""
    if not TOKEN_FILE.exists():
        with os.fdopen(os.open(TOKEN_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as fh:
            fh.write(secrets.token_urlsafe(12))
    return TOKEN_FILE.read_text().strip() or None


def emulator_phones(
    count: int, seed: int = 0, first_port: int = 5554
) -> list[tuple[VirtualPhone, ConsoleServer]]:
    """`count` phones that present themselves as emulators: each named `emulator-PORT` with its console on
    PORT, the first free even ports from `first_port` (5554, 5556, ... as emulators take them), and the
    console asking for the token in ~/.emulator_console_auth_token (`console_token`)."""
    from .build import build_phone

    token = console_token()
    phones: list[tuple[VirtualPhone, ConsoleServer]] = []
    port = first_port
    while len(phones) < count:
        phone = build_phone(f"emulator-{port}", seed=seed)
        with contextlib.suppress(OSError):  # taken (a real emulator, another server): try the next pair
            phones.append((phone, ConsoleServer(phone, port=port, token=token)))
        port += 2
    return phones
