"""`python3 -m edgar_min` and the zipapp entry point."""

import sys

from edgar_min.cli import main

if __name__ == "__main__":
    sys.exit(main())
