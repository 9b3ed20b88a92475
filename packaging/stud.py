"""The standalone game's `stud` (packaging/seventh-street.spec): the window, which hosts too."""

import sys

from client.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
