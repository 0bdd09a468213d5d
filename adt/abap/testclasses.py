"""Where the ABAP Unit tests of a source are: local test classes (``FOR TESTING``) and
their test methods, with the lines an editor puts a "run" action on.

A test class is found by its definition; its methods by their ``METHODS … FOR TESTING``
declarations (also in a chain), placed at their ``METHOD`` implementation when there is one,
else at the declaration. Built on the outline and the statement scanner: comments and
literals never count.
"""

from __future__ import annotations

from dataclasses import dataclass

from adt.abap.outline import CLASS, outline
from adt.abap.scanner import Statement, statements


@dataclass(frozen=True)
class LocalTestMethod:
    name: str
    line: int  # 1-based


@dataclass(frozen=True)
class LocalTestClass:
    """A local test class: ``line`` is its definition's first line (1-based)."""

    name: str
    line: int
    methods: tuple[LocalTestMethod, ...]


def _test_method_names(statement: Statement) -> list[str]:
    """The names a ``METHODS`` statement declares ``FOR TESTING`` (chains included)."""
    words = statement.words
    if not words or words[0] != "METHODS":
        return []
    return [
        words[i]
        for i in range(1, len(words) - 2)
        if words[i + 1] == "FOR" and words[i + 2] == "TESTING"
    ]


def _declared(text: str) -> dict[str, tuple[int, dict[str, int]]]:
    """Test class name → (definition line, {test method: declaration line})."""
    found: dict[str, tuple[int, dict[str, int]]] = {}
    current: dict[str, int] | None = None
    for statement in statements(text):
        words = statement.words
        if not words:
            continue
        if words[0] == "CLASS" and len(words) > 2 and words[2] == "DEFINITION":
            testing = any(
                words[i] == "FOR" and words[i + 1] == "TESTING" for i in range(3, len(words) - 1)
            )
            current = {} if testing else None
            if current is not None:
                found[words[1]] = (statement.line, current)
        elif words[0] == "ENDCLASS":
            current = None
        elif current is not None:
            for name in _test_method_names(statement):
                current.setdefault(name, statement.line)
    return found


def local_test_classes(text: str) -> list[LocalTestClass]:
    """The local test classes of ``text`` in order, each with its test methods."""
    declared = _declared(text)
    implemented: dict[str, dict[str, int]] = {}
    for symbol in outline(text):
        if symbol.kind == CLASS and symbol.detail == "implementation" and symbol.name in declared:
            implemented[symbol.name] = {c.name: c.start[0] for c in symbol.children}
    found = []
    for name, (line, methods) in declared.items():
        bodies = implemented.get(name, {})
        found.append(
            LocalTestClass(
                name,
                line,
                tuple(LocalTestMethod(m, bodies.get(m, at)) for m, at in methods.items()),
            )
        )
    return found


__all__ = ["LocalTestClass", "LocalTestMethod", "local_test_classes"]
