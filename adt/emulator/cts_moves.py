"""Moving objects between requests, and the lock check of a release.

A4H advertises, on every modifiable task, ``removeobject`` (``PUT`` on the task's URI,
"Remove Locked Object") and ``reassign``; on a request ``addobject`` ("Add Objects", ``PUT``
on the request's URI). The ``removeobject`` body is the one sapcli sends (``tm:root
tm:useraction="removeobject"`` with ``tm:request/tm:abap_object``); ``addobject`` takes the
same body with its own user action. Neither answer is recorded: both answer the
``tm:root`` acknowledgement a change of owner gets (``docs/emulator.md``).

A release (``newreleasejobs``) is refused while an object of the task, or of an open task of
the request, is locked for editing (an enqueue lock); ``relwithignlock`` releases anyway.
The message text and its T100 key are the emulator's (no capture has this refusal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import errors, stamps
from .cts import Entry, ReleaseMessage, ReleaseOutcome, Request, Task

if TYPE_CHECKING:
    from .state import SystemState


def _tm_error(message: str) -> errors.AdtException:
    return errors.AdtException(400, "ADT_TM_COMMON_EXCEPTION", message, namespace="com.sap.adt.tm")


def _modifiable(state: SystemState, number: str) -> tuple[Request, Task | None]:
    found = state.cts.lookup(number)
    if found is None:
        raise _tm_error(f"Task/request {number.upper()} does not exist in system {state.sid}")
    request, task = found
    if not (task or request).modifiable:
        raise _tm_error(f"Request/task {number.upper()} already released (not modifiable)")
    return request, task


def remove_objects(state: SystemState, number: str, keys: list[tuple[str, str, str]]) -> None:
    """Drop the rows of ``keys`` from task ``number`` (or from any task of request
    ``number``): the objects are no longer locked in that request."""
    request, task = _modifiable(state, number)
    tasks = [task] if task is not None else request.tasks
    for key in keys:
        holder = next((t for t in tasks if any(e.key == key for e in t.entries)), None)
        if holder is None:
            raise _tm_error(f"Object {' '.join(key)} is not contained in {number.upper()}")
        holder.entries = [e for e in holder.entries if e.key != key]
        holder.changed = request.changed = stamps.now_seconds()


def add_objects(
    state: SystemState, number: str, keys: list[tuple[str, str, str]], user: str
) -> None:
    """Record existing objects in ``user``'s task of request ``number``, refused (CTS_WBO_API
    /020) for an object still locked in another request, as a write with that corrNr is."""
    request, task = _modifiable(state, number)
    if task is not None:
        raise errors.AdtException(
            403, "ExceptionResourceNoAuthorization", f"Request {number} is not a change request"
        )
    for key in keys:
        obj = state.cts.find_object(Entry(*key, "", ""))
        if obj is None:
            raise _tm_error(f"Object {' '.join(key)} does not exist in system {state.sid}")
        booking = state.cts.book(obj, request.number, user)
        if booking is not None:
            booking.apply()


def locked_refusal(state: SystemState, number: str) -> ReleaseOutcome | None:
    """The refusal of a release while an object of an open task is locked for editing."""
    found = state.cts.lookup(number)
    if found is None:
        return None
    request, task = found
    tasks = [task] if task is not None else [t for t in request.tasks if t.modifiable]
    for open_task in tasks:
        for entry in open_task.entries:
            obj = state.cts.find_object(entry)
            held = state.locks.get(obj.uri) if obj is not None else None
            if held is not None:
                name = " ".join(entry.key)
                text = f"Object {name} is locked by user {held.user} (being edited)"
                message = ReleaseMessage(text, "TR", "045", (name, held.user))
                return ReleaseOutcome(number.upper(), "abortrelapifail", None, (message,))
    return None


__all__ = ["add_objects", "locked_refusal", "remove_objects"]
