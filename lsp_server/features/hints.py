"""Inlay hints: the parameter a positional call argument goes to.

ABAP names every argument of a call but one case: a functional call with a single
argument, ``greet( lv_name )``, passes it to the method's only importing parameter (or its
only mandatory one). The hint shows that name (``iv_name =``) before the argument. Which
parameter it is comes from ADT's element info of the called name, asked with the buffer's
text; calls are found by the server's ABAP lexer. Off unless ``inlayHints`` is on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsp_server.features import Feature

if TYPE_CHECKING:
    from adt.abap.lexer import Token
    from adt.workbench.code import SymbolInfo

#: Words that start named arguments, and inline declarations that look like calls.
_NAMED = frozenset({"EXPORTING", "IMPORTING", "CHANGING", "RECEIVING", "EXCEPTIONS"})
_NOT_CALLS = frozenset({"DATA", "FINAL"})

__all__ = ["Hint", "ParameterHints", "positional_calls"]


@dataclass(frozen=True)
class Hint:
    """``label`` shown before (0-based) ``line``, ``column``."""

    line: int
    column: int
    label: str


def positional_calls(text: str, first: int, last: int) -> list[tuple[Token, Token]]:
    """(called name, first argument) of every call with one unnamed argument whose name is
    on lines ``first``–``last`` (0-based)."""
    from adt.abap.lexer import NAME, adjacent, lex  # with the first hints, not at start-up

    found = []
    for statement in lex(text).statements:
        tokens = statement.tokens
        for i, token in enumerate(tokens[:-2]):
            if not first <= token.line - 1 <= last or token.kind != NAME:
                continue
            opening, argument = tokens[i + 1], tokens[i + 2]
            if token.upper in _NOT_CALLS or opening.text != "(" or not adjacent(token, opening):
                continue
            if argument.text == ")" or argument.upper in _NAMED:
                continue
            if i + 3 < len(tokens) and tokens[i + 3].text == "=" and argument.kind == NAME:
                continue  # iv_a = …
            found.append((token, argument))
    return found


def receiving(info: SymbolInfo) -> str | None:
    """The parameter an unnamed argument goes to: the only importing one, else the only
    mandatory importing one."""
    importing = [p for p in info.parameters if p.kind == "IMPORTING"]
    if len(importing) == 1:
        return importing[0].name
    mandatory = [p for p in importing if not p.optional]
    return mandatory[0].name if len(mandatory) == 1 else None


class ParameterHints(Feature):
    async def hints(self, uri: str, first: int, last: int) -> list[Hint]:
        """The hints of lines ``first``–``last`` (0-based) of the buffer; none when off."""
        if not self.ctx.settings.inlay_hints:
            return []
        doc = self.ctx.documents.require(uri)
        text = doc.buffer.text
        code = self.ctx.connections.workbench(doc.ref.system).code
        hints = []
        for name, argument in positional_calls(text, first, last):
            info = await code.symbol_info(doc.ref.source_url, text, name.line, name.column)
            parameter = receiving(info) if info is not None else None
            if parameter:
                hints.append(Hint(argument.line - 1, argument.column, f"{parameter.lower()} ="))
        return hints
