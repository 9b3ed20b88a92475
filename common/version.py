"""The game's version: the one place that says it.

``pyproject.toml`` reads it (``dynamic = ["version"]``), ``stud --version`` and
``stud-server --version`` print it, the start screen and every lobby show it, the
``hello`` and ``welcome`` carry it and the network announcement says it (``ver``).  A
plain module, not ``importlib.metadata``: a frozen build (PyInstaller) has no package
metadata to read.

0.2.0 is the first release people download: 0.1.0 is what every copy run from the
source said until then, so the two stay told apart ("The table runs Seventh Street
0.1.0").
"""

__all__ = ["__version__"]

__version__ = "0.2.0"
