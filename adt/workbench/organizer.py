"""A request's life after the changes: what it holds, releasing it, and moving an object to
another request. Checks run before anything is released, so a refusal names the objects in
the user's words instead of a release report's T100 text; the system's own report still
decides (another user's lock or draft is only known there)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from adt.areas.transports import ObjectKey
from adt.kinds import KINDS
from adt.source.errors import InvalidArgument, ReleaseRefused, TransportInvalid

if TYPE_CHECKING:
    from adt.areas.transport_results import TransportObject, TransportRequest, TransportTask
    from adt.client import AdtClient
    from adt.source.locks import LockTable


def _row(obj: TransportObject) -> str:
    return f"{obj.pgmid} {obj.type} {obj.name}"


def _task_dict(task: TransportTask) -> dict[str, Any]:
    return {
        "number": task.number,
        "owner": task.owner,
        "status": "modifiable" if task.modifiable else "released",
        "objects": [_row(o) for o in task.objects],
    }


@dataclass(frozen=True)
class RequestContents:
    """A request (or the request of a task) with its tasks and the objects of each."""

    request: TransportRequest

    def to_dict(self) -> dict[str, Any]:
        request = self.request
        return {
            "number": request.number,
            "description": request.description,
            "owner": request.owner,
            "status": "modifiable" if request.modifiable else "released",
            "tasks": [_task_dict(t) for t in request.tasks],
            "objects": [_row(o) for o in request.all_objects],
        }


class RequestOrganizer:
    """Show, release and reorganize transport requests of one system."""

    def __init__(self, client: AdtClient, locks: LockTable) -> None:
        self._client = client
        self._locks = locks

    async def contents(self, number: str) -> RequestContents:
        return RequestContents(await self._client.transports.details(_number(number)))

    async def release(self, number: str) -> dict[str, Any]:
        """Release a task, or a request with the user's open tasks first. Refused before
        anything is released when an object is inactive, locked through this server, or a
        colleague's task is still open."""
        number = _number(number)
        request = await self._client.transports.details(number)
        if not request.modifiable:
            raise TransportInvalid(f"{number} is already released", request=request.number)
        task = next((t for t in request.tasks if t.number == number), None)
        tasks = [task] if task is not None else [t for t in request.tasks if t.modifiable]
        objects = [o for t in tasks for o in t.objects] if task else list(request.all_objects)
        await self._check(number, objects)
        user = self._client.profile.user.upper()
        foreign = [t.number for t in tasks if t.owner.upper() != user]
        if task is None and foreign:
            raise ReleaseRefused(
                f"{number} has open tasks of other users ({', '.join(foreign)}); they release "
                "their tasks first",
                reason="openTasks",
                tasks=foreign,
            )
        released = [await self._release_one(t.number) for t in tasks]
        if task is None:
            released.append(await self._release_one(request.number))
        return {"request": request.number, "released": released}

    async def _check(self, number: str, objects: list[TransportObject]) -> None:
        names = {o.name.upper(): _row(o) for o in objects}
        inactive = await self._client.history.inactive_objects()
        drafts = sorted({names[e.name.upper()] for e in inactive if e.name.upper() in names})
        if drafts:
            raise ReleaseRefused(
                f"{number} holds objects with inactive changes ({', '.join(drafts)}): "
                "activate them first",
                reason="inactive",
                objects=drafts,
            )
        held = sorted({names[n] for n in self._locked_names() if n in names})
        if held:
            raise ReleaseRefused(
                f"{number} holds objects locked through this server ({', '.join(held)}): "
                "unLock them first",
                reason="locked",
                objects=held,
            )

    def _locked_names(self) -> set[str]:
        return {unquote(url.rstrip("/").rsplit("/", 1)[-1]).upper() for url in self._locks.urls()}

    async def _release_one(self, number: str) -> str:
        report = await self._client.transports.release(number)
        if not report.released:
            texts = [m.text for m in report.messages] or [report.status_text]
            reason = "locked" if any("locked" in t for t in texts) else "system"
            raise ReleaseRefused(
                f"the system did not release {number}: {'; '.join(texts)}",
                reason=reason,
                status=report.status,
                messages=texts,
            )
        return number

    async def reassign(self, object_url: str, to: str) -> dict[str, Any]:
        """Move an object from the request it is locked in to request ``to`` (one of the
        user's modifiable requests). If adding it there fails it goes back where it was."""
        to = _number(to)
        target = await self._client.transports.details(to)
        if not target.modifiable or target.number != to:
            raise TransportInvalid(
                f"{to} is not a modifiable request (a task, or released)", request=to
            )
        check = await self._client.transports.check(object_url)
        if check.is_local:
            raise InvalidArgument(f"{object_url} is in a local package: it is not transported")
        key = _object_key(object_url, check.object_name)
        holder = check.locked_in
        if holder == to:
            return {"object": " ".join(key), "from": holder, "to": to, "moved": False}
        task = await self._holding_task(holder, key) if holder else None
        if task is not None:
            await self._client.transports.remove_objects(task, [key])
        try:
            await self._client.transports.add_objects(to, [key])
        except Exception:
            if task is not None and holder:
                await self._client.transports.add_objects(holder, [key])
            raise
        return {"object": " ".join(key), "from": holder, "to": to, "moved": True}

    async def _holding_task(self, holder: str, key: ObjectKey) -> str | None:
        request = await self._client.transports.details(holder)
        for task in request.tasks:
            if any((o.type, o.name) == (key.type, key.name) for o in task.objects):
                return task.number
        return None


def _number(number: str) -> str:
    cleaned = number.strip().upper()
    if not cleaned.isalnum() or not 4 <= len(cleaned) <= 20:
        raise InvalidArgument(f"{number!r} is not a transport request number (like A4HK900101)")
    return cleaned


def _object_key(object_url: str, name: str) -> ObjectKey:
    """The organizer's row of an object (``R3TR PROG ZX``): the check names a program's
    source (``LIMU REPS``), the request records the program."""
    kind = KINDS.for_url(object_url)
    if kind is None or kind.nested:
        raise InvalidArgument(f"{object_url} is not an object a request records by itself")
    found = name or unquote(object_url.rstrip("/").rsplit("/", 1)[-1])
    return ObjectKey("R3TR", kind.r3tr, found.upper())


__all__ = ["RequestContents", "RequestOrganizer"]
