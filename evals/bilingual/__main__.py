"""`python -m evals.bilingual`: see the package docstring."""

import sys

from evals.bilingual import main

sys.exit(main())
