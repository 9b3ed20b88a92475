"""A TCP proxy on loopback that forwards, and on demand turns into a black hole.

``swallow()`` makes every link open at that moment keep reading both ways and
throw everything away: no FIN, no RST, nothing delivered, as when a laptop
sleeps or leaves the Wi-Fi.  Links opened after it forward normally again
(the laptop is back).  The kernel still acknowledges on the proxy's side, so
only an application-level check can see that the other end is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field


@dataclass
class _Link:
    writers: list[asyncio.StreamWriter] = field(default_factory=list)
    swallowing: bool = False


class BlackHoleProxy:
    def __init__(self, target_port: int, host: str = "127.0.0.1") -> None:
        self.target = (host, target_port)
        self.host = host
        self.port = 0
        self.links: list[_Link] = []
        self.swallowed = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, self.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    def swallow(self) -> None:
        for link in self.links:
            link.swallowing = True

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for link in self.links:
            for w in link.writers:
                w.close()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        link = _Link([writer, up_writer])
        self.links.append(link)
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.get_running_loop().create_task(self._pump(link, src, dst))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self, link: _Link, src: asyncio.StreamReader, dst: asyncio.StreamWriter
    ) -> None:
        try:
            while data := await src.read(65536):
                if link.swallowing:
                    self.swallowed += len(data)
                    continue
                dst.write(data)
                await dst.drain()
        except (ConnectionError, OSError):
            pass
        if not link.swallowing:  # a real close is passed on; a black hole says nothing
            dst.close()


class ThreadedProxy:
    """A ``BlackHoleProxy`` on an event loop of its own, for blocking clients."""

    def __init__(self, target_port: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.proxy = BlackHoleProxy(target_port)
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self.proxy.start(), self.loop).result(5)

    def swallow(self) -> None:
        self.loop.call_soon_threadsafe(self.proxy.swallow)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.proxy.stop(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        self.loop.close()
