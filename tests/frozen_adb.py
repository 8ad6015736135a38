"""A loopback proxy in front of an ADB server that can freeze, for tests of frozen devices: while frozen it
still accepts connections (the kernel does, for a SIGSTOPped server) but forwards nothing either way, so
every client waits on silence. With no upstream it is an ADB server that accepts and never answers."""

from __future__ import annotations

import contextlib
import socket
import threading

from masbench.device import Device, DeviceAddress


class FreezableAdb:
    """Forwards loopback connections on `.port` to the ADB server on `upstream` until `freeze()`."""

    def __init__(self, upstream: int | None = None) -> None:
        self.upstream = upstream
        self._thawed = threading.Event()
        if upstream is not None:
            self._thawed.set()
        self._closed = threading.Event()
        self._sockets: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def device(self, serial: str = "vphone-1", **kw: object) -> Device:
        return Device(DeviceAddress("127.0.0.1", self.port, serial), **kw)

    def freeze(self) -> None:
        self._thawed.clear()

    def close(self) -> None:
        self._closed.set()
        self._thawed.set()  # let the pumps run into the closed sockets and end
        for sock in [self._listener, *self._sockets]:
            with contextlib.suppress(OSError):
                sock.close()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self._sockets.append(client)
            if not self._thawed.is_set() or self.upstream is None:
                continue  # held open, never answered
            server = socket.create_connection(("127.0.0.1", self.upstream))
            self._sockets.append(server)
            for src, dst in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                self._thawed.wait()
                if self._closed.is_set():
                    return
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def __enter__(self) -> FreezableAdb:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
