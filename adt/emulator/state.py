"""The emulated system: repository, lock table, sessions and request log.

Everything mutable lives here behind one re-entrant lock, because tests touch the
state from their own thread while uvicorn serves from another.  Methods raise
:class:`~adt.emulator.errors.AdtException` for protocol refusals and
:class:`EmulatorError` for misuse of the Python API.
"""

from __future__ import annotations

import collections
import fnmatch
import hashlib
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import unquote

from . import errors, stamps
from .activation import plan
from .cts import TransportOrganizer
from .documents import CheckMessage, ObjectView, PartView, Reference
from .dumps import DumpLog
from .kinds import REGISTRY
from .model import (
    ADT,
    FINC,
    FUGR,
    FUNC,
    Kind,
    Package,
    RepoObject,
    SourceUnit,
    Version,
    encode_name,
)
from .revisions import RevisionLog, recording_request
from .sessions import Context, SessionManager
from .text import first_long_line


class EmulatorError(Exception):
    """A Python-API call the emulator refuses (unknown object, lock held, …)."""


@dataclass(frozen=True)
class LockEntry:
    """One enqueue lock: which object, whose, which handle, which context."""

    object_uri: str
    user: str
    handle: str
    context_id: str


@dataclass(frozen=True)
class RequestLogEntry:
    """One request as the emulator saw it (never with credentials)."""

    method: str
    path: str
    query: str
    status: int
    session_type: str | None
    user: str | None
    context_id: str | None = None


@dataclass(frozen=True)
class ActivationRun:
    """What an activation did: messages (errors) and whether anything ran."""

    messages: list[CheckMessage]
    activated: bool
    #: Names in the order they were activated (what an object builds on first).
    order: tuple[str, ...] = ()


def lock_handle(context_id: str, object_uri: str) -> str:
    """40 upper-case hex; stable per (context, object) like A4H's re-lock (``106``)."""
    return hashlib.sha1(f"{context_id}|{object_uri}".encode()).hexdigest().upper()


def _decode(segment: str) -> str:
    return unquote(segment).upper()


class SystemState:
    """All mutable emulator state, guarded by :attr:`lock`."""

    def __init__(
        self,
        *,
        sid: str,
        client: str,
        users: dict[str, str],
        idle_timeout: float,
        activation_style: str,
    ) -> None:
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        """Notified after every request the system processed (tests wait on it)."""
        self.sid = sid
        self.client = client
        self.users = users
        self.activation_style = activation_style
        self.objects: dict[str, RepoObject] = {}
        self.packages: dict[str, Package] = {}
        self.locks: dict[str, LockEntry] = {}
        self.sessions = SessionManager(sid, idle_timeout)
        self.request_log: list[RequestLogEntry] = []
        self.cts = TransportOrganizer(self)
        self.revisions = RevisionLog()
        self.dumps = DumpLog()
        #: Prefix of the where-used namespace: ``usageReferences`` (S/4 758, the form
        #: abap-adt-api reads) or ``usagereferences`` (A4H, BTP trial); same namespace URI.
        self.where_used_prefix = "usageReferences"
        #: Seeded table contents (table name → rows) the data preview reads.
        self.table_rows: dict[str, list[dict[str, str]]] = {}
        #: Told of each source text a client reads, with its object (under the lock): code
        #: intelligence prepares long programs' indexes (``intelligence.prepared``).
        self.source_read: list[Callable[[RepoObject, str], None]] = []

    # repository ------------------------------------------------------------------------
    def add_package(self, package: Package) -> None:
        with self.lock:
            self.packages.setdefault(package.name, package)

    def add_object(self, obj: RepoObject) -> None:
        with self.lock:
            if obj.package not in self.packages:
                self.packages[obj.package] = Package(
                    obj.package, responsible=obj.responsible, created_at=obj.created_at
                )
            self.objects[obj.uri] = obj

    def find(self, uri: str) -> RepoObject | None:
        """The object at an object URI (any case, encoded or not)."""
        resolved = self.resolve(uri)
        return resolved[0] if resolved else None

    def resolve(self, path: str) -> tuple[RepoObject, str | None] | None:
        """Map a URI to ``(object, part)``; ``part`` is ``None`` for the object itself.

        Accepts the object URI, ``…/source/main`` and ``…/includes/<part>``; a
        query string or fragment is ignored.  Unknown objects give ``None``.
        """
        parsed = self.parse_path(path)
        if parsed is None:
            return None
        key, part, _rest = parsed
        with self.lock:
            obj = self.objects.get(key)
        if obj is None:
            return None
        return obj, part

    def parse_path(self, path: str) -> tuple[str, str | None, str] | None:
        """Split a path into (canonical object URI, part, remaining suffix)."""
        path = path.split("?", 1)[0].split("#", 1)[0]
        prefix = ADT + "/"
        if not path.startswith(prefix):
            return None
        rest = path[len(prefix) :]
        segments = rest.split("/")
        key: str | None = None
        tail: list[str] = []
        depth = 2
        if rest.lower().startswith("functions/groups/") and len(segments) >= 3:
            group = encode_name(_decode(segments[2]))
            key = f"{FUGR.collection}/{group}"
            tail = segments[3:]
            if len(tail) >= 2 and tail[0].lower() in ("fmodules", "includes"):
                key = f"{key}/{tail[0].lower()}/{encode_name(_decode(tail[1]))}"
                tail = tail[2:]
        else:
            kind = REGISTRY.kind_for_path(rest)
            if kind is not None:
                depth = kind.collection.count("/") - ADT.count("/")
                if len(segments) > depth:
                    key = f"{kind.collection}/{encode_name(_decode(segments[depth]))}"
                    tail = segments[depth + 1 :]
        if key is None or not all(segments[: depth + 1]):
            return None
        lowered = [t.lower() for t in tail]
        if lowered == [] or lowered == [""]:
            return key, None, ""
        if lowered == ["source", "main"]:
            return key, "main", ""
        if len(lowered) == 2 and lowered[0] == "includes":
            return key, lowered[1], ""
        return key, None, "/".join(lowered)

    def group_of(self, obj: RepoObject) -> RepoObject | None:
        if obj.group is None:
            return None
        with self.lock:
            return self.objects.get(f"{FUGR.collection}/{encode_name(obj.group)}")

    def view(self, obj: RepoObject, version: str | None) -> ObjectView | None:
        """The object as the metadata document shows it in ``version``."""
        with self.lock:
            parts: list[PartView] = []
            main_text = ""
            for unit in obj.ordered_parts():
                picked = unit.pick(version)
                if picked is None:
                    continue
                chosen, active = picked
                parts.append(PartView(unit.part, chosen.changed_at, chosen.changed_by, active))
                if unit.part == "main":
                    main_text = chosen.text
            if not parts:
                return None
            return ObjectView(obj, parts, self.sid, main_text)

    # locks -----------------------------------------------------------------------------
    def lock_object(self, obj: RepoObject, context: Context) -> LockEntry:
        """Enqueue ``obj`` for ``context``; EU/510 if anyone (even it) holds it."""
        with self.lock:
            held = self.locks.get(obj.uri)
            if held is not None:
                raise errors.lock_conflict(held.user, obj.name)
            info = LockEntry(obj.uri, context.user, lock_handle(context.id, obj.uri), context.id)
            self.locks[obj.uri] = info
            return info

    def unlock_object(self, obj: RepoObject, handle: str, context: Context | None) -> None:
        """Release if handle and context match; silently do nothing otherwise (§4.4)."""
        with self.lock:
            held = self.locks.get(obj.uri)
            if held is None or context is None:
                return
            if held.context_id == context.id and held.handle == handle:
                del self.locks[obj.uri]

    def require_lock(
        self, obj: RepoObject, handle: str | None, context: Context | None, user: str
    ) -> LockEntry:
        """The lock ``context`` holds on ``obj`` under ``handle``; 400/423 otherwise."""
        if handle is None:
            raise errors.parameter_missing("lockHandle")
        with self.lock:
            held = self.locks.get(obj.uri)
            if held is None or context is None:
                raise errors.invalid_lock_handle(obj.kind.lock_word, obj.name, handle, user)
            if held.context_id != context.id or held.handle != handle:
                raise errors.invalid_lock_handle(obj.kind.lock_word, obj.name, handle, user)
            return held

    def drop_context_locks(self, context_id: str) -> None:
        with self.lock:
            for uri in [u for u, info in self.locks.items() if info.context_id == context_id]:
                del self.locks[uri]

    def end_context(self, context_id: str) -> None:
        """End a stateful context; its locks go with it."""
        with self.lock:
            self.sessions.kill_context(context_id)
            self.drop_context_locks(context_id)

    def expire_idle(self) -> None:
        with self.lock:
            for context_id in self.sessions.expired_contexts():
                self.end_context(context_id)

    def close_session(self, session_id: str) -> None:
        with self.lock:
            for context_id in self.sessions.close_session(session_id):
                self.drop_context_locks(context_id)

    # writes ----------------------------------------------------------------------------
    def _store(self, obj: RepoObject, unit: SourceUnit, text: str, user: str) -> Version:
        stored = obj.stored(text)
        stamp = stamps.next_stamp(unit.last_stamp or None)
        unit.last_stamp = stamp
        unit.inactive = Version(stored, stamp, user)
        return unit.inactive

    def put_source(
        self,
        obj: RepoObject,
        part: str,
        text: str,
        handle: str | None,
        context: Context | None,
        user: str,
    ) -> Version:
        """A PUT from the wire: the calling context must hold the lock with ``handle``."""
        with self.lock:
            self.require_lock(obj, handle, context, user)
            line = first_long_line(text) if obj.kind.language == "abap" else None
            if line is not None:
                raise errors.line_too_long(line)
            unit = obj.parts.get(part)
            if unit is None:
                raise errors.save_failure(
                    f"{obj.include_name(part)} does not have any inactive version"
                )
            return self._store(obj, unit, text, user)

    def write_as(self, user: str, source_uri: str, text: str) -> Version:
        """Another actor saves a source (refused while someone else holds the lock)."""
        with self.lock:
            obj, part = self._source(source_uri)
            held = self.locks.get(obj.uri)
            if held is not None and held.user != user:
                raise EmulatorError(f"{obj.name} is locked by {held.user}")
            if first_long_line(text) is not None:
                raise EmulatorError("a line exceeds 255 characters")
            return self._store(obj, obj.parts[part], text, user)

    def _source(self, source_uri: str) -> tuple[RepoObject, str]:
        resolved = self.resolve(source_uri)
        if resolved is None or resolved[1] is None or resolved[1] not in resolved[0].parts:
            raise EmulatorError(f"no such source: {source_uri}")
        return resolved[0], resolved[1]

    def source_text(self, source_uri: str, version: str) -> str | None:
        """Stored text (LF-joined) of a source URI, or ``None``."""
        with self.lock:
            resolved = self.resolve(source_uri)
            if resolved is None:
                return None
            obj, part = resolved
            unit = obj.parts.get(part or "main")
            if unit is None:
                return None
            picked = unit.pick("active" if version == "active" else "inactive")
            return picked[0].text if picked else None

    # activation ------------------------------------------------------------------------
    def activate(self, objects: Iterable[RepoObject]) -> ActivationRun:
        """Check and activate; raises EU/510 while any context holds a lock."""
        with self.lock:
            targets = list({obj.uri: obj for obj in objects}.values())
            for obj in targets:
                held = self.locks.get(obj.uri)
                if held is not None:
                    raise errors.activation_locked(held.user, obj.name, obj.uri)
            pending = [o for o in targets if o.is_inactive]
            if not pending:
                return ActivationRun([], activated=False)
            ordered = plan(self, pending)
            messages: list[CheckMessage] = list(ordered.messages)
            for obj in ordered.order:
                messages += self.check_object(obj, "inactive")
            if any(m.severity in ("E", "A", "X") for m in messages):
                return ActivationRun(messages, activated=False)
            for obj in ordered.order:
                self._activate_now(obj)
            return ActivationRun(messages, True, tuple(obj.name for obj in ordered.order))

    def _activate_now(self, obj: RepoObject) -> None:
        for unit in obj.parts.values():
            if unit.inactive is not None:
                self.revisions.activated(obj, unit, recording_request(self, obj))
                unit.active = unit.inactive
                unit.inactive = None

    def activate_all(self) -> int:
        """Activate every inactive object without checks; returns how many."""
        with self.lock:
            pending = [o for o in self.objects.values() if o.is_inactive]
            for obj in pending:
                self._activate_now(obj)
            return len(pending)

    def check_object(
        self, obj: RepoObject, version: str, overrides: dict[str, str] | None = None
    ) -> list[CheckMessage]:
        """Run the kind's checks over every part of ``obj`` in ``version`` (for ABAP: block
        structure first, the semantic checks of :mod:`.syntax` when the structure is sound)."""
        overrides = overrides or {}
        texts: dict[str, str] = {}
        with self.lock:
            for unit in obj.ordered_parts():
                if unit.part in overrides:
                    texts[unit.part] = overrides[unit.part]
                    continue
                picked = unit.pick(version)
                if picked is not None:
                    texts[unit.part] = picked[0].text
            findings = REGISTRY.module(obj.kind).check_object(obj, texts, self, version)
        return [
            CheckMessage(
                uri=obj.source_uri(part),
                line=finding.line,
                column=finding.column,
                end_column=finding.end_column,
                text=finding.message,
                severity=finding.severity,
                obj_descr=f"{obj.kind.label} {obj.name}",
            )
            for part, finding in findings
        ]

    # search and trees ------------------------------------------------------------------
    def search(self, query: str, max_results: int, object_type: str | None) -> list[Reference]:
        """Quick search: ``*`` wildcards, case-insensitive, like A4H (§7.3)."""
        pattern = query.upper()
        wanted = object_type.upper() if object_type else None
        hits: list[Reference] = []
        with self.lock:
            candidates: list[tuple[str, str, str, str | None, str | None]] = []
            for obj in self.objects.values():
                if obj.kind is FINC:
                    continue
                if wanted is not None:
                    if "/" in wanted:
                        if obj.kind.code != wanted:
                            continue
                    elif obj.kind.code.split("/")[0] != wanted or obj.kind is FUNC:
                        continue
                description: str | None = obj.description
                if wanted == FUNC.code:
                    description = None  # A4H 848 drops it for objectType=FUGR/FF
                candidates.append((obj.name, obj.kind.code, obj.uri, obj.package, description))
            if wanted in (None, "DEVC", "DEVC/K"):
                for pkg in self.packages.values():
                    candidates.append((pkg.name, "DEVC/K", pkg.uri, pkg.name, pkg.description))
        for name, code, uri, package, description in sorted(candidates):
            if fnmatch.fnmatchcase(name, pattern.replace("[", "[[]")):
                hits.append(Reference(uri, code, name, package, description))
                if len(hits) >= max_results:
                    break
        return hits

    def package_objects(self, package: str) -> dict[Kind, list[RepoObject]]:
        """R3TR objects of a package grouped by kind, sorted by name."""
        grouped: dict[Kind, list[RepoObject]] = collections.defaultdict(list)
        with self.lock:
            for obj in self.objects.values():
                if obj.package == package and obj.kind.tree_node_id:
                    grouped[obj.kind].append(obj)
        return {k: sorted(v, key=lambda o: o.name) for k, v in grouped.items()}

    # request log -----------------------------------------------------------------------
    def log(self, entry: RequestLogEntry) -> None:
        with self.lock:
            self.request_log.append(entry)

    def object_uris(self) -> list[str]:
        with self.lock:
            return sorted(self.objects)

    def lock_list(self) -> list[LockEntry]:
        with self.lock:
            return list(self.locks.values())


__all__ = [
    "ActivationRun",
    "EmulatorError",
    "LockEntry",
    "RequestLogEntry",
    "SystemState",
    "lock_handle",
]
