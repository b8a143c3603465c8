"""`python -m devtools.devstack ...`: the dev stack without Django."""

from devtools.devstack.cli import main

raise SystemExit(main())
