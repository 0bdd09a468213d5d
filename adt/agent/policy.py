"""What an agent may write: nothing in read-only mode; otherwise, if an allowlist is set, only
objects in a package that matches one of its patterns (``*`` wildcards, any case).

The allowlist names **packages**, never objects: an object's own name says nothing about
where it lives, and a name pattern meant as a package (``ZSANDBOX*``) once let an agent
create and delete ``ZSANDBOX_EVIL`` in a transportable package. Object-name patterns
(``allow_objects``) exist only to narrow the packages further: an object must then match
both."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass

from adt.errors import ConfigurationError
from adt.source.errors import WriteRefused
from adt.systems import BridgeSettings


def _matches(value: str, patterns: Sequence[str]) -> bool:
    return bool(value) and any(fnmatch.fnmatchcase(value.upper(), p.upper()) for p in patterns)


@dataclass(frozen=True)
class WritePolicy:
    read_only: bool = False
    allow: tuple[str, ...] = ()
    """Packages whose objects may be written (empty: every package)."""
    allow_objects: tuple[str, ...] = ()
    """Object names that may be written, within the allowed packages (empty: all)."""
    #: Agents may read table and CDS data (``objectStructure`` with ``rows``): off unless
    #: the bridge is started with ``--allow-data-preview``.
    data_preview: bool = False

    def __post_init__(self) -> None:
        if self.allow_objects and not self.allow:
            raise ConfigurationError(
                "--allow-object only narrows --allow: name the packages that may be written "
                "too (--allow PACKAGE), or an object could be created in any package"
            )

    @classmethod
    def from_settings(
        cls,
        settings: BridgeSettings,
        *,
        read_only: bool = False,
        allow: Sequence[str] = (),
        allow_objects: Sequence[str] = (),
        data_preview: bool = False,
    ) -> WritePolicy:
        """The command line's flags plus the settings (``readOnly``, ``writeAllowlist``):
        either one can make the bridge read-only, and both add to the allowlist."""
        return cls(
            read_only=read_only or settings.read_only,
            allow=tuple(dict.fromkeys([*allow, *settings.write_allowlist])),
            allow_objects=tuple(dict.fromkeys(allow_objects)),
            data_preview=data_preview,
        )

    @property
    def restricts(self) -> bool:
        """Whether a write needs to know its object's package first."""
        return bool(self.allow)

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
        if not _matches(package, self.allow):
            raise WriteRefused(
                f"{tool} refused: {name or object_url} is in package {package or 'unknown'}, "
                f"which is not on the write allowlist of packages ({', '.join(self.allow)}).",
                tool=tool,
                objectUrl=object_url,
                package=package,
                allowlist=list(self.allow),
            )
        if self.allow_objects and object_url and not _matches(name, self.allow_objects):
            raise WriteRefused(
                f"{tool} refused: {name or object_url} (package {package}) is not one of the "
                f"objects that may be written ({', '.join(self.allow_objects)}).",
                tool=tool,
                objectUrl=object_url,
                package=package,
                allowedObjects=list(self.allow_objects),
            )
