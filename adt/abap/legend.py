"""The names of the semantic token types and modifiers :mod:`adt.abap.highlight` gives: a
language server announces them at ``initialize``, long before it highlights anything, so
they stand apart from the index the highlighting needs (1.2 MB of code loaded at start-up
otherwise)."""

from __future__ import annotations

#: Token types, named as LSP's standard semantic token types.
TYPES = (
    "keyword",
    "comment",
    "string",
    "number",
    "class",
    "interface",
    "method",
    "property",
    "parameter",
    "variable",
    "type",
    "function",
    "event",
    "macro",
)
#: Modifiers, named as LSP's standard modifiers.
MODIFIERS = ("declaration", "readonly", "static")

__all__ = ["MODIFIERS", "TYPES"]
