"""Short dumps as a developer reads them: the recent ones of a user or of one object, and one
of them as a compact summary whose position is an object URL and a line that can be opened
(the include names of ST22 mapped back to the object and its part)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from adt.areas.dumps import CallFrame, DumpEntry, RuntimeDumps
from adt.errors import AdtError, InvalidObjectUrlError
from adt.kinds import KINDS
from adt.source.errors import InvalidArgument, as_source_error
from adt.urls import object_url

if TYPE_CHECKING:
    from adt.client import AdtClient

#: Suffixes of a class pool's includes (after the 30 characters of name and ``=``) → part.
_CLASS_PARTS = {"CCAU": "testclasses", "CCDEF": "definitions", "CCIMP": "implementations"}
_CLASS_PARTS["CCMAC"] = "macros"


def position(program: str, include: str, line: int) -> dict[str, Any] | None:
    """Where ``include`` (of main ``program``) is in ADT terms: ``objectUrl``,
    ``includeType`` for a class part, ``line``; ``None`` for includes we cannot name (a
    function group's, a kernel's)."""
    try:
        if len(include) > 30 and include[30:31].isalpha():  # a class pool include
            name, suffix = include[:30].rstrip("="), include[30:]
            part = _CLASS_PARTS.get(suffix, "main")
            return {"objectUrl": object_url("CLAS", name), "includeType": part, "line": line}
        if include == program and program:
            return {"objectUrl": object_url("PROG", program), "line": line}
    except InvalidObjectUrlError:
        return None
    return None


def _main_program(url: str) -> str:
    """The main program ST22 names for an object: a class pool ``NAME====…CP``."""
    kind = KINDS.for_url(url)
    name = unquote(url.rstrip("/").rsplit("/", 1)[-1]).upper()
    if kind is not None and kind.r3tr == "CLAS":
        return name.ljust(30, "=") + "CP"
    return name


def _frame(frame: CallFrame) -> dict[str, Any]:
    found: dict[str, Any] = {"name": frame.name, "include": frame.include, "line": frame.line}
    at = position(frame.program, frame.include, frame.line)
    if at is not None:
        found["at"] = at
    return found


def _entry(entry: DumpEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "error": entry.error,
        "program": entry.program,
        "user": entry.user,
        "when": entry.when,
    }


class RuntimeErrors:
    """The short dumps of one system."""

    def __init__(self, client: AdtClient) -> None:
        self._client = client
        self._dumps = RuntimeDumps(client)

    async def recent(
        self, object_url: str | None = None, *, user: str | None = None, limit: int = 20
    ) -> dict[str, Any]:
        """The newest dumps of ``user`` (default: the logged-on user), of one object's
        programs when ``object_url`` is given."""
        entries = await self._dumps.list(user or self._client.profile.user)
        if object_url is not None:
            program = _main_program(object_url)
            entries = tuple(e for e in entries if e.program.upper() == program)
        shown = entries[:limit]
        return {"dumps": [_entry(e) for e in shown], "count": len(entries)}

    async def read(self, dump_id: str) -> dict[str, Any]:
        """One dump: the error, the exception, where it stopped, the calls, the variables."""
        try:
            report = await self._dumps.read(dump_id.strip())
        except ValueError as exc:
            raise InvalidArgument(str(exc)) from exc
        except AdtError as exc:  # an unknown id is the system's 404: OBJECT_NOT_FOUND
            raise as_source_error(exc) from exc
        summary: dict[str, Any] = {
            "id": dump_id.strip(),
            "error": report.error,
            "exception": report.exception,
            "text": report.short_text,
            "program": report.program,
            "user": report.user,
            "when": report.when,
            "at": position(report.program, report.include, report.line),
            "stack": [_frame(f) for f in report.frames],
        }
        if report.variables:
            summary["variables"] = list(report.variables)
        return summary


__all__ = ["RuntimeErrors", "position"]
