"""Repository-level checks: lint, types, and that CI runs what the README promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TEST_COMMAND = (
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest"
)
PACKAGES = ("adt", "lsp_server", "mcp_bridge")
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


# mypy from a cold cache and import-linter take minutes of CPU on a CI machine whose other
# core runs the rest of the suite: their own limit, not the 120 s of a behaviour test.
@pytest.mark.timeout(600)
def test_mypy_strict_is_clean() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.timeout(600)
def test_import_contracts_hold() -> None:
    """The layers of docs/architecture.md, as the import-linter contracts in pyproject.toml."""
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (REPO / pkg).rglob("*.py"))


def test_no_function_is_rated_above_c() -> None:
    """radon's cyclomatic complexity rank: A-C is fine, D and worse is to be split."""
    from radon.complexity import cc_rank, cc_visit

    too_complex = [
        f"{path.relative_to(REPO)}:{block.lineno} {block.name} {cc_rank(block.complexity)}"
        for path in _modules()
        for block in cc_visit(path.read_text(encoding="utf-8"))
        if cc_rank(block.complexity) > "C"
    ]
    assert too_complex == []


def test_no_module_is_over_500_lines() -> None:
    long = [
        f"{path.relative_to(REPO)}: {count}"
        for path in _modules()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > 500
    ]
    assert long == []


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
