"""The semantic checks for one repository object of the emulator: which sources form its
program, where global classes come from, and how much of the program is known.

A class pool is one program of its own. A report is its source plus the includes it names
(recursively); an include is checked with the programs that include it; a function group
with all its sources. Names (unknown fields) are only judged where every declaration can
be seen: class pools, and reports whose includes are all in the repository.
"""

from __future__ import annotations

from adt.abap.lexer import lex
from adt.abap.scanner import ScanIssue

from ..model import CLAS, FINC, FUGR, FUNC, INCL, INTF, PROG, RepoObject, Repository, encode_name
from .semantic import Part, SemanticCheck


def _text(obj: RepoObject, part: str, version: str) -> str | None:
    unit = obj.parts.get(part)
    picked = unit.pick(version) if unit is not None else None
    return picked[0].text if picked is not None else None


def _includes(text: str) -> list[str]:
    names: list[str] = []
    for stmt in lex(text).statements:
        tokens = stmt.tokens
        if stmt.first == "INCLUDE" and len(tokens) == 2 and tokens[1].kind == "name":
            names.append(tokens[1].upper)
    return names


class ObjectProgram:
    """Collects the program around one object from the emulator's repository."""

    def __init__(self, state: Repository, version: str) -> None:
        self.state = state
        self.version = version

    def source_of(self, name: str) -> str | None:
        """The main source of a global class or interface."""
        for kind in (CLAS, INTF):
            obj = self.state.objects.get(f"{kind.collection}/{encode_name(name)}")
            if obj is not None:
                return _text(obj, "main", self.version)
        return None

    def _include_closure(self, texts: list[str]) -> tuple[list[str], bool]:
        """Texts of the includes the texts name, recursively; whether all were found."""
        found: list[str] = []
        complete = True
        seen: set[str] = set()
        pending = [name for text in texts for name in _includes(text)]
        while pending:
            name = pending.pop()
            if name in seen:
                continue
            seen.add(name)
            obj = self.state.objects.get(f"{INCL.collection}/{encode_name(name)}")
            text = _text(obj, "main", self.version) if obj is not None else None
            if text is None:
                complete = False
                continue
            found.append(text)
            pending.extend(_includes(text))
        return found, complete

    def _main_programs(self, include: str) -> list[str]:
        texts: list[str] = []
        for obj in list(self.state.objects.values()):
            if obj.kind is PROG:
                text = _text(obj, "main", self.version)
                if text is not None and include.upper() in _includes(text):
                    texts.append(text)
        return texts

    def _group(self, obj: RepoObject) -> list[str]:
        group = obj.group if obj.kind in (FUNC, FINC) else obj.name
        texts: list[str] = []
        for other in list(self.state.objects.values()):
            same = other.kind is FUGR and other.name == group
            same = same or (other.kind in (FUNC, FINC) and other.group == group)
            if same and other is not obj:
                text = _text(other, "main", self.version)
                if text is not None:
                    texts.append(text)
        return texts

    def context(self, obj: RepoObject, own: list[str]) -> tuple[list[str], bool, bool]:
        """Other sources of the program, whether its names and its macros are all known."""
        if obj.kind in (CLAS, INTF):
            return [], True, True
        if obj.kind is PROG:
            texts, complete = self._include_closure(own)
            return texts, complete, complete
        if obj.kind is INCL:
            mains = self._main_programs(obj.name)
            texts, complete = self._include_closure(mains)
            return mains + texts, False, bool(mains) and complete
        group = self._group(obj)
        texts, complete = self._include_closure(group + own)
        return group + texts, False, complete


def semantic_findings(
    state: Repository, obj: RepoObject, texts: dict[str, str], version: str
) -> list[tuple[str, ScanIssue]]:
    """Findings of the semantic checks as (part, finding)."""
    program = ObjectProgram(state, version)
    context, names_known, macros_known = program.context(obj, list(texts.values()))
    check = SemanticCheck(
        [Part(part, text) for part, text in texts.items()],
        program.source_of,
        context=context,
        check_names=names_known,
        check_statements=macros_known,
    )
    return [(part, issue) for part, issues in check.run().items() for issue in issues]


__all__ = ["ObjectProgram", "semantic_findings"]
