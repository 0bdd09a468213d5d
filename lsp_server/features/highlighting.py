"""Semantic tokens for ABAP documents: the pieces of :mod:`adt.abap.highlight` (the
server's own reading of the buffer: no ADT service classifies names) encoded as LSP's
relative integers in the client's position encoding, with the last answer kept per document
so that a delta request gets one edit (the changed middle of the integers)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from lsp_server.buffer import index_to_units
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature

#: Languages highlighted (CDS and RAP sources have their own grammars in the editors).
LANGUAGES = frozenset({"abap"})


@dataclass(frozen=True)
class Tokens:
    result_id: str
    data: list[int]


@dataclass(frozen=True)
class TokensDelta:
    result_id: str
    start: int
    delete: int
    data: list[int]


def encode(lines: list[str], encoding: str) -> list[int]:
    """The buffer's pieces as (Δline, Δstart, length, type, modifiers) integers."""
    from adt.abap.highlight import MODIFIERS, TYPES, pieces

    types = {name: i for i, name in enumerate(TYPES)}
    bits = {name: 1 << i for i, name in enumerate(MODIFIERS)}
    data: list[int] = []
    last_line = last_start = 0
    for piece in pieces("\n".join(lines)):
        text = lines[piece.line] if piece.line < len(lines) else ""
        start = index_to_units(text, piece.start, encoding)
        end = index_to_units(text, piece.start + piece.length, encoding)
        delta_start = start - last_start if piece.line == last_line else start
        data += [piece.line - last_line, delta_start, end - start, types[piece.type]]
        data.append(sum(bits[m] for m in piece.modifiers))
        last_line, last_start = piece.line, start
    return data


class SemanticHighlighting(Feature):
    def __init__(self, ctx: WorkspaceContext) -> None:
        super().__init__(ctx)
        self._last: dict[str, Tokens] = {}
        self._ids = itertools.count(1)

    def document_closed(self, doc: OpenDocument) -> None:
        self._last.pop(doc.uri, None)

    def serves(self, uri: str) -> bool:
        doc = self.ctx.documents.get(uri)
        return doc is not None and doc.ref.language_id in LANGUAGES

    def full(self, uri: str, encoding: str) -> Tokens:
        doc = self.ctx.documents.require(uri)
        tokens = Tokens(str(next(self._ids)), encode(list(doc.buffer.lines), encoding))
        self._last[uri] = tokens
        return tokens

    def delta(self, uri: str, previous: str, encoding: str) -> Tokens | TokensDelta:
        """One edit against the answer ``previous`` names; the full answer when that is
        not the last one kept."""
        before = self._last.get(uri)
        now = self.full(uri, encoding)
        if before is None or before.result_id != previous:
            return now
        old, new = before.data, now.data
        head = 0
        while head < min(len(old), len(new)) and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        return TokensDelta(now.result_id, head, len(old) - head - tail, new[head : len(new) - tail])


__all__ = ["LANGUAGES", "SemanticHighlighting", "Tokens", "TokensDelta", "encode"]
