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


def check(text: str) -> list[ScanIssue]:
    """All findings for one source unit, ordered by position."""
    scanner = scan("\n".join(split_lines(text)))
    findings = list(scanner.findings)
    stack: list[Statement] = []
    in_macro: Statement | None = None
    in_database_method = False
    for stmt in scanner.statements:
        words = stmt.words
        head = words[0] if words else ""
        width = len(head)
        if in_database_method:
            # An AMDP body is SQLScript: its ``;`` and ``.`` are not ABAP's.
            in_database_method = "ENDMETHOD" not in words
            if not in_database_method:
                stack.pop()
            continue
        if in_macro is not None:
            if head == "END-OF-DEFINITION":
                in_macro = None
            continue
        if head == "DEFINE":
            in_macro = stmt
            continue
        if head == "END-OF-DEFINITION":
            findings.append(
                ScanIssue(
                    stmt.line,
                    stmt.column,
                    stmt.column + width,
                    '"END-OF-DEFINITION" without "DEFINE".',
                )
            )
            continue
        if not stmt.terminated:
            findings.append(
                ScanIssue(
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
            in_database_method = opened == "METHOD" and "DATABASE" in words
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
                        ScanIssue(
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
                ScanIssue(
                    stmt.line,
                    stmt.column,
                    stmt.column + width,
                    f'"{head}" without a preceding "{start}".',
                )
            )
    if in_macro is not None:
        findings.append(
            ScanIssue(
                in_macro.line,
                in_macro.column,
                in_macro.column + 6,
                '"DEFINE" is not closed with "END-OF-DEFINITION".',
            )
        )
    for stmt in stack:
        head = stmt.words[0]
        findings.append(
            ScanIssue(
                stmt.line,
                stmt.column,
                stmt.column + len(head),
                f'"{head}" is not closed with "{BLOCKS[head]}".',
            )
        )
    findings.sort(key=lambda f: (f.line, f.column))
    return findings
