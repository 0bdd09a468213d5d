"""The VS Code extension's npm dependencies, installed from its lock file when they are
missing or stale (``npm ci``), for the type check and the real-editor suite."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
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


def ensure_node_modules(extension: Path = EXTENSION, *, timeout: float = 300) -> None:
    """Run ``npm ci`` in ``extension`` unless node_modules already matches the lock file.
    Raises :class:`NodeDepsError` with npm's own words when that fails."""
    if node_modules_current(extension):
        return
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
