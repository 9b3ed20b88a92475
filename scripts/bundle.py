"""``./scripts/bundle`` (Windows: ``py scripts\\bundle.py``): the standalone game for this
machine, which needs no Python where it runs.

From a fresh clone: sets up ``.venv`` with the ``build`` extra (PyInstaller, pinned in
pyproject.toml), paints the icon files (PNG, ICO, ICNS) from ``client/icon.py``, runs
PyInstaller's recipe (``packaging/seventh-street.spec``: ``stud`` and ``stud-server`` in
one folder), puts the licenses of everything bundled beside them, then the archive::

    dist/seventh-street-VERSION-OS-ARCH/          stud, stud-server, _internal/, licenses/
    dist/seventh-street-VERSION-OS-ARCH.tar.gz    (.zip on Windows; macOS: the .app, zipped)

PyInstaller's own work goes to ``build/`` (its log: ``build/pyinstaller.log``).  Standard
library only until the setup; the rest runs in ``.venv``'s Python.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import struct
import subprocess
import sys
import tarfile
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _setup  # noqa: E402

ROOT = _setup.ROOT
DIST, BUILD = ROOT / "dist", ROOT / "build"
APP_ID = "io.github.seventhstreet.Stud"
OS_NAMES = {"linux": "linux", "win32": "windows", "darwin": "macos"}
ARCHES = {"amd64": "x86_64", "aarch64": "arm64"}
ICNS_TYPES = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09"}
LICENSE_FILE = re.compile(r"(licen[cs]e|copying|notice|authors)", re.IGNORECASE)
NOTE = """Seventh Street {version}: seven card stud for a friends' night.

Start the game: ./stud (it also hosts a table for friends: Host on the start screen).
A table with no window: ./stud-server --help.
Add the game to this desktop's menu (Linux): ./stud --install-menu-entry
The licenses of everything in this folder: licenses/README.txt
"""


def version() -> str:
    """The game's version: ``common.version`` where it exists, else the installed one's."""
    try:
        from common.version import __version__  # type: ignore[import-not-found]

        return str(__version__)
    except ImportError:
        return metadata.version("seventh-street")


def bundle_name(ver: str) -> str:
    os_name = OS_NAMES.get(sys.platform, sys.platform)
    arch = platform.machine().lower()
    return f"seventh-street-{ver}-{os_name}-{ARCHES.get(arch, arch)}"


# ------------------------------------------------------------------ the icon files


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows icon holding each PNG (sizes up to 256) as it is."""
    sizes = sorted(s for s in pngs if s <= 256)
    head = struct.pack("<HHH", 0, 1, len(sizes))
    offset, entries = 6 + 16 * len(sizes), b""
    for s in sizes:
        entries += struct.pack("<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32, len(pngs[s]), offset)
        offset += len(pngs[s])
    return head + entries + b"".join(pngs[s] for s in sizes)


def icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS icon holding each PNG of a size it has a type for."""
    parts = b"".join(
        t + struct.pack(">I", 8 + len(pngs[s])) + pngs[s]
        for s, t in ICNS_TYPES.items()
        if s in pngs
    )
    return b"icns" + struct.pack(">I", 8 + len(parts)) + parts


def make_icons(folder: Path) -> dict[int, Path]:
    """stud-N.png at each of ``client.icon.SIZES``, stud.png, stud.ico and stud.icns."""
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    import pygame

    from client.icon import SIZES, paint

    folder.mkdir(parents=True, exist_ok=True)
    files = {s: folder / f"stud-{s}.png" for s in SIZES}
    for s, path in files.items():
        pygame.image.save(paint(s), str(path))
    pngs = {s: path.read_bytes() for s, path in files.items()}
    shutil.copyfile(files[256], folder / "stud.png")
    (folder / "stud.ico").write_bytes(ico(pngs))
    (folder / "stud.icns").write_bytes(icns(pngs))
    return files


# ------------------------------------------------------------------ the licenses


def _closure(name: str) -> list[metadata.Distribution]:
    """``name``'s distribution and every one it needs to run (no extras), each once."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        want = re.split(r"[\s<>=!~;\[(]", todo.pop(), maxsplit=1)[0]
        key = want.lower().replace("_", "-")
        if key in seen:
            continue
        try:
            dist = metadata.distribution(want)
        except metadata.PackageNotFoundError:
            continue
        seen[key] = dist
        todo += [r for r in dist.requires or [] if "extra ==" not in r]
    return list(seen.values())


def _license_of(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    said = meta.get("License-Expression") or meta.get("License") or ""
    if not said or len(said) > 80:
        said = next((c.split(" :: ")[-1] for c in meta.get_all("Classifier") or []
                     if c.startswith("License ::")), said[:80])  # fmt: skip
    return said.strip() or "see the files"


def _system_libraries(folder: Path) -> dict[str, Path | None]:
    """Debian: the packages whose shared libraries PyInstaller took from the system, and
    their copyright files where the machine has them (nothing where there is no dpkg)."""
    if shutil.which("dpkg") is None or shutil.which("ldconfig") is None:
        return {}
    known = {}
    for line in subprocess.run(
        ["ldconfig", "-p"], capture_output=True, text=True
    ).stdout.splitlines():
        if "=>" in line:
            soname, path = line.split("=>")
            known.setdefault(soname.split()[0], path.strip())
    found: dict[str, Path | None] = {}
    for lib in folder.rglob("*.so*"):
        if lib.name not in known or lib.name.startswith("libpython"):  # (python/: its own)
            continue
        path, pkg = known[lib.name], ""
        for asked in (path, os.path.realpath(path), path.replace("/usr/lib/", "/lib/", 1)):
            said = subprocess.run(["dpkg", "-S", asked], capture_output=True, text=True)
            pkg = pkg or (said.stdout.split(":")[0].strip() if said.returncode == 0 else "")
        copyright_file = Path("/usr/share/doc") / pkg / "copyright"
        if pkg:
            found[pkg] = copyright_file if copyright_file.is_file() else None
    return found


def collect_licenses(folder: Path) -> None:
    """``folder/licenses``: one folder per component with its own license files, and a
    README.txt that lists them (the notes in packaging/licenses/ for what ships none)."""
    out = folder / "licenses"
    out.mkdir(exist_ok=True)
    lines = ["The licenses of everything in this bundle, one folder each.", ""]
    python = Path(sys.base_prefix)
    lib = python / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (python / "LICENSE.txt", lib / "LICENSE.txt"):  # Windows, elsewhere
        if candidate.is_file():
            (out / "python").mkdir(exist_ok=True)
            shutil.copyfile(candidate, out / "python" / "LICENSE.txt")
    lines.append(f"python {platform.python_version()}: PSF-2.0 (python/)")
    for dist in _closure("seventh-street") + _closure("pyinstaller")[:1]:
        name, files = dist.metadata["Name"], []
        where = out / name.lower()
        for f in dist.files or []:
            if ".dist-info" in str(f) and ("licenses" in f.parts or LICENSE_FILE.search(f.name)):
                where.mkdir(exist_ok=True)
                shutil.copyfile(f.locate(), where / f.name)
                files.append(f.name)
        if name == "seventh-street" and not files:  # an editable install: the clone's
            where.mkdir(exist_ok=True)
            shutil.copyfile(ROOT / "LICENSE", where / "LICENSE")
            files.append("LICENSE")
        why = " (its bootloader is in stud and stud-server)" if name == "pyinstaller" else ""
        said = f"{name.lower()}/" if files else "no file shipped: see notes/"
        lines.append(f"{name} {dist.version}: {_license_of(dist)} ({said}){why}")
    shutil.copytree(ROOT / "packaging" / "licenses", out / "notes", dirs_exist_ok=True)
    lines.append("pygame's libraries (SDL2 and the rest) and its font: notes/")
    for pkg, path in sorted(_system_libraries(folder).items()):
        (out / "system").mkdir(exist_ok=True)
        if path is None:
            lines.append(f"{pkg} (Debian; its copyright file: /usr/share/doc/{pkg}/copyright)")
            continue
        shutil.copyfile(path, out / "system" / f"{pkg}.copyright")
        lines.append(f"{pkg} (a Debian library of the machine that built it): system/")
    (out / "README.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


# ------------------------------------------------------------------ the build


def pyinstaller(name: str, icons: Path, ver: str) -> None:
    env = {**os.environ, "STUD_BUNDLE_NAME": name, "STUD_BUNDLE_ICONS": str(icons),
           "STUD_BUNDLE_VERSION": ver, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}  # fmt: skip
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
           "--distpath", str(DIST), "--workpath", str(BUILD / "pyinstaller"),
           str(ROOT / "packaging" / "seventh-street.spec")]  # fmt: skip
    log = BUILD / "pyinstaller.log"
    with log.open("w", encoding="utf-8") as out:
        if subprocess.run(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT).returncode:
            tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-20:]
            sys.exit("PyInstaller failed; the end of build/pyinstaller.log:\n" + "\n".join(tail))


def archive(name: str, folder: Path) -> Path:
    if sys.platform == "darwin":  # the .app, zipped as the Finder does (links kept)
        target = DIST / f"{name}.zip"
        app = folder / "Seventh Street.app"
        subprocess.run(["ditto", "-c", "-k", "--keepParent", str(app), str(target)], check=True)
        return target
    if sys.platform == "win32":
        return Path(shutil.make_archive(str(DIST / name), "zip", DIST, name))
    target = DIST / f"{name}.tar.gz"
    with tarfile.open(target, "w:gz") as tar:
        tar.add(folder, arcname=name)
    return target


def build() -> Path:
    sys.path.insert(0, str(ROOT))  # this clone's game, whatever .venv has installed
    ver = version()
    name = bundle_name(ver)
    print(f"Building {name} (PyInstaller: a minute or two)...", flush=True)
    BUILD.mkdir(exist_ok=True)
    for old in (DIST / name, DIST / "Seventh Street.app"):
        shutil.rmtree(old, ignore_errors=True)
    icons = BUILD / "icon"
    pngs = make_icons(icons)
    pyinstaller(name, icons, ver)
    folder = DIST / name
    inside = folder
    if sys.platform == "darwin":  # the folder holds the .app; its licenses go inside it
        shutil.rmtree(folder)
        folder.mkdir()
        shutil.move(str(DIST / "Seventh Street.app"), folder)
        inside = folder / "Seventh Street.app" / "Contents" / "Resources"
    collect_licenses(inside)
    (inside / "README.txt").write_text(NOTE.format(version=ver), encoding="utf-8")
    share = inside / "share"
    for sub, src in (("applications", ROOT / "client" / "assets" / f"{APP_ID}.desktop"),
                     ("metainfo", ROOT / "packaging" / f"{APP_ID}.metainfo.xml"),
                     ("icons/hicolor/256x256/apps", pngs[256])):  # fmt: skip
        (share / sub).mkdir(parents=True, exist_ok=True)
        suffix = ".png" if sub.startswith("icons") else ""
        shutil.copyfile(src, share / sub / (src.name if not suffix else f"{APP_ID}.png"))
    target = archive(name, folder)
    print(f"Built {folder.relative_to(ROOT)} and {target.relative_to(ROOT)}")
    return target


def main() -> int:
    venv = (ROOT / ".venv").resolve()
    if Path(sys.prefix).resolve() != venv:  # first the setup, then this again in .venv
        py = _setup.setup(extras=os.environ.get("SETUP_EXTRAS") or "build")
        return subprocess.call([str(py), str(Path(__file__).resolve()), *sys.argv[1:]])
    os.chdir(ROOT)
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
