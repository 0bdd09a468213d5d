"""The ABAP pretty printer: keyword case and indentation, with the meaning of the code kept.

What it does, line by line (the behaviour recorded on a real system, see
docs/protocol/pretty-printer.md):

* statements that share a line are put on lines of their own (a comment at the end stays
  with the last one); nothing else is joined or split;
* with ``indentation``, each statement's first line is indented two blanks per block level
  (:mod:`adt.abap.format.blocks`); a continuation line of a chained statement that starts a new
  element is aligned under the first element after the colon (two more inside ``BEGIN OF``);
  other continuation lines keep their place relative to the first line (never left of it);
  a comment line with ``"`` takes the indentation of the next statement;
* keywords and identifiers get the case of the ``style`` (:mod:`adt.abap.format.casing`);
* trailing blanks go; comment lines with ``*``, comments, literals and string templates are
  never changed, nor are lines the lexer marks verbatim (:mod:`adt.abap.format.tokens`);
* the result has the same tokens as the input, and printing it again changes nothing.

Text comes in with any line ends (CRLF, LF, a lone CR) and goes out with LF; the final line
break of the input is kept or left out as it was.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .blocks import Layout, analyse
from .casing import keyword_map, recased_text
from .runs import RunStyle, print_run
from .skim import Run, skim
from .tokens import (
    BLANKS,
    LineKind,
    SourceLine,
    Token,
    TokenKind,
    TokenStatement,
    lex,
    token_statements,
)

STYLES = ("toLower", "toUpper", "keywordUpper", "keywordLower", "keywordAuto", "none")
INDENT = 2
_LINE_BREAK = re.compile(r"\r\n|\n|\r")


@dataclass(frozen=True)
class PrinterSettings:
    """How to print: re-indent or not, the case style, and whether identifiers keep their
    case (the three attributes of ``abapformatter:PrettyPrinterSettings``)."""

    indentation: bool = True
    style: str = "keywordUpper"
    keep_identifier: bool = True

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise ValueError(f"style must be one of {', '.join(STYLES)}, not {self.style!r}")


@dataclass(frozen=True)
class Source:
    """A source lexed once: its lines, statements, block layout and which word is a keyword."""

    lines: list[SourceLine]
    statements: list[TokenStatement]
    layout: Layout
    keywords: dict[Token, bool]

    @classmethod
    def parse(cls, lines: Sequence[str]) -> Source:
        lexed = lex(list(lines))
        statements = token_statements(lexed)
        return cls(lexed, statements, analyse(statements), keyword_map(statements))

    def statement_of(self) -> dict[Token, int]:
        return {t: i for i, s in enumerate(self.statements) for t in s.tokens}


def split_text(text: str) -> tuple[list[str], bool]:
    """Lines of ``text`` and whether it ended with a line break. CRLF, LF and a lone CR all
    break lines (as in the client's canonical text), so no CR is left inside a line."""
    lines = _LINE_BREAK.split(text) if "\r" in text else text.split("\n")  # (5 times faster)
    final = len(lines) > 1 and lines[-1] == ""
    return (lines[:-1] if final else lines), final


_KEYWORD_CASE = {"toUpper": True, "keywordUpper": True, "toLower": False, "keywordLower": False}


def _case_plan(settings: PrinterSettings, source: Source) -> tuple[bool | None, bool | None]:
    """(keyword case, identifier case): True upper, False lower, None as written.
    ``keywordAuto`` writes keywords the way most of them are already written."""
    style = settings.style
    if style == "none":
        return None, None
    if style == "keywordAuto":
        seen = Counter(
            t.text.isupper() for t, is_kw in source.keywords.items() if is_kw and t.text.isalpha()
        )
        keywords = seen[True] >= seen[False]
    else:
        keywords = _KEYWORD_CASE[style]
    names = keywords if style in ("toUpper", "toLower") else not keywords
    return keywords, (None if settings.keep_identifier else names)


def recased_lines(
    source: Source, settings: PrinterSettings, texts: list[str] | None = None
) -> list[str]:
    """Each line's text with the case style applied to its words (verbatim lines as they
    are); every word keeps its length, so token columns stay valid. ``texts``: the texts of
    all lines of the source, where those of ``source.lines`` are replaced (a skimmed source
    lexed only some of them)."""
    keyword_case, name_case = _case_plan(settings, source)
    if texts is None:
        texts = [line.text for line in source.lines]
    if keyword_case is None and name_case is None:
        return texts
    for line in source.lines:
        if not line.verbatim:
            texts[line.number - 1] = recased_text(line, source.keywords, keyword_case, name_case)
    return texts


class _Printer:
    """Builds the output lines; see the module doc for the rules."""

    def __init__(self, source: Source, texts: list[str], settings: PrinterSettings) -> None:
        self.source = source
        self.texts = texts
        self.indent_on = settings.indentation
        self.owner = source.statement_of()
        self.first_indent: dict[int, tuple[int, int]] = {}  # statement → (old, new) indent
        self.anchor: dict[int, int] = {}  # chained statement → column of its first element
        self.depths = {t: d for s in source.statements for t, d in _element_depths(s).items()}
        #: the first token of each statement → the statement
        self.firsts = {s.first: i for i, s in enumerate(source.statements)}
        self.next_statement = self._next_statements()

    def _next_statements(self) -> list[int | None]:
        """For each line, the statement whose first token comes next (at or after it)."""
        following: list[int | None] = [None] * (len(self.texts) + 1)
        upcoming: int | None = None
        firsts = self.firsts
        for line in reversed(self.source.lines):
            for token in reversed(line.code_tokens):
                index = firsts.get(token)
                if index is not None:
                    upcoming = index
            following[line.number - 1] = upcoming
        return following

    def run(self) -> list[list[str]]:
        """The printed lines of each input line (more than one where statements split)."""
        return [self._print(line) for line in self.source.lines]

    def _print(self, line: SourceLine) -> list[str]:
        if line.kind is LineKind.BLANK:
            return [""]
        if line.kind is LineKind.STAR:
            return [line.text]
        if line.verbatim:
            self._remember_verbatim(line)
            return [line.text]
        if not line.code_tokens:
            return [self._comment_line(line)]
        return self._code_line(line)

    def _remember_verbatim(self, line: SourceLine) -> None:
        for token in line.code_tokens:
            index = self.owner[token]
            if self.source.statements[index].first is token:
                self.first_indent[index] = (token.column, token.column)

    def _comment_line(self, line: SourceLine) -> str:
        comment = line.tokens[0]
        text = comment.text.rstrip(BLANKS)
        if not self.indent_on:
            return line.text[: comment.column] + text
        open_statement = self._open_statement(line)
        if open_statement is not None:
            return " " * self._shifted(open_statement, line.indent) + text
        upcoming = self.next_statement[line.number - 1]
        words = self.source.statements[upcoming].words if upcoming is not None else []
        return " " * (self.source.layout.comment_level(upcoming, words) * INDENT) + text

    def _open_statement(self, line: SourceLine) -> int | None:
        """The statement that began before ``line`` and ends after it, if any."""
        upcoming = self.next_statement[line.number - 1]
        candidate = upcoming - 1 if upcoming is not None else len(self.source.statements) - 1
        if candidate < 0 or candidate not in self.first_indent:
            return None
        last = self.source.statements[candidate].last
        ends_later = last.line > line.number
        return candidate if ends_later or not self.source.statements[candidate].terminated else None

    def _shifted(self, index: int, indent: int) -> int:
        old, new = self.first_indent[index]
        return max(indent + new - old, new)

    def _code_line(self, line: SourceLine) -> list[str]:
        tokens = line.code_tokens
        cuts = [0, *(k for k in range(1, len(tokens)) if self._starts_statement(tokens[k]))]
        text = self.texts[line.number - 1]
        result: list[str] = []
        for n, k in enumerate(cuts):
            begin = tokens[k].column
            end = tokens[cuts[n + 1]].column if n + 1 < len(cuts) else len(text)
            segment = text[begin:end].rstrip(BLANKS)
            indent = self._indent(line, tokens[k])
            if segment.startswith("*") and indent == 0:
                indent = 1  # in column 0 it would become a comment line
            result.append(" " * indent + segment)
        return result

    def _starts_statement(self, token: Token) -> bool:
        index = self.firsts.get(token)
        return index is not None and not self.source.statements[index].is_empty

    def _indent(self, line: SourceLine, token: Token) -> int:
        index = self.owner[token]
        statement = self.source.statements[index]
        if statement.first is token:
            new = self.source.layout.levels[index] * INDENT if self.indent_on else line.indent
            self.first_indent[index] = (token.column, new)
            self._remember_anchor(index, statement, new)
            return new
        if not self.indent_on or index not in self.first_indent:
            return line.indent
        if token in self.depths and index in self.anchor:
            return self.anchor[index] + INDENT * self.depths[token]
        return self._shifted(index, line.indent)

    def _remember_anchor(self, index: int, statement: TokenStatement, new: int) -> None:
        colon = statement.colon
        if colon is None or colon + 1 >= len(statement.tokens):
            return
        first, after = statement.first, statement.tokens[colon + 1]
        if after.line == first.line and after.kind is not TokenKind.PERIOD:
            self.anchor[index] = new + after.column - first.column


def _element_depths(statement: TokenStatement) -> dict[Token, int]:
    """First token of each chain element after the first → its ``BEGIN OF`` depth."""
    if statement.colon is None:
        return {}
    depths: dict[Token, int] = {}
    depth = 0
    for position, element in enumerate(statement.elements()):
        words = [t.upper for t in element if t.kind is TokenKind.WORD]
        if words[:2] == ["END", "OF"]:
            depth = max(depth - 1, 0)
        if position > 0 and element:
            depths[element[0]] = depth
        if words[:2] == ["BEGIN", "OF"]:
            depth += 1
    return depths


def printed_by_line(lines: Sequence[str], settings: PrinterSettings) -> list[list[str]]:
    """For each of ``lines``, its printed form (one line, or more where statements split).

    The runs of lines that change no block (:mod:`adt.abap.format.skim`) are printed without
    lexing them (:mod:`adt.abap.format.runs`); ``keywordAuto`` weighs the case of every
    keyword of the source, so it lexes all."""
    if settings.style == "keywordAuto":
        return printed_lexing_all(lines, settings)
    skimmed = skim(lines)
    statements = skimmed.statements
    layout = analyse(statements)
    source = Source(skimmed.lexed, statements, layout, keyword_map(statements))
    printer = _Printer(source, recased_lines(source, settings, list(lines)), settings)
    printed: list[list[str]] = [[]] * len(lines)
    for line, out in zip(source.lines, printer.run(), strict=True):
        printed[line.number - 1] = out
    case = _case_plan(settings, source)
    after = 0  # lexed statements before the part
    for part in skimmed.parts:
        if isinstance(part, Run):
            level, tail = _run_levels(layout, statements, after)
            style = RunStyle(level * INDENT, tail * INDENT, settings.indentation, *case)
            printed[part.first - 1 : part.end - 1] = print_run(lines, part, style)
        else:
            after += 1
    return printed


def printed_lexing_all(lines: Sequence[str], settings: PrinterSettings) -> list[list[str]]:
    """:func:`printed_by_line` with every line lexed (what it does for ``keywordAuto``)."""
    source = Source.parse(lines)
    return _Printer(source, recased_lines(source, settings), settings).run()


def _run_levels(layout: Layout, statements: list[TokenStatement], after: int) -> tuple[int, int]:
    """The level of the statements of a run after ``after`` lexed statements (the body
    there: they open nothing), and that of a comment line after its last statement."""
    if after >= len(statements):
        return layout.final, layout.final
    return layout.inner[after], layout.comment_level(after, statements[after].words)


def pretty_print_lines(lines: Sequence[str], settings: PrinterSettings) -> list[str]:
    """The printed form of ``lines`` (see the module doc)."""
    return [text for printed in printed_by_line(lines, settings) for text in printed]


def pretty_print(text: str, settings: PrinterSettings | None = None) -> str:
    """The printed form of ``text`` (CRLF or LF in, LF out; the final line break kept)."""
    lines, final = split_text(text)
    printed = pretty_print_lines(lines, settings or PrinterSettings())
    return "\n".join(printed) + ("\n" if final else "")
