"""``python -m conundrum``: the command line."""

import sys

from .cli import main

sys.exit(main())
