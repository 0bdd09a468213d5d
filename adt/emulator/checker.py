"""A small, honest ABAP syntax checker: block balance and statement termination.

It does not know ABAP's grammar.  It splits the source into statements (respecting
``*`` comment lines, ``"`` end-of-line comments and the literals ``'…'``, `` `…` ``
and ``|…{ … }…|``) and checks that block statements pair up:
CLASS/ENDCLASS, INTERFACE/ENDINTERFACE, METHOD/ENDMETHOD, FORM/ENDFORM,
FUNCTION/ENDFUNCTION, MODULE/ENDMODULE, IF/ENDIF, CASE/ENDCASE, DO/ENDDO,
WHILE/ENDWHILE, LOOP/ENDLOOP, TRY/ENDTRY, plus DEFINE/END-OF-DEFINITION (macro
bodies are not checked).  It also reports unterminated literals and a last
statement without a period.  Lines are 1-based, columns 0-based (as in ADT
fragments ``#start=L,C``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .text import split_lines

BLOCKS = {
    "CLASS": "ENDCLASS",
    "INTERFACE": "ENDINTERFACE",
    "METHOD": "ENDMETHOD",
    "FORM": "ENDFORM",
    "FUNCTION": "ENDFUNCTION",
    "MODULE": "ENDMODULE",
    "IF": "ENDIF",
    "CASE": "ENDCASE",
    "DO": "ENDDO",
    "WHILE": "ENDWHILE",
    "LOOP": "ENDLOOP",
    "TRY": "ENDTRY",
}
ENDERS = {end: start for start, end in BLOCKS.items()}
MULTILINE_LITERAL = "Literals that take up more than one line are not permitted."


@dataclass(frozen=True)
class Finding:
    """One error: where and what."""

    line: int
    column: int
    end_column: int
    message: str


@dataclass
class Statement:
    """The first words of one statement and where it starts."""

    words: list[str]
    line: int
    column: int
    terminated: bool


class _Scanner:
    """Splits ABAP text into statements, tracking literal and comment state."""

    def __init__(self) -> None:
        self.statements: list[Statement] = []
        self.findings: list[Finding] = []
        self._word = ""
        self._words: list[str] = []
        self._start: tuple[int, int] | None = None
        self._stack: list[str] = []  # literal/template nesting: "|", "{"

    def _flush_word(self) -> None:
        if self._word:
            self._words.append(self._word.upper())
            self._word = ""

    def _mark(self, line: int, col: int) -> None:
        if self._start is None:
            self._start = (line, col)

    def _end_statement(self, terminated: bool) -> None:
        self._flush_word()
        if self._start is not None:
            line, col = self._start
            self.statements.append(Statement(self._words, line, col, terminated))
        self._words = []
        self._start = None

    def scan_line(self, number: int, line: str) -> None:
        if line.startswith("*"):
            return
        if not self._stack and not any(c in line for c in "'`|\"{}"):
            self._scan_plain(number, line)
            return
        i = 0
        n = len(line)
        while i < n:
            ch = line[i]
            top = self._stack[-1] if self._stack else None
            if top == "|":
                if ch == "\\" and i + 1 < n:
                    i += 2
                    continue
                if ch == "|":
                    self._stack.pop()
                elif ch == "{":
                    self._stack.append("{")
                i += 1
                continue
            # code (top is None or "{")
            if ch == '"':
                break
            if ch in "'`":
                end = self._literal_end(line, i, ch)
                self._mark(number, i)
                self._word += "'"
                if end < 0:
                    self.findings.append(
                        Finding(
                            number,
                            i,
                            n,
                            "Literals that take up more than one line are not permitted.",
                        )
                    )
                    i = n
                    continue
                i = end + 1
                continue
            if ch == "|":
                self._mark(number, i)
                self._stack.append("|")
                i += 1
                continue
            if ch == "}" and top == "{":
                self._stack.pop()
                i += 1
                continue
            if top is None and ch == ".":
                self._end_statement(True)
            elif (top is None and ch in ":,") or ch.isspace():
                self._flush_word()
            else:
                self._mark(number, i)
                if top is None:
                    self._word += ch
            i += 1
        if self._stack and self._stack[-1] == "|":
            self.findings.append(Finding(number, 0, n, MULTILINE_LITERAL))
            self._stack.clear()
        self._flush_word()

    def _scan_plain(self, number: int, line: str) -> None:
        col = 0
        for piece in line.split("."):
            segment = piece
            stripped = segment.strip()
            if stripped:
                self._mark(number, col + len(segment) - len(segment.lstrip()))
                for word in stripped.replace(":", " ").replace(",", " ").split():
                    self._words.append(word.upper())
            col += len(piece) + 1
            if col <= len(line):
                self._end_statement(True)

    @staticmethod
    def _literal_end(line: str, start: int, quote: str) -> int:
        i = start + 1
        while i < len(line):
            if line[i] == quote:
                if i + 1 < len(line) and line[i + 1] == quote:
                    i += 2
                    continue
                return i
            i += 1
        return -1

    def finish(self) -> None:
        self._end_statement(False)


def _opens_block(words: list[str]) -> str | None:
    """The block keyword a statement opens, or ``None``."""
    if not words:
        return None
    head = words[0]
    if head not in BLOCKS:
        return None
    rest = words[1:]
    if head in ("CLASS", "INTERFACE"):
        if any(w in ("DEFERRED", "LOAD") for w in rest):
            return None
        if head == "CLASS" and "LOCAL" in rest and "FRIENDS" in rest:
            return None
    return head


def statements(text: str) -> list[Statement]:
    """The statements of ``text`` (exposed for tests and tools)."""
    scanner = _Scanner()
    for number, line in enumerate(split_lines(text), start=1):
        scanner.scan_line(number, line)
    scanner.finish()
    return scanner.statements


def check(text: str) -> list[Finding]:
    """All findings for one source unit, ordered by position."""
    scanner = _Scanner()
    for number, line in enumerate(split_lines(text), start=1):
        scanner.scan_line(number, line)
    scanner.finish()
    findings = list(scanner.findings)
    stack: list[Statement] = []
    in_macro: Statement | None = None
    for stmt in scanner.statements:
        words = stmt.words
        head = words[0] if words else ""
        width = len(head)
        if in_macro is not None:
            if head == "END-OF-DEFINITION":
                in_macro = None
            continue
        if head == "DEFINE":
            in_macro = stmt
            continue
        if head == "END-OF-DEFINITION":
            findings.append(
                Finding(
                    stmt.line,
                    stmt.column,
                    stmt.column + width,
                    '"END-OF-DEFINITION" without "DEFINE".',
                )
            )
            continue
        if not stmt.terminated:
            findings.append(
                Finding(
                    stmt.line,
                    stmt.column,
                    stmt.column + width,
                    "The last statement is not complete (period missing).",
                )
            )
            continue
        opened = _opens_block(words)
        if opened is not None:
            stack.append(stmt)
            continue
        if head in ENDERS:
            start = ENDERS[head]
            if stack and stack[-1].words[0] == start:
                stack.pop()
                continue
            if any(s.words[0] == start for s in stack):
                while stack and stack[-1].words[0] != start:
                    inner = stack.pop()
                    findings.append(
                        Finding(
                            stmt.line,
                            stmt.column,
                            stmt.column + width,
                            f'Incorrect nesting: before "{head}", the "{inner.words[0]}" '
                            f"block from line {inner.line} must be closed with "
                            f'"{BLOCKS[inner.words[0]]}".',
                        )
                    )
                stack.pop()
                continue
            findings.append(
                Finding(
                    stmt.line,
                    stmt.column,
                    stmt.column + width,
                    f'"{head}" without a preceding "{start}".',
                )
            )
    if in_macro is not None:
        findings.append(
            Finding(
                in_macro.line,
                in_macro.column,
                in_macro.column + 6,
                '"DEFINE" is not closed with "END-OF-DEFINITION".',
            )
        )
    for stmt in stack:
        head = stmt.words[0]
        findings.append(
            Finding(
                stmt.line,
                stmt.column,
                stmt.column + len(head),
                f'"{head}" is not closed with "{BLOCKS[head]}".',
            )
        )
    findings.sort(key=lambda f: (f.line, f.column))
    return findings
