"""``python -m server`` as a real process on loopback, for tests that kill it or need one.

``ServerProcess(tmp, *options)`` starts it on 127.0.0.1 (``--port 0`` unless an option says
otherwise), never announced (``--no-announce`` and ``STUD_MDNS=off``), with its own config
and data folders under ``tmp``; its log is read on a thread as it comes, and ``port`` is the
one it says it listens on.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.serverkit import LOOPBACK, wait_until

ROOT = Path(__file__).resolve().parent.parent


class ServerProcess:
    """One ``python -m server`` (or ``program``, the installed ``stud-server``, say);
    ``options`` are its command line after the address; ``env`` instead of ours."""

    def __init__(
        self, tmp: Path, *options: str, port: int = 0, program: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:  # fmt: skip
        base = os.environ if env is None else env
        env = {**base, "STUD_MDNS": "off", "XDG_CONFIG_HOME": str(tmp / "config"),
               "XDG_DATA_HOME": str(tmp / "data")}  # fmt: skip
        self.started = time.monotonic()
        command = program or [sys.executable, "-m", "server"]
        self.proc = subprocess.Popen(
            [*command, "--host", LOOPBACK, "--port", str(port), "--no-announce", *options],
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        self.lines: list[str] = []
        self.port = 0
        reader = threading.Thread(target=self._read, daemon=True)
        reader.start()
        wait_until(lambda: self.port or self.proc.poll() is not None, timeout=30)
        if not self.port:  # a server that exits (or hangs) is no server
            if self.proc.poll() is None:
                self.kill()
            reader.join(5)
            raise AssertionError("the server did not listen:\n" + "".join(self.lines))

    def _read(self) -> None:
        """Every line the server logs, until it exits; then its end of the pipe is closed."""
        assert self.proc.stderr is not None
        with self.proc.stderr:
            for line in self.proc.stderr:
                self.lines.append(line)
                if found := re.search(r"listening on port (\d+)", line):
                    self.port = int(found.group(1))

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.terminate()

    def freeze(self) -> None:
        """SIGSTOP: it moves on no further (the frames it wrote still arrive)."""
        self.proc.send_signal(signal.SIGSTOP)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def says(self, text: str, seconds: float = 20) -> bool:
        """Whether its log says ``text`` within ``seconds`` (its lines come on a thread)."""
        return wait_until(lambda: self.said(text), timeout=seconds)
