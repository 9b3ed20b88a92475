"""``stud --install-menu-entry``: the game in the desktop's menu (Linux and the BSDs).

Writes the menu entry (``client/assets/<APP_ID>.desktop``, its ``Exec`` pointing at this
game: the bundle's own ``stud`` when frozen, else the ``stud`` beside this Python) under
``$XDG_DATA_HOME/applications`` and the icon, painted by ``client.icon`` at each size,
under ``$XDG_DATA_HOME/icons/hicolor/NxN/apps`` (``~/.local/share`` when unset), as the
XDG desktop entry and icon theme specifications place them.  Moving the bundle means
installing the entry again; deleting those files takes it out of the menu.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

from client.icon import APP_ID, SIZES, paint

__all__ = ["data_home", "exec_line", "install_menu_entry"]


def data_home(env: dict[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME`` if set to an absolute path, else ``~/.local/share`` (the spec's)."""
    env = os.environ if env is None else env
    chosen = env.get("XDG_DATA_HOME", "")
    if chosen and os.path.isabs(chosen):
        return Path(chosen)
    return Path(env.get("HOME") or Path.home()) / ".local" / "share"


def _quoted(arg: str) -> str:
    """One ``Exec`` argument, quoted as the desktop entry spec asks where needed."""
    if not any(c in arg for c in " \t\n\"'\\><~|&;$*?#()`"):
        return arg
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in arg)
    return f'"{escaped}"'.replace("\\", "\\\\")  # the key's own escaping doubles them


def exec_line() -> str:
    """The command the entry runs: this very game."""
    if getattr(sys, "frozen", False):
        return _quoted(sys.executable)  # the bundle's stud, wherever it was unpacked
    stud = Path(sys.executable).with_name("stud.exe" if os.name == "nt" else "stud")
    if stud.is_file():
        return _quoted(str(stud))
    return f"{_quoted(sys.executable)} -m client"


def install_menu_entry(home: Path | None = None, command: str | None = None) -> list[Path]:
    """Write the menu entry and its icons; return the files written."""
    import pygame

    home = home or data_home()
    command = command or exec_line()
    template = resources.files("client").joinpath("assets", f"{APP_ID}.desktop").read_text()
    lines = []
    for line in template.splitlines():
        if line.startswith("Exec="):
            line = f"Exec={command}"
        lines.append(line)
    written = []
    for size in SIZES:
        folder = home / "icons" / "hicolor" / f"{size}x{size}" / "apps"
        folder.mkdir(parents=True, exist_ok=True)
        pygame.image.save(paint(size), str(folder / f"{APP_ID}.png"))
        written.append(folder / f"{APP_ID}.png")
    apps = home / "applications"
    apps.mkdir(parents=True, exist_ok=True)
    entry = apps / f"{APP_ID}.desktop"
    entry.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written.append(entry)
    return written
