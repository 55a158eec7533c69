"""`python3 -m edgar_min` and the zipapp entry point."""

from edgar_min.cli import leave, main

if __name__ == "__main__":
    leave(main())
