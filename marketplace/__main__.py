"""``python -m marketplace COMMAND``: the operator CLI."""

import sys

from marketplace.cli import main

sys.exit(main())
