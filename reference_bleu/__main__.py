"""``python -m reference_bleu``: the ``reference-bleu`` command."""

import sys

from reference_bleu.cli.main import main

sys.exit(main())
