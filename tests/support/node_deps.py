"""The VS Code extension's npm dependencies, installed from its lock file when they are
missing or stale (``npm ci``), for the type check and the real-editor suite."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "editors" / "vscode"
_STAMP = ".installed-from-lock"


class NodeDepsError(RuntimeError):
    """``npm ci`` could not run or failed; the message says why and what to run."""


def _lock_digest(extension: Path) -> str:
    return hashlib.sha256((extension / "package-lock.json").read_bytes()).hexdigest()


def node_modules_current(extension: Path = EXTENSION) -> bool:
    """Whether node_modules was installed by :func:`ensure_node_modules` from this lock file."""
    stamp = extension / "node_modules" / _STAMP
    return stamp.is_file() and stamp.read_text(encoding="utf-8") == _lock_digest(extension)


@contextmanager
def installing(directory: Path) -> Iterator[None]:
    """Hold ``directory``'s install lock: pytest-xdist workers (and a concurrent real-editor
    run) would otherwise run ``npm ci`` into the same node_modules at once and break it."""
    with open(directory / ".npm-install.lock", "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_node_modules(extension: Path = EXTENSION, *, timeout: float = 300) -> None:
    """Run ``npm ci`` in ``extension`` unless node_modules already matches the lock file.
    Raises :class:`NodeDepsError` with npm's own words when that fails."""
    if node_modules_current(extension):
        return
    with installing(extension):
        if not node_modules_current(extension):  # another process may have installed it
            _npm_ci(extension, timeout)


def _npm_ci(extension: Path, timeout: float) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise NodeDepsError(f"npm is not installed: cannot run `npm ci` in {extension}")
    env = {**os.environ, "npm_config_audit": "false", "npm_config_fund": "false"}
    try:
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=extension,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise NodeDepsError(f"`npm ci` in {extension} took more than {timeout:.0f} s") from exc
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise NodeDepsError(f"`npm ci` in {extension} failed:\n{tail}")
    (extension / "node_modules" / _STAMP).write_text(_lock_digest(extension), encoding="utf-8")
