"""`python -m backgammon` (see backgammon/cli.py)."""

import sys

from backgammon.cli import main

sys.exit(main())
