"""The README's demo: ``abap-adt demo`` runs its whole cycle (here without serving on)."""

from __future__ import annotations

import subprocess
import sys


def test_demo_cycle_runs_end_to_end() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "adt.cli", "demo", "--no-serve"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "ADT emulator listening on http://127.0.0.1:" in out
    assert "refused: 4003 VERSION_CONFLICT - changed by COLLEAGUE" in out
    assert "both changes are in the source: True" in out
    assert "activated: True" in out
    assert "locks left: 0" in out
