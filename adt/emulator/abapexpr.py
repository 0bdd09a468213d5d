"""Reading ABAP statements as text: comments stripped, tokens, call arguments, literal values.

The emulator cannot run ABAP. ABAP Unit and ATC read statements instead: the shared scanner
finds where each statement starts and ends, this module turns that span back into text
without comments, splits it into tokens (literals and bracket groups kept whole) and
evaluates the few values that need no runtime: integer literals, text literals, string
literals, ``abap_true``/``abap_false``/``space`` and constants declared with a literal
``VALUE`` in the same object. Everything else is "cannot tell", never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adt.abap.scanner import Statement

_IDENT = re.compile(r"^[A-Za-z_/][A-Za-z0-9_/]*$")
_INTEGER = re.compile(r"^-?\d+$")
_QUALIFIED = re.compile(r"^(?:[A-Za-z_/][A-Za-z0-9_/]*=>|me->)", re.IGNORECASE)


@dataclass(frozen=True)
class Value:
    """A value known without running anything: a number, or text (text field literals
    lose their trailing blanks, as ABAP's type ``c`` does; string literals keep them)."""

    number: int | None = None
    text: str = ""

    @property
    def is_number(self) -> bool:
        return self.number is not None

    @property
    def is_initial(self) -> bool:
        return self.number == 0 if self.number is not None else self.text == ""

    def show(self) -> str:
        """The value as ABAP Unit prints it between brackets."""
        return str(self.number) if self.number is not None else self.text


PREDEFINED = {"ABAP_TRUE": Value(text="X"), "ABAP_FALSE": Value(text=""), "SPACE": Value(text="")}


def strip_comment(segment: str) -> str:
    """``segment`` up to its ``"`` comment (quotes inside literals do not count)."""
    quote: str | None = None
    for index, char in enumerate(segment):
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'`|":
            quote = char
        elif char == '"':
            return segment[:index]
    return segment


def statement_text(lines: Sequence[str], statement: Statement) -> str:
    """The statement's source without comments and without its period, on one line."""
    pieces: list[str] = []
    last = min(statement.end_line, len(lines))
    for number in range(statement.line, last + 1):
        line = lines[number - 1]
        if line.startswith("*"):
            continue
        start = statement.column if number == statement.line else 0
        end = statement.end_column if number == statement.end_line else len(line)
        pieces.append(strip_comment(line[start:end]).strip())
    text = " ".join(piece for piece in pieces if piece).strip()
    return text[:-1].rstrip() if text.endswith(".") and statement.terminated else text


def _literal_end(text: str, start: int) -> int:
    """Index just past the literal that starts at ``start`` (doubled quotes are escapes)."""
    quote = text[start]
    index = start + 1
    while index < len(text):
        if text[index] == quote:
            if quote != "|" and index + 1 < len(text) and text[index + 1] == quote:
                index += 2
                continue
            return index + 1
        index += 1
    return len(text)


def tokens(text: str) -> list[str]:
    """Split at blanks; a literal (``'…'``, `` `…` ``, ``|…|``) is one token even with blanks
    inside, and sticks to the characters around it (``'a'(001)`` stays one token)."""
    found: list[str] = []
    current = ""
    index = 0
    while index < len(text):
        char = text[index]
        if char in "'`|":
            end = _literal_end(text, index)
            current += text[index:end]
            index = end
            continue
        if char.isspace():
            if current:
                found.append(current)
            current = ""
        else:
            current += char
        index += 1
    if current:
        found.append(current)
    return found


def _depth_change(token: str) -> tuple[int, int]:
    """(closings at the start, openings at the end) of a token, outside literals."""
    if token[:1] in "'`|":
        return 0, 0
    closes = len(token) - len(token.lstrip(")]"))
    opens = 1 if token.endswith(("(", "[")) and len(token) > closes else 0
    if token in ("(", "["):
        return 0, 1
    return closes, opens


def group_after(items: Sequence[str], opener: int) -> list[str]:
    """The tokens between ``items[opener]`` (which ends with ``(``) and its closing bracket."""
    depth = 1
    inside: list[str] = []
    for token in items[opener + 1 :]:
        closes, opens = _depth_change(token)
        depth -= closes
        if depth <= 0:
            return inside
        depth += opens
        inside.append(token)
    return inside


def arguments(items: Sequence[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Split call arguments into (positional tokens, named parameter → value tokens).

    A parameter is a name followed by ``=`` at the call's own bracket depth; an optional
    leading ``EXPORTING`` is skipped.
    """
    body = list(items)
    if body and body[0].upper() == "EXPORTING":
        body = body[1:]
    starts: list[int] = []
    depth = 0
    for index, token in enumerate(body):
        closes, opens = _depth_change(token)
        depth -= closes
        if depth == 0 and index + 1 < len(body) and body[index + 1] == "=" and _IDENT.match(token):
            starts.append(index)
        depth += opens
    if not starts:
        return body, {}
    named: dict[str, list[str]] = {}
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(body)
        named[body[start].upper()] = body[start + 2 : end]
    return body[: starts[0]], named


def _text_literal(token: str) -> Value | None:
    quote = token[0]
    if len(token) < 2 or token[-1] != quote:
        return None  # a literal with a text symbol ('abc'(001)) or an unfinished one
    inner = token[1:-1].replace(quote * 2, quote)
    return Value(text=inner.rstrip(" ") if quote == "'" else inner)


def evaluate(items: Sequence[str], constants: Mapping[str, Value]) -> Value | None:
    """The value of an argument when it is one literal or a known constant; else ``None``."""
    if len(items) != 1:
        return None
    token = items[0]
    if _INTEGER.match(token):
        return Value(number=int(token))
    if token[0] in "'`":
        return _text_literal(token)
    name = _QUALIFIED.sub("", token).upper()
    if not _IDENT.match(name):
        return None
    return PREDEFINED.get(name) or constants.get(name)


def values_equal(left: Value, right: Value) -> bool | None:
    """ABAP's ``=`` for two known values; ``None`` when a conversion would be needed that the
    emulator does not model (text that is not an integer against a number)."""
    if left.is_number and right.is_number:
        return left.number == right.number
    if not left.is_number and not right.is_number:
        return left.text == right.text
    text = right.text if left.is_number else left.text
    number = left.number if left.is_number else right.number
    stripped = text.strip()
    if stripped == "":
        return number == 0
    if _INTEGER.match(stripped):
        return int(stripped) == number
    return None


def constants_of(lines: Sequence[str], statements: Sequence[Statement]) -> dict[str, Value]:
    """``CONSTANTS name TYPE … VALUE <literal>`` declarations (chains included) by name."""
    found: dict[str, Value] = {}
    for statement in statements:
        if not statement.words or statement.words[0] not in ("CONSTANTS", "CONSTANTS:"):
            continue
        text = statement_text(lines, statement)
        body = text.split(None, 1)[1] if " " in text else ""
        for piece in _chain_pieces(tokens(body.lstrip(":").strip())):
            _constant(piece, found)
    return found


def _chain_pieces(items: list[str]) -> list[list[str]]:
    """Split a chained declaration at its top-level commas."""
    pieces: list[list[str]] = [[]]
    for token in items:
        head = token[:-1]
        literal = token[:1] in "'`|"
        if token.endswith(",") and (not literal or (len(head) > 1 and head[-1] == head[0])):
            if head:
                pieces[-1].append(head)
            pieces.append([])
        else:
            pieces[-1].append(token)
    return [piece for piece in pieces if piece]


def _constant(piece: list[str], found: dict[str, Value]) -> None:
    upper = [token.upper() for token in piece]
    if "VALUE" not in upper or upper[0] in ("BEGIN", "END"):
        return
    value_at = upper.index("VALUE")
    value = evaluate(piece[value_at + 1 : value_at + 2], {})
    if value is not None and len(piece) == value_at + 2 and _IDENT.match(piece[0]):
        found.setdefault(upper[0], value)


def mixed_case(name: str) -> str:
    """``COUNTS_UP`` → ``Counts_Up`` (how ABAP Unit names a method in default titles)."""
    return "_".join(part.capitalize() for part in name.split("_"))
