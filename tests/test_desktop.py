"""Issue 36 item 4: the icon from one source (``client/icon.py``) in every format the
bundles carry, the menu entry ``stud --install-menu-entry`` writes, and the AppStream
metainfo that ``appstreamcli`` accepts."""

from __future__ import annotations

import shutil
import struct
import subprocess

import pygame
import pytest

from client import desktop
from client.__main__ import main
from client.icon import APP_ID, SIZES, paint
from scripts.bundle import icns, ico
from tests.serverproc import ROOT


@pytest.mark.parametrize("size", [16, 32, 48, 256])
def test_the_icon_is_a_card_on_an_opaque_tile_at_each_size(size):
    img = paint(size)
    assert img.get_size() == (size, size)
    assert min(img.get_at((size // 2, int(size * 0.84)))[:3]) > 230  # the card, below the 7
    assert img.get_at((0, 0)).a < 64 and img.get_at((size // 2, 1)).a > 128  # round corners


def test_ico_and_icns_hold_each_png_as_painted():
    pngs = {s: pygame.image.tobytes(paint(s), "RGBA")[:40] for s in SIZES}  # stand-ins
    data = ico(pngs)
    count = struct.unpack_from("<HHH", data)[2]
    entries = [struct.unpack_from("<BBBBHHII", data, 6 + 16 * i) for i in range(count)]
    assert [e[0] or 256 for e in entries] == [s for s in SIZES if s <= 256]
    assert all(data[e[7] : e[7] + e[6]] == pngs[e[0] or 256] for e in entries)
    mac = icns(pngs)
    assert mac[:4] == b"icns" and struct.unpack_from(">I", mac, 4)[0] == len(mac)
    assert b"ic08" + struct.pack(">I", 8 + len(pngs[256])) + pngs[256] in mac


@pytest.mark.parametrize(
    ("path", "line"),
    [("/opt/stud/stud", "Exec=/opt/stud/stud"),
     ("/home/ann/My Games/stud", 'Exec="/home/ann/My Games/stud"'),
     ('/x/a"b$c', 'Exec="/x/a\\\\"b\\\\$c"')],
)  # fmt: skip
def test_install_menu_entry_writes_the_entry_and_icons_under_xdg_data_home(
    tmp_path, monkeypatch, capsys, path, line
):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(desktop, "exec_line", lambda: desktop._quoted(path))
    assert main(["--install-menu-entry"]) == 0
    entry = tmp_path / "data" / "applications" / f"{APP_ID}.desktop"
    assert str(entry) in capsys.readouterr().out
    assert f"\n{line}\n" in entry.read_text() and f"\nIcon={APP_ID}\n" in entry.read_text()
    for s in SIZES:
        icon = tmp_path / "data" / "icons" / "hicolor" / f"{s}x{s}" / "apps" / f"{APP_ID}.png"
        assert pygame.image.load(str(icon)).get_size() == (s, s)


def test_data_home_follows_the_xdg_spec(tmp_path):
    assert desktop.data_home({"HOME": "/h"}) == desktop.data_home({"HOME": "/h",
        "XDG_DATA_HOME": "relative"}) == desktop.Path("/h/.local/share")  # fmt: skip
    assert desktop.data_home({"HOME": "/h", "XDG_DATA_HOME": str(tmp_path)}) == tmp_path


def test_the_metainfo_s_newest_release_is_this_version():
    version = pytest.importorskip("common.version", reason="branch i36-version").__version__
    metainfo = (ROOT / "packaging" / f"{APP_ID}.metainfo.xml").read_text()
    assert f'<release version="{version}"' in metainfo.split("<releases>")[1].split("/>")[0]


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="no appstreamcli (appstream)")
def test_appstreamcli_accepts_the_metainfo():
    metainfo = ROOT / "packaging" / f"{APP_ID}.metainfo.xml"
    done = subprocess.run(["appstreamcli", "validate", "--no-net", str(metainfo)],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
