"""`python -m evals.strategy`: see the package docstring."""

import sys

from evals.strategy import main

sys.exit(main())
