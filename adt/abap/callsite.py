"""Which call a cursor is in: the method or function named right before the innermost open
``(`` around the cursor (``lo->run( iv_a = 1 |``, ``zcl_x=>make( |``, ``run( |``), and the
parameter being written there — for signature help. Text only, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field

from adt.abap.lexer import NAME, Statement, Token, adjacent, lex

#: Words that group parameters in a call; they are not parameter names.
_SECTIONS = frozenset({"EXPORTING", "IMPORTING", "CHANGING", "RECEIVING", "EXCEPTIONS"})


@dataclass(frozen=True)
class CallSite:
    """The called name (``line`` 1-based, ``column`` 0-based) and the parameters named so
    far at the call's own level, the last one being the one at the cursor."""

    name: str
    line: int
    column: int
    named: tuple[str, ...]

    @property
    def current(self) -> str | None:
        return self.named[-1] if self.named else None


@dataclass
class _Frame:
    name: Token | None  # None: a parenthesis that groups, not a call
    named: list[str] = field(default_factory=list)


def _statement_at(statements: list[Statement], line: int, column: int) -> Statement | None:
    """The statement the cursor is in (an unterminated one runs to the cursor)."""
    found = None
    for statement in statements:
        first = statement.tokens[0]
        if (first.line, first.column) > (line, column):
            break
        found = statement
    return found


def call_at(text: str, line: int, column: int) -> CallSite | None:
    """The call around (line 1-based, column 0-based) of ``text``; ``None`` outside one."""
    statement = _statement_at(lex(text).statements, line, column)
    if statement is None:
        return None
    before = [t for t in statement.tokens if (t.line, t.end) <= (line, column)]
    frames: list[_Frame] = []
    for i, token in enumerate(before):
        previous = before[i - 1] if i else None
        if token.text == "(":
            called = previous is not None and previous.kind == NAME and adjacent(previous, token)
            frames.append(_Frame(previous if called else None))
        elif token.text == ")" and frames:
            frames.pop()
        elif (
            token.text == "="
            and frames
            and previous is not None
            and previous.kind == NAME
            and previous.upper not in _SECTIONS
        ):
            frames[-1].named.append(previous.upper)
    for frame in reversed(frames):
        if frame.name is not None:
            name = frame.name
            return CallSite(name.upper, name.line, name.column, tuple(frame.named))
    return None


__all__ = ["CallSite", "call_at"]
