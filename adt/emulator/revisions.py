"""Version management: the revisions of every source unit and the users' inactive objects.

SAP keeps released versions of each source unit (table VRSD) and lists them in an Atom feed
(docs/protocol/versions.md). The emulator keeps a small history per source unit, recorded
when a unit is activated: the seeded (or first) active text and every activated text after
it. Numbering follows SAP's convention, newest first: ``99999`` is the inactive version while
one exists, ``00000`` the current active version, ``00001``, ``00002``, … the older ones
(higher = newer), so on each activation the previous ``00000`` becomes the next number.

The inactive-objects list (docs/protocol/inactive-objects.md) needs no history of its own: a
unit with an inactive version *is* an inactive object, owned by the user who saved it.
"""

from __future__ import annotations

from dataclasses import dataclass
from threading import RLock
from typing import Protocol

from .cts import TransportOrganizer
from .documents.history import InactiveRow
from .model import CLAS, FINC, FUNC, RepoObject, SourceUnit, Version


class RecordingSystem(Protocol):
    """What the version log reads of the system (the state provides it; named here so this
    module need not import the state)."""

    lock: RLock
    objects: dict[str, RepoObject]
    cts: TransportOrganizer


DRAFT = "99999"
ACTIVE = "00000"


@dataclass(frozen=True)
class Revision:
    """One version of a source unit's text: who wrote it, when, in which request."""

    text: str
    author: str
    changed_at: int
    transport: str | None


@dataclass(frozen=True)
class NumberedRevision:
    """A revision with the number SAP gives it in the feed (``99999``, ``00000``, …)."""

    number: str
    revision: Revision


def _revision(version: Version, transport: str | None) -> Revision:
    return Revision(version.text, version.changed_by, version.changed_at, transport)


class RevisionLog:
    """The activated texts of every source unit, oldest first, keyed by (object URI, part).

    A unit's active text is always its newest revision: a seeded unit nobody has activated
    yet has it as its only one. Histories outlive a deletion, as SAP's version database
    does, so a re-created object lists the old versions below its own.
    """

    def __init__(self) -> None:
        self._units: dict[tuple[str, str], list[Revision]] = {}

    def _history(self, obj: RepoObject, unit: SourceUnit) -> list[Revision]:
        history = self._units.setdefault((obj.uri, unit.part), [])
        active = unit.active
        if active is not None and not (
            history
            and (history[-1].changed_at, history[-1].text) == (active.changed_at, active.text)
        ):
            history.append(_revision(active, None))
        return history

    def activated(self, obj: RepoObject, unit: SourceUnit, transport: str | None) -> None:
        """Record ``unit``'s inactive text as its newest revision (call before the switch)."""
        if unit.inactive is not None:
            self._history(obj, unit).append(_revision(unit.inactive, transport))

    def numbered(
        self, obj: RepoObject, unit: SourceUnit, draft_transport: str | None = None
    ) -> list[NumberedRevision]:
        """The unit's revisions newest first, numbered as the feed shows them (``00000`` only
        while the unit has an active version)."""
        history = self._history(obj, unit)
        entries: list[NumberedRevision] = []
        if unit.inactive is not None:
            entries.append(NumberedRevision(DRAFT, _revision(unit.inactive, draft_transport)))
        newest = len(history) - 1
        for index in range(newest, -1, -1):
            current = index == newest and unit.active is not None
            entries.append(
                NumberedRevision(ACTIVE if current else f"{index + 1:05d}", history[index])
            )
        return entries


def recording_request(state: RecordingSystem, obj: RepoObject) -> str | None:
    """The modifiable request ``obj`` is recorded in (None: local, or in no request)."""
    held = state.cts.holder(obj)
    return held.request.number if held is not None else None


def _entry_identity(obj: RepoObject, part: str) -> tuple[str, str, str | None]:
    """``(uri, type, parentUri)`` of a unit the way the inactive list names it: a class
    include under its class, a function module or group include under its group."""
    if obj.kind is CLAS:
        if part == "main":
            return obj.uri, CLAS.code, None
        return f"{obj.uri}/includes/{part}", f"CLAS/OCN/{part}", obj.uri
    if obj.kind in (FUNC, FINC):
        return obj.uri, obj.kind.code, obj.uri.rsplit("/", 2)[0]
    return obj.uri, obj.kind.code, None


def _main_first(obj: RepoObject) -> list[SourceUnit]:
    return sorted(obj.ordered_parts(), key=lambda unit: unit.part != "main")


def inactive_entries(state: RecordingSystem, user: str) -> list[InactiveRow]:
    """``user``'s inactive source units, one entry each (a class's includes on their own)."""
    entries: list[InactiveRow] = []
    with state.lock:
        for key in sorted(state.objects):
            obj = state.objects[key]
            for unit in _main_first(obj):
                if unit.inactive is None or unit.inactive.changed_by != user:
                    continue
                uri, code, parent = _entry_identity(obj, unit.part)
                entries.append(
                    InactiveRow(
                        uri=uri,
                        type=code,
                        name=obj.name,
                        parent_uri=parent,
                        description=(obj.description or None) if parent is None else None,
                        user=user,
                        package=obj.package,
                        transport=recording_request(state, obj),
                    )
                )
    return entries


__all__ = [
    "ACTIVE",
    "DRAFT",
    "NumberedRevision",
    "Revision",
    "RevisionLog",
    "inactive_entries",
    "recording_request",
]
