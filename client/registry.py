"""Scenes by name: how one scene opens another without importing it (as Tuxemon's
``StateManager`` registers its states).  ``client.scenes.register_scenes`` fills one;
``make(name, host, **kw)`` calls the factory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.host import Host, Room

__all__ = ["Registry", "SceneFactory"]

SceneFactory = Callable[..., Room]


class Registry:
    def __init__(self) -> None:
        self._factories: dict[str, SceneFactory] = {}

    def register(self, name: str, factory: SceneFactory) -> None:
        if name in self._factories:
            raise ValueError(f"a scene is already registered as {name!r}")
        self._factories[name] = factory

    def names(self) -> list[str]:
        return sorted(self._factories)

    def make(self, name: str, host: Host, **kw: Any) -> Room:
        """A new scene ``name`` for ``host``; KeyError names the ones there are."""
        try:
            factory = self._factories[name]
        except KeyError:
            raise KeyError(f"no scene {name!r} (there are {', '.join(self.names())})") from None
        return factory(host, **kw)
