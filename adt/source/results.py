"""Results of the source operations. ``to_dict()`` gives the V2 design's ``data`` shape."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from adt.source.grep import GrepMatch


def _drop_none(data: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """Leave out unset fields, except those in ``keep`` (a ``null`` there says "unknown")."""
    return {key: value for key, value in data.items() if value is not None or key in keep}


@dataclass(frozen=True)
class SourceRead:
    """A range of a source with the token of the *whole* source it came from."""

    content: str
    token: str
    line_count: int
    start_line: int
    end_line: int
    requested_start_line: int | None
    requested_end_line: int | None
    changed_at: int
    changed_by: str | None
    object_type: str
    include_type: str | None
    expires_at: int
    object_url: str
    source_url: str
    version: str | None = None
    cached: bool = False
    truncated: bool = False
    next_start_line: int | None = None
    notes: tuple[str, ...] = ()
    symbol: dict[str, Any] | None = None
    lines: Sequence[str] = field(default=(), repr=False)
    """The whole source's lines as cached (set when the read returned all of it): an editor
    builds its line buffer from them and shares the strings with the cache."""

    def to_dict(self) -> dict[str, Any]:
        return _drop_none(
            {
                "symbol": self.symbol,
                "content": self.content,
                "token": self.token,
                "lineCount": self.line_count,
                "startLine": self.start_line,
                "endLine": self.end_line,
                "requestedStartLine": self.requested_start_line,
                "requestedEndLine": self.requested_end_line,
                "changedAt": self.changed_at,
                "changedBy": self.changed_by,
                "objectType": self.object_type,
                "includeType": self.include_type,
                "expiresAt": self.expires_at,
                "objectUrl": self.object_url,
                "sourceUrl": self.source_url,
                "version": self.version,
                "cached": self.cached,
                "truncated": self.truncated,
                "nextStartLine": self.next_start_line,
                "notes": list(self.notes) or None,
            },
            keep=("changedBy",),
        )


@dataclass(frozen=True)
class LastChange:
    """Who changed a source last, and whether it has an inactive version (saved, not yet
    activated); ``None`` where the system did not say."""

    changed_by: str | None = None
    inactive: bool | None = None


@dataclass(frozen=True)
class GrepOutcome:
    matches: tuple[GrepMatch, ...]
    line_count: int
    truncated: bool
    pattern: str
    token: str
    include_type: str | None
    object_url: str
    next_start_line: int | None = None
    notes: tuple[str, ...] = ()

    @property
    def match_count(self) -> int:
        return len(self.matches)

    def to_dict(self) -> dict[str, Any]:
        return _drop_none(
            {
                "matches": [match.to_dict() for match in self.matches],
                "matchCount": self.match_count,
                "lineCount": self.line_count,
                "truncated": self.truncated,
                "nextStartLine": self.next_start_line,
                "pattern": self.pattern,
                "token": self.token,
                "includeType": self.include_type,
                "objectUrl": self.object_url,
                "notes": list(self.notes) or None,
            }
        )


@dataclass(frozen=True)
class WriteOutcome:
    """What a write did. ``text`` is the source as the server now stores it (not in
    ``to_dict``: an editor adopts it as its new base; an agent does not need it)."""

    updated: bool
    line_count: int
    old_range: tuple[int, int] | None
    new_range: tuple[int, int] | None
    patches: tuple[dict[str, Any], ...]
    token: str
    previous_token: str
    changed_at: int
    timestamp: int
    object_url: str
    source_url: str
    include_type: str | None
    text: str = field(repr=False, default="")
    notes: tuple[str, ...] = ()
    rebased_over: dict[str, Any] | None = None
    """Set when the write was made against an older token and moved over what changed
    since: ``fromToken``, ``changedBy``, ``changedAt`` and the changed ``lines``."""

    def to_dict(self) -> dict[str, Any]:
        return _drop_none(
            {
                "updated": self.updated,
                "lineCount": self.line_count,
                "oldRange": list(self.old_range) if self.old_range else None,
                "newRange": list(self.new_range) if self.new_range else None,
                "patches": list(self.patches) if len(self.patches) > 1 else None,
                "token": self.token,
                "previousToken": self.previous_token,
                "changedAt": self.changed_at,
                "timestamp": self.timestamp,
                "objectUrl": self.object_url,
                "sourceUrl": self.source_url,
                "includeType": self.include_type,
                "notes": list(self.notes) or None,
                "rebasedOver": self.rebased_over,
            }
        )


@dataclass(frozen=True)
class LockInfo:
    object_url: str
    lock_handle: str
    transport: str
    is_local: bool
    transport_owner: str = ""
    transport_text: str = ""
    modification_support: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectUrl": self.object_url,
            "lockHandle": self.lock_handle,
            "transport": self.transport,
            "transportOwner": self.transport_owner,
            "transportText": self.transport_text,
            "isLocal": self.is_local,
            "modificationSupport": self.modification_support,
        }


@dataclass(frozen=True)
class Finding:
    """A check or activation message placed in a source (1-based line, 0-based column)."""

    severity: str
    text: str
    object_url: str
    include_type: str
    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None
    code: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity in ("E", "A", "X")

    def to_dict(self) -> dict[str, Any]:
        return _drop_none(
            {
                "severity": self.severity,
                "text": self.text,
                "objectUrl": self.object_url,
                "includeType": self.include_type,
                "line": self.line,
                "column": self.column,
                "endLine": self.end_line,
                "endColumn": self.end_column,
                "code": self.code or None,
            }
        )


@dataclass(frozen=True)
class CheckOutcome:
    object_url: str
    findings: tuple[Finding, ...]

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.is_error)

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectUrl": self.object_url,
            "errorCount": len(self.errors),
            "findings": [f.to_dict() for f in self.findings],
        }


@dataclass(frozen=True)
class ActivationOutcome:
    object_url: str
    success: bool
    executed: bool | None
    findings: tuple[Finding, ...]
    inactive_objects: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return _drop_none(
            {
                "objectUrl": self.object_url,
                "activated": self.success,
                "executed": self.executed,
                "findings": [f.to_dict() for f in self.findings],
                "inactiveObjects": list(self.inactive_objects) or None,
            }
        )


@dataclass(frozen=True)
class IncludeInfo:
    """One source unit of an object (a class include, or the object's own source)."""

    include_type: str
    source_url: str
    changed_at: int | None
    changed_by: str | None
    version: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "includeType": self.include_type,
            "sourceUrl": self.source_url,
            "changedAt": self.changed_at,
            "changedBy": self.changed_by,
            "version": self.version,
        }


@dataclass(frozen=True)
class ObjectStructure:
    """Name, type, package, stamps and the includes of an object."""

    object_url: str
    name: str
    type: str
    description: str
    package: str
    changed_at: int | None
    changed_by: str | None
    version: str
    source_url: str | None
    includes: tuple[IncludeInfo, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectUrl": self.object_url,
            "name": self.name,
            "type": self.type,
            "description": self.description,
            "package": self.package,
            "changedAt": self.changed_at,
            "changedBy": self.changed_by,
            "version": self.version,
            "sourceUrl": self.source_url,
            "includes": [include.to_dict() for include in self.includes],
        }


@dataclass(frozen=True)
class SearchHit:
    """An object found by name."""

    uri: str
    type: str
    name: str
    package: str
    description: str

    def to_dict(self) -> dict[str, str]:
        return {
            "uri": self.uri,
            "type": self.type,
            "name": self.name,
            "package": self.package,
            "description": self.description,
        }
