"""Repository-level checks: lint, types, and that CI runs what the README promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TEST_COMMAND = (
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest"
)
DEMO_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/abap-adt demo"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, timeout=600
    )


def test_ruff_lint_is_clean() -> None:
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_has_exactly_the_two_commands_and_ci_runs_the_test_one() -> None:
    readme = (REPO / "README.md").read_text()
    assert readme.count(TEST_COMMAND) == 1
    assert readme.count(DEMO_COMMAND) == 1
    assert TEST_COMMAND in (REPO / ".ci" / "run").read_text()


def test_cli_help_works() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "adt.app", "--help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    for command in ("emulator", "demo", "lsp", "mcp"):
        assert command in result.stdout
