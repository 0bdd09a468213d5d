"""The transport organizer's tables: requests, their tasks and the objects recorded in them.

A4H's rules, as the captures in ``a4h/cts`` show them:

* Requests (type ``K``) and tasks share one number range, ``<SID>K9NNNNN``.  A new request
  has one task for its owner, *unclassified* until the first object is recorded in it.
* An object recorded in any task of a **modifiable** request is locked in that request
  (a CTS lock, not an enqueue lock): a lock result names the request (``CORRNR``), a write
  with another request is refused (CTS_WBO_API/020), and the request cannot be deleted.
* Objects in ``$`` packages are never recorded; ``corrNr`` is silently ignored for them.
* A change in a transportable package needs a request: without ``corrNr`` and without a
  request already holding the object, A4H answers 400 "Parameter corrNr could not be found."
  (capture ``enhancement/183``) — or, with :attr:`TransportOrganizer.generate_requests`,
  books it into a new "Generated Request for Change Recording" as A4H did for programs.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from . import errors, stamps
from .cts_search import SearchConfigurations
from .model import (
    CLAS,
    FINC,
    FUGR,
    FUNC,
    INCL,
    INTF,
    PROG,
    Kind,
    RepoObject,
    Repository,
    encode_name,
)

GENERATED_TEXT = "Generated Request for Change Recording"
TASK_TYPES = {"": "Unclassified", "S": "Development/Correction", "R": "Repair"}

#: (pgmid, type, object-info text) an object is recorded under, by kind (E071).
_RECORD_KEYS: dict[Kind, tuple[str, str, str]] = {
    CLAS: ("R3TR", "CLAS", "Class (ABAP Objects)"),
    INTF: ("R3TR", "INTF", "Interface (ABAP Objects)"),
    PROG: ("R3TR", "PROG", "Program"),
    INCL: ("R3TR", "PROG", "Program"),
    FUGR: ("R3TR", "FUGR", "Function Group"),
    FUNC: ("LIMU", "FUNC", "Function Module"),
    FINC: ("LIMU", "REPS", "Report source code"),
}

#: The key a transport check reports an object under (A4H: a program is ``LIMU REPS``).
_CHECK_KEYS: dict[Kind, tuple[str, str]] = {
    CLAS: ("R3TR", "CLAS"),
    INTF: ("R3TR", "INTF"),
    PROG: ("LIMU", "REPS"),
    INCL: ("LIMU", "REPS"),
    FUGR: ("R3TR", "FUGR"),
    FUNC: ("LIMU", "FUNC"),
    FINC: ("LIMU", "REPS"),
}


def check_key(kind: Kind) -> tuple[str, str]:
    """``(PGMID, OBJECT)`` of a transport check for an object of ``kind``."""
    return _CHECK_KEYS.get(kind, ("R3TR", kind.r3tr))


def is_customer_name(name: str) -> bool:
    """Customer name range: ``Y…``, ``Z…`` or a ``/NAMESPACE/``."""
    return name[:1] in ("Y", "Z") or name.startswith("/")


@dataclass
class Entry:
    """One recorded object (an E071 row)."""

    pgmid: str
    type: str
    name: str
    wbtype: str
    info: str

    @property
    def key(self) -> tuple[str, str, str]:
        return self.pgmid, self.type, self.name


def entry_for(obj: RepoObject) -> Entry:
    """The row a change of ``obj`` is recorded as."""
    pgmid, type_, info = _RECORD_KEYS.get(obj.kind, ("R3TR", obj.kind.r3tr, obj.kind.label))
    return Entry(pgmid, type_, obj.name, obj.kind.code, info)


def comment_entry(task: Task, user: str) -> Entry:
    """The ``CORR RELE`` comment a released task leaves in its request."""
    when = time.gmtime(task.released_at or task.changed)
    stamp = time.strftime("%Y%m%d %H%M%S", when)
    name = f"{task.number} {stamp} {user}"
    return Entry("CORR", "RELE", name, "", "Comment Entry: Released")


@dataclass
class Task:
    """A task of a request, owned by one user."""

    number: str
    parent: str
    owner: str
    text: str
    created: int
    changed: int
    function: str = ""
    status: str = "D"
    released_at: int | None = None
    entries: list[Entry] = field(default_factory=list)

    @property
    def type_text(self) -> str:
        return TASK_TYPES.get(self.function, self.function)

    @property
    def modifiable(self) -> bool:
        return self.status == "D"


@dataclass
class Request:
    """A change request with its tasks (and, once released, the objects it transports)."""

    number: str
    owner: str
    text: str
    created: int
    changed: int
    function: str = "K"
    status: str = "D"
    target: str = ""
    tasks: list[Task] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)

    @property
    def modifiable(self) -> bool:
        return self.status == "D"

    def holds(self, key: tuple[str, str, str]) -> tuple[Task, Entry] | None:
        """The task entry recording ``key``, if any."""
        for task in self.tasks:
            for entry in task.entries:
                if entry.key == key:
                    return task, entry
        return None

    def users(self) -> set[str]:
        return {self.owner} | {task.owner for task in self.tasks}


@dataclass(frozen=True)
class Holder:
    """Where an object is locked: the modifiable request, the task and the row."""

    request: Request
    task: Task
    entry: Entry


@dataclass
class Booking:
    """A checked, not yet applied recording of an object change (see :meth:`apply`)."""

    organizer: TransportOrganizer
    entry: Entry
    user: str
    request: Request | None

    def apply(self) -> Request:
        """Record the change: in the given request, or in a newly generated one."""
        request = self.request or self.organizer.create_request(GENERATED_TEXT, self.user)
        self.organizer.record(request, self.user, self.entry)
        return request


@dataclass(frozen=True)
class ReleaseMessage:
    """One message of a release report, with its T100 key for the long-text link."""

    text: str
    area: str
    number: str
    variables: tuple[str, ...]


@dataclass(frozen=True)
class ReleaseOutcome:
    """What a release did; ``started`` is ``None`` when it never started (A4H: ``"0 "``)."""

    number: str
    status: str
    started: int | None
    messages: tuple[ReleaseMessage, ...]

    @property
    def released(self) -> bool:
        return self.status == "released"


def _already_released(number: str) -> ReleaseMessage:
    text = f"Request/task {number} already released (not modifiable)"
    return ReleaseMessage(text, "TR", "768", (number,))


def _refused(number: str, started: int | None, message: ReleaseMessage) -> ReleaseOutcome:
    return ReleaseOutcome(number, "abortrelapifail", started, (message,))


def _tm_error(message: str) -> errors.AdtException:
    return errors.AdtException(400, "ADT_TM_COMMON_EXCEPTION", message, namespace="com.sap.adt.tm")


def _no_authorization(message: str) -> errors.AdtException:
    return errors.AdtException(403, "ExceptionResourceNoAuthorization", message)


class TransportOrganizer:
    """The request table of one system. Not thread-safe: callers hold the state lock."""

    def __init__(self, state: Repository) -> None:
        self._state = state
        self.requests: dict[str, Request] = {}
        self.generate_requests = False
        self.configurations = SearchConfigurations()
        self._numbers = itertools.count(101)

    # numbers and lookup ---------------------------------------------------------------
    def _next_number(self) -> str:
        return f"{self._state.sid}K9{next(self._numbers):05d}"

    def lookup(self, number: str) -> tuple[Request, Task | None] | None:
        """``(request, None)`` for a request number, ``(request, task)`` for a task number."""
        wanted = number.strip().upper()
        request = self.requests.get(wanted)
        if request is not None:
            return request, None
        for request in self.requests.values():
            for task in request.tasks:
                if task.number == wanted:
                    return request, task
        return None

    def holder(self, obj: RepoObject) -> Holder | None:
        """The modifiable request ``obj`` is locked in (a module also by its group)."""
        keys = [entry_for(obj).key]
        if obj.kind in (FUNC, FINC) and obj.group is not None:
            keys.append(("R3TR", "FUGR", obj.group))
        for request in self.requests.values():
            if not request.modifiable:
                continue
            for key in keys:
                found = request.holds(key)
                if found is not None:
                    return Holder(request, *found)
        return None

    def lock_fields(self, obj: RepoObject) -> tuple[str, str, str]:
        """``CORRNR``, ``CORRUSER``, ``CORRTEXT`` of a lock result."""
        held = self.holder(obj)
        if held is None:
            return "", "", ""
        return held.request.number, held.request.owner, held.request.text

    # changes --------------------------------------------------------------------------
    def create_request(self, text: str, owner: str, *, target: str = "") -> Request:
        """A new modifiable workbench request with one unclassified task for ``owner``."""
        now = stamps.now_seconds()
        request = Request(self._next_number(), owner, text, now, now, target=target)
        self._add_task(request, owner)
        self.requests[request.number] = request
        return request

    def _add_task(self, request: Request, owner: str) -> Task:
        now = stamps.now_seconds()
        task = Task(self._next_number(), request.number, owner, request.text, now, now)
        request.tasks.append(task)
        return task

    def add_task(self, number: str, owner: str) -> Task:
        """A new task for ``owner`` in request ``number``."""
        found = self.lookup(number)
        if found is None or found[1] is not None:
            raise _tm_error(f"Request {number.upper()} does not exist in system {self._state.sid}")
        return self._add_task(found[0], owner)

    def record(self, request: Request, user: str, entry: Entry) -> None:
        """Record ``entry`` in ``user``'s modifiable task of ``request`` (created if needed)."""
        if request.holds(entry.key) is not None:
            return
        task = next((t for t in request.tasks if t.owner == user and t.modifiable), None)
        if task is None:
            task = self._add_task(request, user)
        task.entries.append(entry)
        if not task.function:
            task.function = "S"
        task.changed = request.changed = stamps.now_seconds()

    def book(self, obj: RepoObject, corr_nr: str | None, user: str) -> Booking | None:
        """Check a change of ``obj`` (create, write, delete) against the request table.

        ``None``: nothing to record (local package, or already locked in a request).
        Raises the refusals A4H answers with.
        """
        package = self._state.packages.get(obj.package)
        if obj.package.startswith("$") or (package is not None and package.is_local):
            return None
        held = self.holder(obj)
        if corr_nr:
            return self._book_into(obj, corr_nr, user, held)
        if held is not None:
            return None
        if self.generate_requests:
            return Booking(self, entry_for(obj), user, None)
        raise errors.AdtException(
            400, "ExceptionParameterNotFound", "Parameter corrNr could not be found."
        )

    def _book_into(
        self, obj: RepoObject, corr_nr: str, user: str, held: Holder | None
    ) -> Booking | None:
        number = corr_nr.strip().upper()
        if held is not None:
            # The lock decides first: A4H refused a write naming another (even made-up) number.
            if number in (held.request.number, *(t.number for t in held.request.tasks)):
                return None
            raise _locked_elsewhere(held, number)
        found = self.lookup(number)
        if found is None:
            raise _no_authorization(
                f"Task/request {number} does not exist in system {self._state.sid}"
            )
        request, task = found
        if task is not None:
            raise _no_authorization(f"Request {number} is not a change request")
        if not request.modifiable:
            raise _no_authorization(f"Request/task {number} already released (not modifiable)")
        return Booking(self, entry_for(obj), user, request)

    def delete(self, number: str) -> None:
        """Delete a request or task; unknown numbers are ignored, as on A4H."""
        found = self.lookup(number)
        if found is None:
            return
        request, task = found
        targets = [task] if task is not None else request.tasks
        if (task or request).status != "D":
            raise _tm_error(f"Request/task {number.upper()} already released (not modifiable)")
        for candidate in targets:
            if candidate.entries:
                raise _tm_error(
                    f"Request/task {candidate.number} cannot be deleted because it contains "
                    "locked objects"
                )
        if task is not None:
            request.tasks.remove(task)
        else:
            del self.requests[request.number]

    def set_owner(self, number: str, owner: str) -> None:
        found = self.lookup(number)
        if found is None:
            raise _tm_error(
                f"Task/request {number.upper()} does not exist in system {self._state.sid}"
            )
        request, task = found
        (task or request).owner = owner

    # release --------------------------------------------------------------------------
    def release(self, number: str) -> ReleaseOutcome:
        """Release a task (its objects must be active) or a request (its tasks must be
        released). Refusals are outcomes, not errors: A4H answers them with 200."""
        found = self.lookup(number)
        if found is None:
            raise _tm_error(
                f"Task/request {number.upper()} does not exist in system {self._state.sid}"
            )
        request, task = found
        if task is not None:
            return self._release_task(task)
        return self._release_request(request)

    def _release_task(self, task: Task) -> ReleaseOutcome:
        number = task.number
        if not task.modifiable:
            return _refused(number, None, _already_released(number))
        if not task.function:
            text = f"Task {number} is unclassified (it cannot be released)"
            return _refused(number, None, ReleaseMessage(text, "TK", "494", (number,)))
        now = stamps.now_seconds()
        for entry in task.entries:
            obj = self.find_object(entry)
            if obj is not None and obj.is_inactive:
                object_type = check_key(obj.kind)[1]
                text = f"Object {object_type} {obj.name} is inactive"
                message = ReleaseMessage(text, "EU", "829", (object_type, obj.name))
                return ReleaseOutcome(number, "abortrelinacobj", now, (message,))
        task.status = "R"
        task.released_at = task.changed = now
        return ReleaseOutcome(number, "released", now, ())

    def _release_request(self, request: Request) -> ReleaseOutcome:
        number = request.number
        if not request.modifiable:
            return _refused(number, None, _already_released(number))
        now = stamps.now_seconds()
        waiting = [task for task in request.tasks if task.modifiable]
        if waiting:
            text = f"Referencing task {waiting[0].number} not yet released"
            message = ReleaseMessage(text, "TR", "732", (waiting[0].number,))
            return _refused(number, now, message)
        entries = [comment_entry(task, task.owner) for task in request.tasks]
        seen: set[tuple[str, str, str]] = set()
        for task in request.tasks:
            for entry in task.entries:
                if entry.key not in seen:
                    seen.add(entry.key)
                    entries.append(entry)
        request.entries = entries
        request.status = "R"
        request.changed = now
        return ReleaseOutcome(number, "released", now, ())

    # seeding --------------------------------------------------------------------------
    def record_seeded(self, objects: list[RepoObject], owner: str) -> None:
        """Seeded objects of transportable packages start locked in one request per package
        (as if abapGit had pulled them with a request)."""
        by_package: dict[str, list[RepoObject]] = {}
        for obj in objects:
            package = self._state.packages.get(obj.package)
            if package is not None and not package.is_local:
                by_package.setdefault(obj.package, []).append(obj)
        for name in sorted(by_package):
            request = self.create_request(GENERATED_TEXT, owner)
            for obj in sorted(by_package[name], key=lambda o: (o.kind.code, o.name)):
                self.record(request, owner, entry_for(obj))

    def description(self, entry: Entry) -> str | None:
        """The object's short text while it exists (A4H drops ``obj_desc`` after deletion)."""
        obj = self.find_object(entry)
        return obj.description if obj is not None else None

    def find_object(self, entry: Entry) -> RepoObject | None:
        """The repository object a row records, while it exists."""
        for obj in self._state.objects.values():
            if obj.name == entry.name and entry_for(obj).key == entry.key:
                return obj
        return None


def _locked_elsewhere(held: Holder, given: str) -> errors.AdtException:
    """500 CTS_WBO_API/020, the A4H ``write-error-object-already-locked…`` shape."""
    key = " ".join(held.entry.key)
    holder = held.request.number
    text = f"Object {key} is already locked in request {holder} of user {held.request.owner}"
    props = [
        ("corrNr", holder),
        *errors.t100("CTS_WBO_API", "020", key, given, holder, held.request.owner),
    ]
    return errors.AdtException(500, "ExceptionResourceSaveFailure", text, props)


def object_uri(entry: Entry) -> str | None:
    """The ADT URI of a recorded repository object, for the reference resource."""
    collections = {
        "CLAS": CLAS.collection,
        "INTF": INTF.collection,
        "PROG": PROG.collection,
        "FUGR": FUGR.collection,
    }
    base = collections.get(entry.type)
    if base is None:
        return None
    return f"{base}/{encode_name(entry.name)}"
