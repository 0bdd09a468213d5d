"""Where-used over the repository: who uses a symbol, grouped the way SAP's RIS answers.

Every program whose sources mention the symbol's name is indexed; its usages of the
symbol (same declaration) become rows. A class is a parent row with one member row per
method implementation (``CLAS/OM``, include ``CMnnn``), definition section (``CLAS/OSU``
…, ``CU``/``CO``/``CI``) or local include; any other object (report, include, function
module, interface) is itself the leaf row. Each leaf carries an ``objectIdentifier``
``ABAPFullName;<main program>;<include>;<full name of the symbol>`` that
:meth:`WhereUsed.snippets` turns back into source lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from adt.abap.index import ProgramIndex
from adt.abap.symbols import DATA_KINDS, Occurrence, ScopeKind, Symbol, SymbolKind

from ..documents.intelligence import CodeSnippet, UsageRow
from ..model import CLAS, FUGR, FUNC, INTF, RepoObject, package_uri
from .repository import Program, Repository, pool_name

_SECTION = re.compile(r"^\s*(PUBLIC|PROTECTED|PRIVATE)\s+SECTION\s*\.", re.IGNORECASE)
_CLASS_END = re.compile(r"^\s*ENDCLASS\s*\.", re.IGNORECASE)
_SECTIONS = {
    "PUBLIC": ("CLAS/OSU", "Public Section", "CU"),
    "PROTECTED": ("CLAS/OSO", "Protected Section", "CO"),
    "PRIVATE": ("CLAS/OSI", "Private Section", "CI"),
}
_LOCAL_INCLUDES = {
    "definitions": ("Class-relevant Local Types", "CCDEF"),
    "implementations": ("Local Types", "CCIMP"),
    "macros": ("Macros", "CCMAC"),
    "testclasses": ("Local Test Classes", "CCAU"),
}
_SEGMENTS = {
    SymbolKind.CLASS: "TY",
    SymbolKind.INTERFACE: "TY",
    SymbolKind.TYPE: "TY",
    SymbolKind.METHOD: "ME",
    SymbolKind.ALIAS: "ME",
    SymbolKind.EVENT: "EV",
    SymbolKind.FUNCTION: "FU",
    SymbolKind.FORM: "FO",
    SymbolKind.INCLUDE: "IC",
    SymbolKind.PROGRAM: "PR",
    SymbolKind.MACRO: "MA",
}
_ROOTS = frozenset({SymbolKind.FUNCTION, SymbolKind.INCLUDE, SymbolKind.PROGRAM})


@dataclass(frozen=True)
class Member:
    """Where in an object a usage is: the row it belongs to and the include it is in."""

    uri: str
    name: str
    include: str
    main: str
    test: bool
    leaf: bool  # the object row itself is the leaf (no member rows)


@dataclass(frozen=True)
class Usage:
    occurrence: Occurrence
    obj: RepoObject
    member: Member


def member_uri(obj: RepoObject, type_code: str, name: str) -> str:
    """``…/source/main#type=CLAS%2FOM;name=ZIF_X%7eRUN`` (SAP's escapes)."""
    encoded = quote(name, safe="").replace("%7E", "%7e").replace("~", "%7e")
    return f"{obj.uri}/source/main#type={quote(type_code, safe='')};name={encoded}"


@dataclass(frozen=True)
class _Layout:
    """A class's main source: method implementations (in order) and definition sections."""

    methods: list[tuple[int, int, str]]
    sections: list[tuple[int, str]]
    definition_end: int

    @classmethod
    def of(cls, index: ProgramIndex, unit: str) -> _Layout:
        regions = sorted(
            (r for r in index.regions if r.unit == unit and r.scope.kind is ScopeKind.METHOD),
            key=lambda r: r.first,
        )
        sections: list[tuple[int, str]] = [(1, "PUBLIC")]  # CLASS … DEFINITION is public
        end = 0
        for number, text in enumerate(index.lines.get(unit, []), start=1):
            match = _SECTION.match(text)
            if match:
                sections.append((number, match.group(1).upper()))
            elif _CLASS_END.match(text):
                end = number
                break
        methods = [(r.first, r.last, r.scope.name) for r in regions]
        return cls(methods, sections, end)

    def section(self, line: int) -> str | None:
        """The visibility section of the global class definition that holds ``line``."""
        if line > self.definition_end:
            return None
        return next(name for start, name in reversed(self.sections) if start <= line)


class WhereUsed:
    """Usages, rows and snippets over one repository."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._layouts: dict[tuple[int, str], tuple[ProgramIndex, _Layout]] = {}

    # full names ------------------------------------------------------------------------
    def full_name(self, symbol: Symbol) -> str:
        """``\\TY:ZIF_X\\ME:RUN``, ``\\PR:ZREPORT\\FO:F``: the name that identifies a symbol."""
        segments: list[str] = []
        current: Symbol | None = symbol
        depth = 0
        while current is not None and depth < 16:
            segments.append(f"\\{_SEGMENTS.get(current.kind, 'DA')}:{current.name}")
            if current.kind in _ROOTS or (current.is_global and current.kind in _SEGMENTS):
                return "".join(reversed(segments))
            owner = current.owner
            if owner is None:
                segments.append(f"\\PR:{self._program_name(current)}")
                break
            current, depth = owner, depth + 1
        return "".join(reversed(segments))

    def _program_name(self, symbol: Symbol) -> str:
        owner = self.repo.unit_owner(symbol.location.unit) if symbol.location else None
        return self.repo.program(owner[0]).name if owner is not None else ""

    # usages ----------------------------------------------------------------------------
    def usages(self, target: Symbol, *, definitions: bool = False) -> list[Usage]:
        """Every usage of ``target`` in the repository (and its declaration, if asked)."""
        found: list[Usage] = []
        needle = target.name.lstrip("<").rstrip(">").upper()
        for program in self.repo.programs():
            if not any(needle in unit.text.upper() for unit in program.units):
                continue
            index = self.repo.index(program)
            for occ in index.occurrences():
                wanted = occ.is_usage or (definitions and occ.role == "declaration")
                if wanted and occ.symbol.key == target.key:
                    usage = self._usage(program, index, occ)
                    if usage is not None:
                        found.append(usage)
        return found

    def _usage(self, program: Program, index: ProgramIndex, occ: Occurrence) -> Usage | None:
        owner = self.repo.unit_owner(occ.unit)
        if owner is None:
            return None
        obj, part = owner
        return Usage(occ, obj, self.member(program, index, obj, part, occ.line))

    def member(
        self, program: Program, index: ProgramIndex, obj: RepoObject, part: str, line: int
    ) -> Member:
        if obj.kind is CLAS:
            return self._class_member(program, index, obj, part, line)
        include = obj.name
        if obj.kind is INTF:
            include = pool_name(obj.name, "IU")
        elif obj.kind is FUGR:
            include = program.name
        elif obj.kind is FUNC:
            include = self._module_include(program, obj)
        return Member(obj.uri, obj.name, include, program.name, False, leaf=True)

    @staticmethod
    def _module_include(program: Program, obj: RepoObject) -> str:
        modules = [u.id for u in program.units if "/fmodules/" in u.id]
        number = (
            modules.index(obj.source_uri("main")) + 1 if obj.source_uri("main") in modules else 1
        )
        return f"L{program.root.name}U{number:02d}"

    def _class_member(
        self, program: Program, index: ProgramIndex, obj: RepoObject, part: str, line: int
    ) -> Member:
        if part in _LOCAL_INCLUDES:
            label, suffix = _LOCAL_INCLUDES[part]
            uri = f"{obj.uri}/includes/{part}"
            return Member(
                uri, label, pool_name(obj.name, suffix), program.name, part == "testclasses", False
            )
        layout = self._layout(index, obj.source_uri("main"))
        for number, (first, last, name) in enumerate(layout.methods, start=1):
            if first <= line <= last:
                uri = member_uri(obj, "CLAS/OM", name)
                include = pool_name(obj.name, f"CM{number:03d}")
                return Member(uri, name, include, program.name, False, False)
        section = layout.section(line)
        if section is not None:
            code, label, suffix = _SECTIONS[section]
            uri = member_uri(obj, code, obj.name)
            return Member(uri, label, pool_name(obj.name, suffix), program.name, False, False)
        return Member(obj.uri, obj.name, program.name, program.name, False, leaf=True)

    def _layout(self, index: ProgramIndex, unit: str) -> _Layout:
        cached = self._layouts.get((id(index), unit))
        if cached is not None and cached[0] is index:
            return cached[1]
        if len(self._layouts) > 64:
            self._layouts.clear()
        layout = _Layout.of(index, unit)
        self._layouts[(id(index), unit)] = (index, layout)
        return layout

    # rows ------------------------------------------------------------------------------
    def identifier(self, member: Member, target: Symbol) -> str:
        return f"ABAPFullName;{member.main};{member.include};{self.full_name(target)}"

    def rows(self, usages: list[Usage], target: Symbol) -> tuple[int, list[UsageRow]]:
        """The flattened tree: package chains, using objects, member rows (sorted by URI)
        and the number of using objects."""
        home = self._home(target)
        rows: dict[str, UsageRow] = {}
        objects: dict[str, RepoObject] = {}
        for usage in usages:
            obj, member = usage.obj, usage.member
            objects[obj.uri] = obj
            package = self.repo.state.packages.get(obj.package)
            home_uri = package.uri if package is not None else package_uri(obj.package)
            grade = "gradeElement" if obj.uri == home else "gradeDirect"
            info = f"{grade},{'includeTest' if member.test else 'includeProductive'}"
            identifier = self.identifier(member, target)
            if member.leaf:
                rows[obj.uri] = _object_row(obj, home_uri, info, identifier)
                continue
            rows.setdefault(obj.uri, _object_row(obj, home_uri, None, None))
            rows[member.uri] = UsageRow(
                member.uri,
                obj.uri,
                True,
                member.name,
                home_uri,
                obj.package,
                usage_information=info,
                object_identifier=identifier,
            )
        for obj in objects.values():
            self._packages(obj.package, rows)
        return len(objects), [rows[uri] for uri in sorted(rows)]

    def _home(self, target: Symbol) -> str | None:
        """The object that declares ``target`` (usages inside it are ``gradeElement``)."""
        if target.location is None:
            return None
        owner = self.repo.unit_owner(target.location.unit)
        return self.repo.program(owner[0]).root.uri if owner is not None else None

    def _packages(self, name: str, rows: dict[str, UsageRow]) -> None:
        depth = 0
        while name and depth < 32:
            package = self.repo.state.packages.get(name)
            if package is None:
                return
            parent = self.repo.state.packages.get(package.parent or "")
            rows[package.uri] = UsageRow(
                package.uri,
                parent.uri if parent is not None else None,
                True,
                package.name,
                package.uri,
                package.name,
                responsible=package.responsible,
                type="DEVC/K",
            )
            name, depth = (package.parent or ""), depth + 1

    # snippets --------------------------------------------------------------------------
    def snippets(self, identifier: str) -> list[CodeSnippet]:
        """The usage lines an ``objectIdentifier`` of :meth:`rows` stands for."""
        fields = identifier.split(";")
        if len(fields) < 4 or fields[0] != "ABAPFullName":
            return []
        main, include, full = fields[1], fields[2], ";".join(fields[3:])
        program = next((p for p in self.repo.programs() if p.name == main), None)
        if program is None:
            return []
        index = self.repo.index(program)
        last = full.rsplit(":", 1)[-1]
        lines: dict[tuple[str, int], list[Occurrence]] = {}
        for occ in index.occurrences():
            shown = occ.is_usage or occ.role == "declaration"
            if not shown or occ.symbol.name != last or self.full_name(occ.symbol) != full:
                continue
            owner = self.repo.unit_owner(occ.unit)
            if owner is None:
                continue
            member = self.member(program, index, owner[0], owner[1], occ.line)
            if member.include == include:
                lines.setdefault((occ.unit, occ.line), []).append(occ)
        home = full.split("\\")[1].split(":", 1)[-1] if full.count("\\") else ""
        return [self._snippet(index, found, home) for found in lines.values()]

    def _snippet(self, index: ProgramIndex, found: list[Occurrence], home: str) -> CodeSnippet:
        first = found[0]
        owner = self.repo.unit_owner(first.unit)
        grade = "gradeElement" if owner is not None and owner[0].name == home else "gradeDirect"
        matches = ";".join(f"{o.column}-{o.end},{_access(o)},{grade}" for o in found)
        uri = f"{first.unit}#start={first.line},{first.column};end={first.line},{first.end}"
        return CodeSnippet(uri, matches, index.line_text(first.unit, first.line))


def _access(occ: Occurrence) -> str:
    if occ.symbol.kind not in DATA_KINDS:
        return "accessUnknown"
    return "accessWrite" if occ.write else "accessRead"


def _object_row(
    obj: RepoObject, package_uri: str, info: str | None, identifier: str | None
) -> UsageRow:
    return UsageRow(
        obj.uri,
        package_uri,
        identifier is not None,
        obj.name,
        package_uri,
        obj.package,
        responsible=obj.responsible,
        type=obj.kind.code,
        usage_information=info,
        object_identifier=identifier,
    )
