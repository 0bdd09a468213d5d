"""What an agent may write: nothing in read-only mode; otherwise, if an allowlist is set, only
objects whose package or name (or object URL) matches one of its patterns (``*`` wildcards)."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass

from adt.source.errors import WriteRefused
from adt.systems import BridgeSettings


@dataclass(frozen=True)
class WritePolicy:
    read_only: bool = False
    allow: tuple[str, ...] = ()
    #: Agents may read table and CDS data (``objectStructure`` with ``rows``): off unless
    #: the bridge is started with ``--allow-data-preview``.
    data_preview: bool = False

    @classmethod
    def from_settings(
        cls,
        settings: BridgeSettings,
        *,
        read_only: bool = False,
        allow: Sequence[str] = (),
        data_preview: bool = False,
    ) -> WritePolicy:
        """The command line's flags plus the settings (``readOnly``, ``writeAllowlist``):
        either one can make the bridge read-only, and both add to the allowlist."""
        return cls(
            read_only=read_only or settings.read_only,
            allow=tuple(dict.fromkeys([*allow, *settings.write_allowlist])),
            data_preview=data_preview,
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
