"""Inactive drafts and the version history of sources: what a user left unactivated, the
versions a source had, and what changed since the active version or a revision."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adt.source.errors import InvalidArgument

if TYPE_CHECKING:
    from adt.areas.history import Revision
    from adt.client import AdtClient

ACTIVE, INACTIVE = "active", "inactive"


@dataclass(frozen=True)
class InactiveEntry:
    """An object (or a part of one) with an unactivated version; ``object_url`` is what to
    activate."""

    name: str
    type: str
    object_url: str
    user: str
    deleted: bool
    transport: str

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "objectUrl": self.object_url,
            "user": self.user,
        }
        if self.deleted:
            found["deleted"] = True
        if self.transport:
            found["transport"] = self.transport
        return found


@dataclass(frozen=True)
class VersionEntry:
    """A version of a source: ``id`` is what :meth:`History.read` and
    :meth:`History.diff` take."""

    id: str
    label: str
    author: str
    date: str
    transport: str
    inactive: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "author": self.author,
            "date": self.date,
            "transport": self.transport,
        }


def _label(revision: Revision) -> str:
    if revision.is_draft:
        return "inactive version"
    if revision.is_active:
        return "active version"
    return f"version {revision.version_id}" + (f" ({revision.title})" if revision.title else "")


@dataclass(frozen=True)
class SourceDiff:
    """A unified diff from an older version (``base``) to the current text."""

    source_url: str
    base: str
    changed: bool
    added: int
    removed: int
    diff: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "sourceUrl": self.source_url,
            "base": self.base,
            "changed": self.changed,
            "added": self.added,
            "removed": self.removed,
            "diff": self.diff,
        }


def unified_diff(source_url: str, base_label: str, base: str, current: str) -> SourceDiff:
    lines = list(
        difflib.unified_diff(
            base.split("\n"),
            current.split("\n"),
            fromfile=f"{source_url} ({base_label})",
            tofile=f"{source_url} (current)",
            lineterm="",
        )
    )
    body = [line for line in lines[2:] if not line.startswith("@@")]
    added = sum(1 for line in body if line.startswith("+"))
    removed = sum(1 for line in body if line.startswith("-"))
    return SourceDiff(source_url, base_label, bool(lines), added, removed, "\n".join(lines))


class History:
    """Inactive objects, versions and diffs of one system."""

    def __init__(self, client: AdtClient) -> None:
        self._client = client

    async def inactive(self, user: str | None = None) -> tuple[InactiveEntry, ...]:
        """The objects with an inactive version of the logged-on user (or ``user``)."""
        entries = await self._client.history.inactive_objects(user)
        seen: set[str] = set()
        found: list[InactiveEntry] = []
        for entry in entries:
            if entry.object_url in seen:  # a class's includes and methods: one entry
                continue
            seen.add(entry.object_url)
            number = entry.transport.number if entry.transport else ""
            found.append(
                InactiveEntry(
                    entry.name, entry.type, entry.object_url, entry.user, entry.deleted, number
                )
            )
        return tuple(found)

    async def versions(self, source_url: str) -> tuple[VersionEntry, ...]:
        """The versions of a source, newest first (the inactive draft, if any, first)."""
        revisions = await self._client.history.revisions(source_url)
        return tuple(
            VersionEntry(
                r.version_id,
                _label(r),
                r.author,
                r.date.iso if r.date is not None else "",
                r.transport,
                r.is_draft,
            )
            for r in revisions
        )

    async def read(self, source_url: str, version: str) -> tuple[str, str]:
        """(label, text) of ``version``: ``active``, ``inactive`` or a version id."""
        if version in (ACTIVE, INACTIVE):
            source = await self._client.read_source(source_url, version=version)
            return f"{version} version", source.text
        revisions = await self._client.history.revisions(source_url)
        chosen = next((r for r in revisions if r.version_id == version), None)
        if chosen is None:
            known = [r.version_id for r in revisions]
            raise InvalidArgument(
                f"{source_url} has no version {version!r}; versions: {', '.join(known)}",
                versions=known,
            )
        return _label(chosen), (await self._client.history.read_revision(chosen)).text

    async def diff(self, source_url: str, against: str = ACTIVE) -> SourceDiff:
        """What changed from ``against`` (``active`` or a version id) to the current text
        (the inactive draft when there is one)."""
        label, base = await self.read(source_url, against)
        current = await self._client.read_source(source_url)
        return unified_diff(source_url, label, base, current.text)


__all__ = ["History", "InactiveEntry", "SourceDiff", "VersionEntry", "unified_diff"]
