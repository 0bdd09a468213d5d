"""Finding the language servers an agent can pass its calls through.

Each running language server announces itself with a small JSON file in the user's runtime
directory (``$ABAP_ADT_RUNTIME_DIR``, else ``$XDG_RUNTIME_DIR/abap-adt``, else a private
directory under the system temp dir). The directory is ``0700`` and the files ``0600``; the
file names the channel (a Unix socket, or a loopback TCP port where Unix sockets are not
available, i.e. on Windows) and a random token the channel demands before it answers anything.

Announcements of dead processes are removed when found. On Windows there is no harmless
liveness probe (``os.kill(pid, 0)`` would send CTRL_C_EVENT to the process), so there every
announcement counts as alive and the connection attempt decides.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

PREFIX = "lsp-"
_WINDOWS = sys.platform == "win32"


class UnsafeRuntimeDir(PermissionError):
    """The runtime directory belongs to someone else (or is a link): announcements there
    could be read or forged by another user."""


def runtime_dir(env: Mapping[str, str] | None = None) -> Path:
    source = os.environ if env is None else env
    if source.get("ABAP_ADT_RUNTIME_DIR"):
        path = Path(source["ABAP_ADT_RUNTIME_DIR"])
    elif source.get("XDG_RUNTIME_DIR"):
        path = Path(source["XDG_RUNTIME_DIR"]) / "abap-adt"
    else:
        user = os.getuid() if hasattr(os, "getuid") else os.getlogin()
        path = Path(tempfile.gettempdir()) / f"abap-adt-{user}"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    _check_owned(path)
    with contextlib.suppress(OSError):
        path.chmod(0o700)
    return path


def _check_owned(path: Path) -> None:
    """Refuse a directory we did not make for ourselves: in a shared temp directory another
    user could have created it first, to read our tokens or plant announcements."""
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise UnsafeRuntimeDir(
            f"{path} is not a plain directory; remove it or set ABAP_ADT_RUNTIME_DIR"
        )
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise UnsafeRuntimeDir(
            f"{path} belongs to another user (uid {info.st_uid}); remove it or set "
            "ABAP_ADT_RUNTIME_DIR to a directory of your own"
        )


@dataclass(frozen=True)
class Announcement:
    pid: int
    address: str  # a Unix socket path, or "tcp:127.0.0.1:PORT"
    token: str
    systems: list[str] = field(default_factory=list)
    workspaces: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.time)
    identities: dict[str, dict[str, str]] = field(default_factory=dict)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def announce(announcement: Announcement, directory: Path | None = None) -> Path:
    """Write (atomically, owner-only) the announcement of this process."""
    folder = directory or runtime_dir()
    target = folder / f"{PREFIX}{announcement.pid}.json"
    temporary = folder / f".{target.name}.tmp"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(asdict(announcement), handle)
    os.replace(temporary, target)
    return target


def _alive(pid: int) -> bool:
    if _WINDOWS:  # os.kill would signal the process; connecting tells whether it is there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def discover(directory: Path | None = None) -> list[Announcement]:
    """Announcements of running language servers, oldest first (stale files are removed)."""
    folder = directory or runtime_dir()
    found: list[Announcement] = []
    for path in sorted(folder.glob(f"{PREFIX}*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            item = Announcement(**data)
        except (OSError, ValueError, TypeError):
            continue
        if not _alive(item.pid):
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        found.append(item)
    return sorted(found, key=lambda a: a.started)
