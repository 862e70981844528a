"""`python -m evals.understanding`: see the package docstring."""

import sys

from evals.understanding import main

sys.exit(main())
