"""A small, honest ABAP syntax checker: block balance and statement termination.

It does not know ABAP's grammar.  It splits the source into statements (respecting
``*`` comment lines, ``"`` end-of-line comments and the literals ``'…'``, `` `…` ``
and ``|…{ … }…|``) and checks that block statements pair up:
CLASS/ENDCLASS, INTERFACE/ENDINTERFACE, METHOD/ENDMETHOD, FORM/ENDFORM,
FUNCTION/ENDFUNCTION, MODULE/ENDMODULE, IF/ENDIF, CASE/ENDCASE, DO/ENDDO,
WHILE/ENDWHILE, LOOP/ENDLOOP, TRY/ENDTRY, plus DEFINE/END-OF-DEFINITION (macro
bodies are not checked, nor are the SQLScript bodies of ``METHOD … BY DATABASE PROCEDURE``
methods).  It also reports unterminated literals and a last
statement without a period.  Lines are 1-based, columns 0-based (as in ADT
fragments ``#start=L,C``).
"""

from __future__ import annotations

from adt.abap.scanner import MULTILINE_LITERAL, ScanIssue, Statement, scan, statements

from .text import split_lines

__all__ = ["BLOCKS", "ENDERS", "MULTILINE_LITERAL", "ScanIssue", "Statement", "check", "statements"]

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


class _Blocks:
    """The open blocks while walking the statements of one source, and the findings."""

    def __init__(self, findings: list[ScanIssue]) -> None:
        self.findings = findings
        self.stack: list[Statement] = []
        self.in_macro: Statement | None = None
        self.in_database_method = False

    def _issue(self, stmt: Statement, width: int, message: str) -> None:
        self.findings.append(ScanIssue(stmt.line, stmt.column, stmt.column + width, message))

    def skipped(self, stmt: Statement, head: str) -> bool:
        """Macro bodies and AMDP bodies (SQLScript: its ``;`` and ``.`` are not ABAP's)."""
        if self.in_database_method:
            self.in_database_method = "ENDMETHOD" not in stmt.words
            if not self.in_database_method:
                self.stack.pop()
            return True
        if self.in_macro is not None:
            if head == "END-OF-DEFINITION":
                self.in_macro = None
            return True
        if head == "DEFINE":
            self.in_macro = stmt
            return True
        if head == "END-OF-DEFINITION":
            self._issue(stmt, len(head), '"END-OF-DEFINITION" without "DEFINE".')
            return True
        return False

    def statement(self, stmt: Statement) -> None:
        words = stmt.words
        head = words[0] if words else ""
        if self.skipped(stmt, head):
            return
        if not stmt.terminated:
            self._issue(stmt, len(head), "The last statement is not complete (period missing).")
            return
        opened = _opens_block(words)
        if opened is not None:
            self.stack.append(stmt)
            self.in_database_method = opened == "METHOD" and "DATABASE" in words
        elif head in ENDERS:
            self._close(stmt, head)

    def _close(self, stmt: Statement, head: str) -> None:
        start = ENDERS[head]
        stack = self.stack
        if not any(s.words[0] == start for s in stack):
            self._issue(stmt, len(head), f'"{head}" without a preceding "{start}".')
            return
        while stack[-1].words[0] != start:
            inner = stack.pop()
            self._issue(
                stmt,
                len(head),
                f'Incorrect nesting: before "{head}", the "{inner.words[0]}" '
                f"block from line {inner.line} must be closed with "
                f'"{BLOCKS[inner.words[0]]}".',
            )
        stack.pop()

    def finish(self) -> None:
        if self.in_macro is not None:
            self._issue(self.in_macro, 6, '"DEFINE" is not closed with "END-OF-DEFINITION".')
        for stmt in self.stack:
            head = stmt.words[0]
            self._issue(stmt, len(head), f'"{head}" is not closed with "{BLOCKS[head]}".')


def check(text: str) -> list[ScanIssue]:
    """All findings for one source unit, ordered by position."""
    scanner = scan("\n".join(split_lines(text)))
    blocks = _Blocks(list(scanner.findings))
    for stmt in scanner.statements:
        blocks.statement(stmt)
    blocks.finish()
    findings = blocks.findings
    findings.sort(key=lambda f: (f.line, f.column))
    return findings
