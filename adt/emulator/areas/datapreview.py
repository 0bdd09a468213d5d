"""ADT's data preview: ``POST /datapreview/ddic?rowNumber=N&ddicEntityName=E`` (the rows of
a table or CDS entity; the body may carry the ``SELECT`` the editor built, with a column
list and a ``WHERE``) and ``POST /datapreview/freestyle?rowNumber=N`` (a ``SELECT`` typed by
the user, which on-premise systems run). Rows come from the seeded table contents
(:mod:`adt.emulator.datapreview`); the answer is A4H's ``dataPreview:tableData``."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from adt.emulator.areas import Route
from adt.emulator.calls import Call, respond

from .. import errors
from ..cds_language import catalog
from ..datapreview import Previewer, PreviewError
from ..documents import datapreview as docs
from ..model import ADT
from ..negotiation import choose

if TYPE_CHECKING:
    from starlette.responses import Response

    from adt.emulator.state import SystemState

DDIC = f"{ADT}/datapreview/ddic"
FREESTYLE = f"{ADT}/datapreview/freestyle"


def _invalid(message: str) -> errors.AdtException:
    return errors.AdtException(400, "DataPreviewException", message)


class DataPreviewArea:
    def __init__(self, state: SystemState) -> None:
        self.state = state

    def routes(self) -> list[Route]:
        return [Route.at(DDIC, self.ddic), Route.at(FREESTYLE, self.freestyle)]

    def _prepare(self, call: Call) -> tuple[int, str]:
        if call.method != "POST":
            raise errors.method_not_supported(call.method)
        if choose(call.headers.get("accept"), [docs.TABLE_DATA]) is None:
            raise errors.not_acceptable([docs.TABLE_DATA])
        rows = call.query.get("rowNumber") or "100"
        if not rows.isdigit():
            raise _invalid(f"rowNumber must be a number, not {rows!r}")
        return int(rows), call.body.decode("utf-8", errors="replace")

    def _answer(self, sql: str, rows: int, entity: str = "") -> Response:
        started = time.perf_counter()
        previewer = Previewer(catalog(self.state), self.state.table_rows)
        try:
            preview = previewer.run(sql, rows, entity)
        except PreviewError as exc:
            raise _invalid(str(exc)) from None
        columns = [(c.name, c.type, c.description, c.key, c.values) for c in preview.columns]
        body = docs.table_data(preview.total, preview.query, columns, time.perf_counter() - started)
        return respond(body, content_type=f"{docs.TABLE_DATA}; charset=utf-8")

    def ddic(self, call: Call, match: re.Match[str]) -> Response:
        rows, sql = self._prepare(call)
        entity = call.query.get("ddicEntityName")
        if not entity:
            raise errors.parameter_missing("ddicEntityName")
        return self._answer(sql, rows, entity)

    def freestyle(self, call: Call, match: re.Match[str]) -> Response:
        rows, sql = self._prepare(call)
        if not sql.strip():
            raise _invalid("Enter a SELECT statement")
        return self._answer(sql, rows)


def routes(state: SystemState) -> list[Route]:
    return DataPreviewArea(state).routes()
