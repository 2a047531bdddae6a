"""`python -m plx_core.experiments …`."""

import sys

from .command import main

sys.exit(main())
