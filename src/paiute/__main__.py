"""``python -m paiute`` runs the command line."""

import sys

from paiute.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
