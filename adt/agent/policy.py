"""What an agent may write: nothing in read-only mode; otherwise, if an allowlist is set, only
objects whose package or name (or object URL) matches one of its patterns (``*`` wildcards)."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adt.source.errors import WriteRefused

_TRUE = {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class WritePolicy:
    read_only: bool = False
    allow: tuple[str, ...] = ()

    @classmethod
    def from_settings(
        cls,
        *,
        read_only: bool = False,
        allow: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
    ) -> WritePolicy:
        """Flags win; ``MCP_READ_ONLY`` and ``MCP_WRITE_ALLOWLIST`` (comma-separated) add."""
        source = os.environ if env is None else env
        env_allow = [
            p.strip() for p in source.get("MCP_WRITE_ALLOWLIST", "").split(",") if p.strip()
        ]
        return cls(
            read_only=read_only or source.get("MCP_READ_ONLY", "").strip().lower() in _TRUE,
            allow=tuple(dict.fromkeys([*allow, *env_allow])),
        )

    def check(self, tool: str, object_url: str, name: str, package: str) -> None:
        """Raise WRITE_REFUSED unless ``tool`` may change this object."""
        if self.read_only:
            raise WriteRefused(
                f"{tool} refused: this server is read-only (started with --read-only or "
                "MCP_READ_ONLY). Reading tools still work.",
                tool=tool,
                objectUrl=object_url,
            )
        if not self.allow:
            return
        candidates = [name.upper(), package.upper(), object_url.lower()]
        for pattern in self.allow:
            if any(fnmatch.fnmatchcase(c, pattern.upper()) for c in candidates[:2]) or (
                fnmatch.fnmatchcase(candidates[2], pattern.lower())
            ):
                return
        raise WriteRefused(
            f"{tool} refused: {name or object_url} (package {package or 'unknown'}) is not on "
            f"the write allowlist ({', '.join(self.allow)}).",
            tool=tool,
            objectUrl=object_url,
            package=package,
            allowlist=list(self.allow),
        )
