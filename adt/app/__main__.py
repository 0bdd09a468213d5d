"""``python -m adt.app``: the ``abap-adt`` command."""

import sys

from adt.app.cli import main

sys.exit(main())
