"""Plain records of the transport organizer's tables, for tests (``transport_requests``)."""

from __future__ import annotations

from dataclasses import dataclass

from .cts import Entry, Request, Task


@dataclass(frozen=True)
class TransportObjectRecord:
    """One recorded object: ``R3TR PROG ZDEMO_TR_REPORT``."""

    pgmid: str
    type: str
    name: str


@dataclass(frozen=True)
class TransportTaskRecord:
    """A task; ``type`` is ``Unclassified``, ``Development/Correction`` or ``Repair``."""

    number: str
    owner: str
    type: str
    status: str
    objects: tuple[TransportObjectRecord, ...]


@dataclass(frozen=True)
class TransportRequestRecord:
    """A request; ``status`` is ``D`` (modifiable) or ``R`` (released)."""

    number: str
    owner: str
    text: str
    type: str
    status: str
    tasks: tuple[TransportTaskRecord, ...]

    @property
    def objects(self) -> tuple[TransportObjectRecord, ...]:
        """Every object recorded in any task."""
        return tuple(obj for task in self.tasks for obj in task.objects)


def _objects(entries: list[Entry]) -> tuple[TransportObjectRecord, ...]:
    return tuple(TransportObjectRecord(e.pgmid, e.type, e.name) for e in entries)


def _task(task: Task) -> TransportTaskRecord:
    return TransportTaskRecord(
        task.number, task.owner, task.type_text, task.status, _objects(task.entries)
    )


def request_record(request: Request) -> TransportRequestRecord:
    return TransportRequestRecord(
        request.number,
        request.owner,
        request.text,
        request.function,
        request.status,
        tuple(_task(t) for t in request.tasks),
    )
