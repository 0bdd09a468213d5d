"""A request's life after the changes: what it holds, releasing it, and moving an object to
another request. Checks run before anything is released, so a refusal names the objects in
the user's words instead of a release report's T100 text; the system's own report still
decides (another user's lock or draft is only known there)."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from adt.areas.transports import ObjectKey
from adt.errors import InvalidObjectUrlError
from adt.kinds import KINDS
from adt.source.errors import InvalidArgument, ReleaseRefused, TransportInvalid
from adt.urls import object_url

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


def _entry(obj: TransportObject) -> dict[str, Any]:
    """An object row for a tree: ``objectUrl`` when it is an object ADT can open."""
    found: dict[str, Any] = {"pgmid": obj.pgmid, "type": obj.type, "name": obj.name}
    kind = KINDS.get(obj.type) if obj.pgmid == "R3TR" else None
    if kind is not None and not kind.nested:
        with suppress(InvalidObjectUrlError):  # a name ADT would not spell in a URL
            found["objectUrl"] = object_url(kind.code, obj.name)
    return found


def request_tree(request: TransportRequest) -> dict[str, Any]:
    """A request, its tasks and each task's objects as entries a view can open."""
    return {
        "number": request.number,
        "description": request.description,
        "owner": request.owner,
        "status": "modifiable" if request.modifiable else "released",
        "tasks": [
            {
                "number": task.number,
                "description": task.description,
                "owner": task.owner,
                "status": "modifiable" if task.modifiable else "released",
                "objects": [_entry(o) for o in task.objects if o.pgmid != "CORR"],
            }
            for task in request.tasks
        ],
        "objects": [_entry(o) for o in request.objects if o.pgmid != "CORR"],
    }


@dataclass(frozen=True)
class ReleaseCheck:
    """What releasing a task or request would do, and what stands in its way: each finding
    names a reason (``inactive``, ``locked``, ``openTasks``), the objects or tasks, and
    the sentence a refusal says."""

    number: str
    request: str
    tasks: tuple[str, ...]
    objects: tuple[str, ...]
    findings: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "request": self.request,
            "tasks": list(self.tasks),
            "objects": list(self.objects),
            "findings": list(self.findings),
            "releasable": not self.findings,
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

    async def my_requests(self) -> list[dict[str, Any]]:
        """The user's modifiable workbench requests, each with its tasks and objects."""
        requests = await self._client.transports.user_requests()
        return [request_tree(r) for r in requests.modifiable]

    async def check_release(self, number: str) -> ReleaseCheck:
        """The checks a release runs first, without releasing: an object with inactive
        changes, one locked through this server, a colleague's open task of the request."""
        number = _number(number)
        request, tasks = await self._releasing(number)
        objects = [o for t in tasks for o in t.objects]
        if len(tasks) != 1 or tasks[0].number != number:
            objects = list(request.all_objects)
        names = {o.name.upper(): _row(o) for o in objects if o.pgmid != "CORR"}
        findings: list[dict[str, Any]] = []
        inactive = await self._client.history.inactive_objects()
        drafts = sorted({names[e.name.upper()] for e in inactive if e.name.upper() in names})
        if drafts:
            findings.append(
                _finding(
                    "inactive",
                    f"{number} holds objects with inactive changes ({', '.join(drafts)}): "
                    "activate them first",
                    objects=drafts,
                )
            )
        held = sorted({names[n] for n in self._locked_names() if n in names})
        if held:
            findings.append(
                _finding(
                    "locked",
                    f"{number} holds objects locked through this server ({', '.join(held)}): "
                    "unLock them first",
                    objects=held,
                )
            )
        user = self._client.profile.user.upper()
        foreign = [t.number for t in tasks if t.owner.upper() != user]
        if number == request.number and foreign:
            findings.append(
                _finding(
                    "openTasks",
                    f"{number} has open tasks of other users ({', '.join(foreign)}); they "
                    "release their tasks first",
                    tasks=foreign,
                )
            )
        return ReleaseCheck(
            number,
            request.number,
            tuple(t.number for t in tasks),
            tuple(names.values()),
            tuple(findings),
        )

    async def _releasing(self, number: str) -> tuple[TransportRequest, list[TransportTask]]:
        """The request of ``number`` and the tasks its release releases: the task itself,
        or the request's modifiable tasks."""
        request = await self._client.transports.details(number)
        if not request.modifiable:
            raise TransportInvalid(f"{number} is already released", request=request.number)
        task = next((t for t in request.tasks if t.number == number), None)
        if task is not None:
            if not task.modifiable:
                raise TransportInvalid(f"{number} is already released", request=request.number)
            return request, [task]
        return request, [t for t in request.tasks if t.modifiable]

    async def release(self, number: str) -> dict[str, Any]:
        """Release a task, or a request with the user's open tasks first. Refused before
        anything is released when a check finds something (:meth:`check_release`)."""
        check = await self.check_release(number)
        if check.findings:
            first = check.findings[0]
            details = {k: v for k, v in first.items() if k not in ("message",)}
            raise ReleaseRefused(first["message"], **details)
        released = [await self._release_one(t) for t in check.tasks]
        if check.number == check.request:
            released.append(await self._release_one(check.request))
        return {"request": check.request, "released": released}

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


def _finding(reason: str, message: str, **names: list[str]) -> dict[str, Any]:
    return {"reason": reason, "message": message, **names}


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


__all__ = ["ReleaseCheck", "RequestContents", "RequestOrganizer", "request_tree"]
