"""Start and stop a table server, from the CLI, a test or the pygame client.

In an event loop ``port = await TableServer(config).start()`` ... ``await
server.stop()``; from synchronous code (the client hosting a table)
``handle = run_in_thread(config)`` ... ``handle.stop()``, its own event loop in a
thread.  ``lan_addresses()`` lists the addresses friends can type to join, from the
interface table (``ip -j addr`` or the host name's addresses), sending no packet.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import shutil
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from functools import partial

from server.announce import Announcer, table_facts
from server.computer import Chooser
from server.config import ServerConfig
from server.identity import Identity, load_identity
from server.listen import listen_sockets, resolve
from server.net import Connection, Limits
from server.table import Table
from server.timers import Clock

__all__ = ["CannotStart", "ServerHandle", "TableServer", "lan_addresses", "run_in_thread"]

log = logging.getLogger("server")


class CannotStart(OSError):
    """The table cannot start, for a reason other than its port (an ``OSError``, as a
    port refused is)."""


class TableServer:
    """An asyncio TCP server in front of one ``Table``; every timer runs off ``clock``."""

    def __init__(
        self, config: ServerConfig, *, chooser: Chooser | None = None, clock: Clock | None = None
    ) -> None:
        self.config = config
        self.table = Table(config, chooser=chooser, clock=clock)
        self.limits = Limits.of(config)
        self.port = 0
        self.listening: list[str] = []
        """The addresses listened on, all on ``port`` (``0.0.0.0`` and ``::``: every one)."""
        self._servers: list[asyncio.Server] = []
        self.announcer: Announcer | None = None
        self.resumed = False
        """The table resumed an unfinished match from its journal."""
        self.identity: Identity | None = None  # from ``start`` on (``server.identity``)

    async def start(self) -> int:
        """Resume the journal's unfinished match if any, then listen on one port for every
        address family and return it; asked for any port (0), a resumed match takes its
        old one when it can, so that its players' games find it again."""
        cfg = self.config
        loop = asyncio.get_running_loop()
        try:
            self.identity = await loop.run_in_executor(
                None, partial(load_identity, cfg.data_dir, self.table.name, old=cfg.history_dir)
            )
        except OSError as exc:  # not one it should raise: it makes a key for this start
            raise CannotStart(f"cannot keep the table's key in {cfg.data_dir}: {exc}") from exc
        started = time.monotonic()
        self.resumed = self.table.resume()
        had = None  # the port the resumed match was played on, from its journal
        if self.resumed:
            log.info("the match was rebuilt in %.3f s", time.monotonic() - started)
            had = self.table.dealer.port
        ports = [had, 0] if cfg.port == 0 and self.resumed and had else [cfg.port]
        for i, port in enumerate(ports):
            try:
                await self._listen(port)
                break
            except OSError as exc:
                if i == len(ports) - 1:
                    raise
                log.warning("cannot have port %d again (%s): any free port instead", port, exc)
        self.table.listening(self.port)
        if self.config.announce:
            key = self.identity.short
            self.announcer = Announcer(
                lambda: table_facts(self.table, key=key),
                port=self.port,
                addresses=self.join_addresses(),
                listening=self.listening,
            )
            if not self.announcer.start():
                self.announcer = None
        return self.port

    async def _listen(self, port: int) -> None:
        loop = asyncio.get_running_loop()
        listeners = await loop.run_in_executor(None, resolve, self.config.host, port)
        socks = listen_sockets(listeners, port)
        try:
            for sock in socks:
                server = await loop.create_server(
                    lambda: Connection(
                        self.table, self.limits, self.table.clock, identity=self.identity
                    ),
                    sock=sock,
                )
                self._servers.append(server)
        except BaseException:
            for sock in socks:
                sock.close()
            for server in self._servers:
                server.close()
            self._servers = []
            raise
        self.port = socks[0].getsockname()[1]
        self.listening = [sock.getsockname()[0] for sock in socks]

    def join_addresses(self) -> list[str]:
        """The addresses friends type, of families that listen: on every interface the
        network addresses (``lan_addresses``), or loopback when there are none."""
        v4 = any(":" not in a for a in self.listening)
        v6 = any(":" in a for a in self.listening)
        wild = [a for a in self.listening if a in ("0.0.0.0", "::")]
        if not wild:
            return list(self.listening)
        found = [a for a in lan_addresses() if (v6 if ":" in a else v4)]
        if found:
            return found
        return (["127.0.0.1"] if v4 else []) + (["::1"] if v6 else [])

    async def stop(
        self, reason: str = "the host closed the table", *, forget: bool = False
    ) -> None:
        """Send ``bye`` to everyone, close every connection and stop listening; the match
        in play stays in its journal unless ``forget`` (closed for good)."""
        if forget:
            self.table.journal.remove()
        if not self._servers:
            return
        if self.announcer is not None:  # gone from every Join panel first
            await self.announcer.stop()
            self.announcer = None
        for server in self._servers:
            server.close()
        self.table.shutdown(reason)
        # Give the bye frames a moment to leave; slow readers are cut off.
        for _ in range(20):
            if not self.table.conns:
                break
            await asyncio.sleep(0.01)
        for conn in list(self.table.conns):
            conn.abort()
        for server in self._servers:
            await server.wait_closed()
        self._servers = []


@dataclass
class ServerHandle:
    """A server running in a background thread; ``stop()`` is safe to call twice."""

    port: int
    server: TableServer
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread

    def join_addresses(self) -> list[str]:
        return self.server.join_addresses()

    @property
    def every_interface(self) -> bool:
        return any(a in ("0.0.0.0", "::") for a in self.server.listening)

    def stop(
        self,
        timeout: float = 5.0,
        *,
        reason: str = "the host closed the table",
        forget: bool = False,
    ) -> None:
        """Stop the server and its thread (``TableServer.stop``)."""
        if not self.thread.is_alive():
            return
        future = asyncio.run_coroutine_threadsafe(
            self.server.stop(reason, forget=forget), self.loop
        )
        try:
            future.result(timeout)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout)


def run_in_thread(config: ServerConfig, *, chooser: Chooser | None = None) -> ServerHandle:
    """Start a ``TableServer`` on its own event loop in a daemon thread; return once bound."""
    loop = asyncio.new_event_loop()
    server = TableServer(config, chooser=chooser)
    ready = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(server.start())
        except BaseException as exc:  # reported to the caller below
            failure.append(exc)
            ready.set()
            loop.close()
            return
        ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    thread = threading.Thread(target=run, name="stud-server", daemon=True)
    thread.start()
    ready.wait()
    if failure:
        raise failure[0]
    return ServerHandle(server.port, server, loop, thread)


def lan_addresses() -> list[str]:
    """The host's own addresses others can reach (not loopback nor link-local), IPv4
    first; none: only this machine can join."""
    found: list[str] = []
    ip = shutil.which("ip")
    if ip:
        try:
            out = subprocess.run(
                [ip, "-j", "addr"], capture_output=True, text=True, timeout=2, check=True
            ).stdout
            for iface in json.loads(out):
                for info in iface.get("addr_info", []):
                    found.append(info.get("local", ""))
        except (OSError, subprocess.SubprocessError, ValueError):
            found = []
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP)
            found = [str(info[4][0]) for info in infos]
        except OSError:
            found = []
    out_list: list[str] = []
    for text in found:
        try:
            addr = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            continue
        if addr.is_loopback or addr.is_link_local or addr.is_unspecified:
            continue
        if str(addr) not in out_list:
            out_list.append(str(addr))
    return sorted(out_list, key=lambda a: (":" in a, a))
