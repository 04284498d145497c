"""``python -m chinese_poker.cli``: the command line."""

import sys

from . import main

if __name__ == "__main__":  # not when a documentation tool imports every module
    sys.exit(main())
