"""The game's scenes, registered by name (``client.registry``): none imports another or the
app, and importing this package imports no scene."""

from __future__ import annotations

from client.registry import Registry

__all__ = ["register_scenes"]


def register_scenes(registry: Registry) -> Registry:
    """Every scene of the game under its name: the start screen, connecting, the lobby,
    the table, the results, the replayer, the recap and the hand histories."""
    from client.scenes.connecting import ConnectingScene
    from client.scenes.histories import HistoriesScene
    from client.scenes.lobby import LobbyScene
    from client.scenes.recap import RecapScene
    from client.scenes.replayer import ReplayerScene
    from client.scenes.results import ResultsScene
    from client.scenes.start import StartScene
    from client.scenes.table import TableScene

    for cls in (StartScene, ConnectingScene, LobbyScene, TableScene, ResultsScene,
                ReplayerScene, RecapScene, HistoriesScene):  # fmt: skip
        registry.register(cls.name, cls)
    return registry
