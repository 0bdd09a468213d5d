"""Typed answers of the workspace; ``to_dict()`` is what our ``adt/*`` requests return."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adt.source.errors import READ_SOURCE, SourceError

if TYPE_CHECKING:
    from adt.source import ActivationOutcome, CheckOutcome
    from adt.workbench import InactiveEntry

WORDS: Mapping[str, str] = {READ_SOURCE: "adt/readDocument"}
"""How the editor protocol calls the source layer's operations (``retryAction``)."""


class SaveStatus(enum.StrEnum):
    SAVED = "saved"
    UNCHANGED = "unchanged"
    CONFLICT = "conflict"
    ERROR = "error"
    RELOADED = "reloaded"
    MERGED = "merged"
    MERGE_CONFLICTS = "mergeConflicts"
    NO_CONFLICT = "noConflict"


@dataclass(frozen=True)
class SaveResult:
    """The outcome of a save or of a conflict resolution."""

    status: SaveStatus
    uri: str
    token: str | None = None
    line_count: int | None = None
    hunks: int | None = None
    changed_at: int | None = None
    changed_by: str | None = None
    conflict: SourceError | None = None
    error: SourceError | None = None
    conflicts: tuple[tuple[int, int], ...] = ()
    # a save moved over a colleague's change (mergeOnSave: auto): who changed which lines
    rebased_over: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": str(self.status), "uri": self.uri}
        optional = {
            "token": self.token,
            "lineCount": self.line_count,
            "hunks": self.hunks,
            "changedAt": self.changed_at,
            "changedBy": self.changed_by,
            "rebasedOver": self.rebased_over,
        }
        data.update({k: v for k, v in optional.items() if v is not None})
        if self.status in (SaveStatus.UNCHANGED, SaveStatus.RELOADED):
            data.setdefault("token", self.token)
        if self.conflict is not None:
            data["conflict"] = self.conflict.to_dict(WORDS)
        if self.error is not None:
            data["error"] = self.error.to_dict(WORDS)
        if self.status == SaveStatus.MERGE_CONFLICTS:
            data["conflicts"] = [list(c) for c in self.conflicts]
        return data


class RestoreStatus(enum.StrEnum):
    CURRENT = "current"  # the server still has the version the editor read
    CHANGED = "changed"  # somebody changed the source since; a save meets a conflict
    BASE_UNKNOWN = "baseUnknown"  # changed, and the text the editor read is not known


@dataclass(frozen=True)
class RestoreResult:
    """``adt/restoreDocument``: how the server's current version relates to the base the
    editor restored."""

    uri: str
    status: RestoreStatus
    token: str
    changed_by: str | None
    changed_at: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "uri": self.uri,
            "status": str(self.status),
            "token": self.token,
            "changedBy": self.changed_by,
            "changedAt": self.changed_at,
        }


@dataclass(frozen=True)
class DocumentRead:
    """``adt/readDocument``: the text and token of a document, read from the server."""

    uri: str
    system: str
    text: str
    token: str
    line_count: int
    changed_at: int
    changed_by: str | None
    object_url: str
    source_url: str
    object_type: str
    include_type: str | None
    inactive: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "uri": self.uri,
            "text": self.text,
            "token": self.token,
            "lineCount": self.line_count,
            "changedAt": self.changed_at,
            "changedBy": self.changed_by,
            "objectUrl": self.object_url,
            "sourceUrl": self.source_url,
            "objectType": self.object_type,
            "includeType": self.include_type,
            "system": self.system,
            "inactive": self.inactive,
        }


@dataclass(frozen=True)
class DocumentCheck:
    uri: str
    outcome: CheckOutcome

    def to_dict(self) -> dict[str, Any]:
        return {"uri": self.uri, **self.outcome.to_dict()}


@dataclass(frozen=True)
class ActivateResult:
    """Activation of a document's object; ``reason`` says why it did not run."""

    uri: str
    outcome: ActivationOutcome | None = None
    reason: str = ""
    inactive_dependencies: tuple[InactiveEntry, ...] = ()
    """Refused: the inactive objects the object builds on, dependencies first (to activate
    with it: the object URLs as the command's second argument)."""

    @property
    def activated(self) -> bool:
        return self.outcome is not None and self.outcome.success

    def to_dict(self) -> dict[str, Any]:
        if self.outcome is None:
            return {"activated": False, "uri": self.uri, "reason": self.reason}
        found = {"uri": self.uri, **self.outcome.to_dict()}
        if self.inactive_dependencies:
            found["inactiveDependencies"] = [
                {"name": e.name, "type": e.type, "objectUrl": e.object_url}
                for e in self.inactive_dependencies
            ]
        return found


@dataclass(frozen=True)
class OpenObjectResult:
    """``adt/openObject``: the object's document URI, or the candidates."""

    found: bool
    uri: str = ""
    name: str = ""
    type: str = ""
    object_url: str = ""
    message: str = ""
    candidates: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        if not self.found:
            return {"found": False, "candidates": self.candidates, "message": self.message}
        return {
            "found": True,
            "name": self.name,
            "type": self.type,
            "objectUrl": self.object_url,
            "uri": self.uri,
        }
