"""Run a test inside a private network namespace, where multicast DNS reaches nothing.

A test that announces or browses tables starts with::

    def test_x(request):
        if not in_netns(request):
            return          # it was run, and passed, in a namespace of its own
        ...                 # here STUD_MDNS is on, bound to 127.0.0.1 of a lo-only namespace

``in_netns`` re-runs that one test under ``scripts/netns`` (``unshare --net``,
loopback up with multicast and a 224.0.0.0/4 route) and fails if it failed there.
Where no namespace can be made the test is skipped, saying why: mDNS never runs
on the real network from a test.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NETNS = ROOT / "scripts" / "netns"


def only_loopback() -> bool:
    """True when this process's network namespace has no link but ``lo``."""
    try:
        out = subprocess.run(
            ["ip", "-o", "link", "show"], capture_output=True, text=True, timeout=5, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    links = [line.split(":")[1].strip() for line in out.splitlines() if line.strip()]
    return links == ["lo"]


@functools.cache
def _can_unshare() -> str:
    """Empty when a namespace can be made here, else why not (asked once per process)."""
    try:
        proc = subprocess.run([str(NETNS), "true"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    return "" if proc.returncode == 0 else (proc.stderr.strip() or f"exit {proc.returncode}")


def _set_for_this_test(request: pytest.FixtureRequest, **values: str) -> None:
    """Set environment variables until this test ends: the later tests of the same process
    (the whole suite run under ``scripts/netns``) find ``STUD_MDNS`` as they left it."""
    before = {name: os.environ.get(name) for name in values}

    def restore() -> None:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

    request.addfinalizer(restore)
    os.environ.update(values)


def in_netns(request: pytest.FixtureRequest) -> bool:
    # Each test gets a namespace of its own, also when the whole suite runs in one
    # (./scripts/netns ./scripts/test): there its workers' tables would see each other.
    # The re-run is told which test it is; where namespaces do not nest, a test in
    # the suite's namespace runs in that one.
    why = _can_unshare()
    if os.environ.get("STUD_NETNS") == "1" and (
        os.environ.get("STUD_NETNS_TEST") == request.node.nodeid or why
    ):
        if not only_loopback():
            pytest.fail("STUD_NETNS=1 outside a private network namespace: refusing to multicast")
        _set_for_this_test(request, STUD_MDNS="on", STUD_MDNS_IFACES="127.0.0.1")
        return True
    if why:
        pytest.skip(
            "multicast DNS is tested only inside a private network namespace, and none can be "
            f"made here ({why})"
        )
    proc = subprocess.run(
        [
            str(NETNS),
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",  # one test, in this one namespace: no workers of its own
            request.node.nodeid,
        ],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")},
            "STUD_NETNS_TEST": request.node.nodeid,
        },
        capture_output=True,
        text=True,
        timeout=110,
    )
    out = proc.stdout[-6000:] + proc.stderr[-3000:]
    assert proc.returncode == 0, out
    assert "1 passed" in proc.stdout, out
    return False
