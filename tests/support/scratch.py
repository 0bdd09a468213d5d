"""One scratch directory for the whole test session (runtime directories of language servers
and bridges), removed when the session ends, so no test leaves ``/tmp/abap-adt-*`` behind."""

from __future__ import annotations

import tempfile
from pathlib import Path

ROOT = Path(tempfile.mkdtemp(prefix="abap-adt-tests-"))


def scratch(name: str) -> str:
    """A fresh directory below the session's scratch root (private, 0700)."""
    return tempfile.mkdtemp(prefix=f"{name}-", dir=ROOT)
