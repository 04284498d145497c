"""``python -m chinese_poker``: the command line."""

import sys

from .cli import main

if __name__ == "__main__":  # not when a documentation tool imports every module
    sys.exit(main())
