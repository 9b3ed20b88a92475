"""The standalone game's `stud-server` (packaging/seventh-street.spec): the headless table."""

import sys

from server.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
