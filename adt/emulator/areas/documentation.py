"""ABAP keyword documentation (F1): ``POST /sap/bc/adt/docu/abap/langu?uri=<source>#start=L,C``
with the editor's text as the body (abap-adt-api ``abapDocumentation``).

A real system answers 200 with the HTML page of the ABAP keyword documentation for the
statement at the cursor. The emulator ships no SAP documentation texts: its page names the
keyword and the statement, in the same shape (docs/protocol/peer-answers.md).
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from starlette.responses import Response

from adt.abap.keywords import KEYWORDS
from adt.abap.lexer import NAME, lex

from .. import errors
from ..calls import Call, respond
from ..model import ADT
from . import Route

if TYPE_CHECKING:
    from ..state import SystemState

HTML = "text/html; charset=utf-8"
_START = re.compile(r"#start=(\d+),(\d+)")


def keyword_at(text: str, line: int, column: int) -> tuple[str, str] | None:
    """The keyword at (line 1-based, column 0-based) — the word itself when it is one, else
    the statement's first keyword — and the statement's first words."""
    for stmt in lex(text).statements:
        tokens = stmt.tokens
        if not (tokens[0].line <= line <= tokens[-1].line):
            continue
        hit = next((t for t in tokens if t.kind == NAME and t.covers(line, column)), None)
        if hit is None and not any(t.line == line for t in tokens):
            continue
        words = " ".join(stmt.words(3))
        if hit is not None and hit.upper in KEYWORDS:
            return hit.upper, words
        return stmt.first, words
    return None


def _page(keyword: str, statement: str) -> str:
    title = html.escape(keyword)
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f"<title>{title}</title></head><body><h1>{title}</h1>"
        f"<p>ABAP keyword documentation: <code>{title}</code>, in the statement "
        f"<code>{html.escape(statement)}</code>.</p>"
        "<p>The ADT emulator ships no SAP documentation texts.</p></body></html>"
    )


def routes(state: SystemState) -> list[Route]:
    def documentation(call: Call, match: re.Match[str]) -> Response:
        if call.method != "POST":
            raise errors.method_not_supported(call.method)
        uri = call.query.get("uri")
        if not uri:
            raise errors.parameter_missing("uri")
        position = _START.search(uri)
        if position is None:
            raise errors.bad_request("The URI has no #start=line,column fragment")
        text = call.body.decode("utf-8", errors="replace")
        if not text:
            resolved = state.resolve(uri.split("#", 1)[0])
            if resolved is None:
                raise errors.no_suitable_resource()
            obj, part = resolved
            unit = obj.parts.get(part or "main")
            picked = unit.pick(None) if unit is not None else None
            text = picked[0].text if picked is not None else ""
        found = keyword_at(text, int(position.group(1)), int(position.group(2)))
        if found is None:
            raise errors.bad_request("There is no ABAP statement at this position")
        return respond(_page(*found), content_type=HTML)

    return [Route.at(f"{ADT}/docu/abap/langu", documentation)]


__all__ = ["keyword_at", "routes"]
