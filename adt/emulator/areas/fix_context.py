"""What the quick fixes know besides the posted text: the sources related to it (the other
includes of a class, its superclasses and interfaces, the programs it includes, the rest of a
function group), and how an answer names the object. Stored sources are read, never changed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..model import ADT, CLAS, FINC, FUNC, INTF, RepoObject, encode_name
from ..state import SystemState

_INCLUDE = re.compile(r"^\s*INCLUDE\s+([\w/]+)\s*\.", re.IGNORECASE | re.MULTILINE)
_SUPERCLASS = re.compile(r"\bINHERITING\s+FROM\s+([\w/]+)", re.IGNORECASE)
_INTERFACES = re.compile(r"\bINTERFACES\s*:?\s+([\w/]+)", re.IGNORECASE)
_KINDS_BY_PATH = (
    ("/programs/programs/", "PROG/P"),
    ("/programs/includes/", "PROG/I"),
    ("/oo/classes/", "CLAS/OC"),
    ("/oo/interfaces/", "INTF/OI"),
    ("/fmodules/", "FUGR/FF"),
    ("/functions/groups/", "FUGR/I"),
)
_LIMIT = 50  # related sources at most: enough for any sample, bounded for any input


@dataclass(frozen=True)
class SourceFacts:
    """The posted source: its URI, text, related texts, object type and selection name."""

    uri: str
    text: str
    related: tuple[str, ...]
    object_type: str
    selection_name: str


def _text(obj: RepoObject, part: str = "main") -> str | None:
    unit = obj.parts.get(part)
    picked = unit.pick(None) if unit is not None else None
    return picked[0].text if picked is not None else None


def _all_parts(obj: RepoObject, skip: str | None = None) -> list[str]:
    return [t for u in obj.ordered_parts() if u.part != skip if (t := _text(obj, u.part))]


class _Collector:
    def __init__(self, state: SystemState) -> None:
        self.state = state
        self.seen: set[str] = set()
        self.texts: list[str] = []

    def add(self, obj: RepoObject | None, skip: str | None = None) -> None:
        if obj is None or obj.uri in self.seen or len(self.texts) >= _LIMIT:
            return
        self.seen.add(obj.uri)
        self.texts += _all_parts(obj, skip)

    def find(self, collection: str, name: str) -> RepoObject | None:
        return self.state.objects.get(f"{ADT}/{collection}/{encode_name(name.upper())}")

    def follow(self, texts: Iterable[str]) -> None:
        """Add what ``texts`` include and inherit from, and what those include, …"""
        pending = list(texts)
        while pending and len(self.texts) < _LIMIT:
            text = pending.pop()
            before = len(self.texts)
            for name in _INCLUDE.findall(text):
                self.add(
                    self.find("programs/includes", name) or self.find("programs/programs", name)
                )
            for name in _SUPERCLASS.findall(text):
                self.add(self.find("oo/classes", name))
            for name in _INTERFACES.findall(text):
                self.add(self.find("oo/interfaces", name))
            pending += self.texts[before:]


def _related(state: SystemState, obj: RepoObject, part: str, text: str) -> list[str]:
    collector = _Collector(state)
    collector.add(obj, skip=part)
    if obj.kind in (FUNC, FINC):
        collector.add(state.group_of(obj))
        for other in list(state.objects.values()):
            if other.group == obj.group and other.kind in (FUNC, FINC):
                collector.add(other)
    collector.follow([text, *collector.texts])
    return collector.texts


def _object_type(uri: str) -> str:
    for marker, code in _KINDS_BY_PATH:
        if marker in uri.lower():
            return code
    return ""


def _selection_name(obj: RepoObject, part: str) -> str:
    """The object name padded to 40, then its include (A4H 805: program name twice)."""
    if obj.kind is CLAS:
        include = obj.include_name(part)
    elif obj.kind is INTF:
        include = obj.name.ljust(30, "=") + "IP"
    else:
        include = obj.name
    return obj.name.ljust(40) + include


def facts(state: SystemState, uri: str, text: str) -> SourceFacts:
    """The facts of a posted source (an unknown object has no related sources)."""
    with state.lock:
        resolved = state.resolve(uri)
        if resolved is None:
            name = uri.rstrip("/").split("/source/")[0].rsplit("/", 1)[-1].upper()
            return SourceFacts(uri, text, (), _object_type(uri), name.ljust(40) + name)
        obj, part = resolved
        part = part or "main"
        related = tuple(_related(state, obj, part, text))
        return SourceFacts(uri, text, related, obj.kind.code, _selection_name(obj, part))
