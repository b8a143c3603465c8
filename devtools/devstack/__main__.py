"""`python -m console.devstack ...`: the dev stack without Django."""

from console.devstack.cli import main

raise SystemExit(main())
