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

import functools
import gc
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ParamSpec, TypeVar
from urllib.parse import quote

from adt.abap.symbols import Occurrence, Symbol, SymbolKind

from ..documents.intelligence import CodeSnippet, UsageRow
from ..model import CLAS, FUGR, FUNC, INTF, Package, RepoObject, package_uri
from .repository import Program, Repository, pool_name
from .usage_index import Found, Layout, ProgramUsages, Searched, UsageIndex

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
P = ParamSpec("P")
R = TypeVar("R")


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


def collector_paused(handler: Callable[P, R]) -> Callable[P, R]:
    """Run ``handler`` with the cyclic garbage collector paused. A where-used request makes
    tens of thousands of objects that live until its answer is written; collections in the
    middle promote them, which pushes a full collection over the index (about 300,000
    objects, 150 ms of CPU) every few requests — the p95 of the warm requests — and the cold
    request, which builds the index, collected it five times (13 % of its CPU). Reference
    counting frees what the request made when it ends; cycles wait for the next collection."""

    @functools.wraps(handler)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return handler(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return paused


def member_uri(obj: RepoObject, type_code: str, name: str) -> str:
    """``…/source/main#type=CLAS%2FOM;name=ZIF_X%7eRUN`` (SAP's escapes)."""
    encoded = quote(name, safe="").replace("%7E", "%7e").replace("~", "%7e")
    return f"{obj.uri}/source/main#type={quote(type_code, safe='')};name={encoded}"


class WhereUsed:
    """Usages, rows and snippets over one repository."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.index = UsageIndex(repo)
        self._groups: dict[
            tuple[str, object], tuple[ProgramUsages, dict[str, dict[tuple[str, int], list[Found]]]]
        ] = {}
        self._members: dict[tuple[int, tuple[str, int, str]], tuple[RepoObject, Member]] = {}
        repo.listeners.append(self.index.forget)

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
        key = target.key
        for program, stored in self.index.candidates(target.name):
            owners: dict[str, tuple[RepoObject, str] | None] = {}
            for hit in stored.found(key):
                if not (hit.is_usage or (definitions and hit.role == "declaration")):
                    continue
                if hit.unit not in owners:
                    owners[hit.unit] = self.repo.unit_owner(hit.unit)
                owner = owners[hit.unit]
                if owner is not None:
                    member = self.member(program, stored, owner[0], owner[1], hit.line)
                    found.append(Usage(hit.occurrence(target), owner[0], member))
        return found

    def member(
        self, program: Program, stored: ProgramUsages, obj: RepoObject, part: str, line: int
    ) -> Member:
        if obj.kind is CLAS:
            return self._class_member(program, stored, obj, part, line)
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
        self, program: Program, stored: ProgramUsages, obj: RepoObject, part: str, line: int
    ) -> Member:
        layout = stored.layouts.get(obj.source_uri("main")) if part == "main" else None
        slot = _slot(layout, line) if part == "main" else (part, 0, "")
        memo = self._members.get((id(obj), slot))
        if memo is not None and memo[0] is obj:
            return memo[1]
        found = self._class_slot(program, obj, slot)
        if len(self._members) > 4096:
            self._members.clear()
        self._members[(id(obj), slot)] = (obj, found)
        return found

    @staticmethod
    def _class_slot(program: Program, obj: RepoObject, slot: tuple[str, int, str]) -> Member:
        """The row of one part of a class: a local include, a method implementation
        (``CMnnn``), a definition section, or the class itself."""
        where, number, name = slot
        if where in _LOCAL_INCLUDES:
            label, suffix = _LOCAL_INCLUDES[where]
            uri = f"{obj.uri}/includes/{where}"
            test = where == "testclasses"
            return Member(uri, label, pool_name(obj.name, suffix), program.name, test, False)
        if where == "method":
            uri = member_uri(obj, "CLAS/OM", name)
            include = pool_name(obj.name, f"CM{number:03d}")
            return Member(uri, name, include, program.name, False, False)
        if where in _SECTIONS:
            code, label, suffix = _SECTIONS[where]
            uri = member_uri(obj, code, obj.name)
            return Member(uri, label, pool_name(obj.name, suffix), program.name, False, False)
        return Member(obj.uri, obj.name, program.name, program.name, False, leaf=True)

    # rows ------------------------------------------------------------------------------
    def identifier(self, member: Member, target: Symbol) -> str:
        return f"ABAPFullName;{member.main};{member.include};{self.full_name(target)}"

    def rows(self, usages: list[Usage], target: Symbol) -> tuple[int, list[UsageRow]]:
        """The flattened tree: package chains, using objects, member rows (sorted by URI)
        and the number of using objects."""
        home = self._home(target)
        full = self.full_name(target)
        rows: dict[str, UsageRow] = {}
        objects: dict[int, tuple[RepoObject, str, str]] = {}  # id → object, URI, package URI
        for usage in usages:
            obj, member = usage.obj, usage.member
            known = objects.get(id(obj))
            if known is None:
                package = self.repo.state.packages.get(obj.package)
                home_uri = package.uri if package is not None else package_uri(obj.package)
                known = objects[id(obj)] = (obj, obj.uri, home_uri)
            _, uri, home_uri = known
            grade = "gradeElement" if uri == home else "gradeDirect"
            info = f"{grade},{'includeTest' if member.test else 'includeProductive'}"
            identifier = f"ABAPFullName;{member.main};{member.include};{full}"
            if member.leaf:
                rows[uri] = _object_row(obj, uri, home_uri, info, identifier)
                continue
            if uri not in rows:
                rows[uri] = _object_row(obj, uri, home_uri, None, None)
            rows[member.uri] = UsageRow(
                member.uri,
                uri,
                True,
                member.name,
                home_uri,
                obj.package,
                usage_information=info,
                object_identifier=identifier,
            )
        for name in {obj.package for obj, _, _ in objects.values()}:
            package_rows(self.repo.state.packages, name, rows)
        return len(objects), [rows[uri] for uri in sorted(rows)]

    def _home(self, target: Symbol) -> str | None:
        """The object that declares ``target`` (usages inside it are ``gradeElement``)."""
        if target.location is None:
            return None
        owner = self.repo.unit_owner(target.location.unit)
        return self.repo.program(owner[0]).root.uri if owner is not None else None

    # snippets --------------------------------------------------------------------------
    def snippets(self, identifier: str) -> list[CodeSnippet]:
        """The usage lines an ``objectIdentifier`` of :meth:`rows` stands for."""
        fields = identifier.split(";")
        if len(fields) < 4 or fields[0] != "ABAPFullName":
            return []
        main, include, full = fields[1], fields[2], ";".join(fields[3:])
        program = self.repo.program_named(main)
        target = self._target(program, full) if program is not None else None
        if program is None or target is None:
            return []
        stored = self.index.of(program, target.name)
        lines = self._by_include(program, stored, target).get(include, {})
        home = full.split("\\")[1].split(":", 1)[-1] if full.count("\\") else ""
        texts = {u.id: self.index.searched(u) for u in program.units}
        return [self._snippet(texts, found, home) for found in lines.values()]

    def _by_include(
        self, program: Program, stored: ProgramUsages, target: Symbol
    ) -> dict[str, dict[tuple[str, int], list[Found]]]:
        """The program's lines that show ``target``, by include (kept for the identifiers
        of one where-used list, which a client asks for one after the other)."""
        key = (program.root.uri, target.key)
        cached = self._groups.get(key)
        if cached is not None and cached[0] is stored:
            return cached[1]
        groups: dict[str, dict[tuple[str, int], list[Found]]] = {}
        for hit in stored.found(target.key):
            owner = self.repo.unit_owner(hit.unit)
            if owner is None or not (hit.is_usage or hit.role == "declaration"):
                continue
            include = self.member(program, stored, owner[0], owner[1], hit.line).include
            groups.setdefault(include, {}).setdefault((hit.unit, hit.line), []).append(hit)
        if len(self._groups) >= 16:
            self._groups.pop(next(iter(self._groups)))
        self._groups[key] = (stored, groups)
        return groups

    def _target(self, program: Program, full: str) -> Symbol | None:
        """The symbol a full name (``\\TY:ZCL_X\\ME:M``) stands for: walked down from the
        global or program-level declaration when it can be, else found in the program's
        resolved index (locals of a method body)."""
        found = self._walk(full)
        if found is not None and self.full_name(found) == full:
            return found
        last = full.rsplit(":", 1)[-1]
        for occ in self.repo.index(program).occurrences():
            if occ.symbol.name == last and self.full_name(occ.symbol) == full:
                return occ.symbol
        return None

    def _walk(self, full: str) -> Symbol | None:
        segments = [part.split(":", 1) for part in full.split("\\")[1:]]
        if not segments or any(len(part) != 2 for part in segments):
            return None
        (code, name), rest = segments[0], segments[1:]
        current: Symbol | None
        if code == "PR" and rest:
            program = self.repo.program_named(name)
            scope = self.repo.declarations(program).program if program is not None else None
            current = scope.local(rest[0][1]) if scope is not None else None
            rest = rest[1:]
        else:
            current = self.repo.global_symbol(name)
        for _, name in rest:
            members = current.members if current is not None else None
            current = members.local(name) if members is not None else None
        return current

    def _snippet(self, texts: dict[str, Searched], found: list[Found], home: str) -> CodeSnippet:
        first = found[0]
        owner = self.repo.unit_owner(first.unit)
        grade = "gradeElement" if owner is not None and owner[0].name == home else "gradeDirect"
        matches = ";".join(f"{o.column}-{o.end},{_access(o)},{grade}" for o in found)
        uri = f"{first.unit}#start={first.line},{first.column};end={first.line},{first.end}"
        searched = texts.get(first.unit)
        text = searched.line(first.line) if searched is not None else ""
        return CodeSnippet(uri, matches, text)


def _slot(layout: Layout | None, line: int) -> tuple[str, int, str]:
    """Where in a class's main source ``line`` is: ``("method", n, name)``, a section
    (``("PUBLIC", 0, "")`` …) or ``("", 0, "")`` (outside both)."""
    method = layout.method_at(line) if layout is not None else None
    if method is not None:
        return "method", method[0], method[1]
    section = layout.section(line) if layout is not None else None
    return (section or "", 0, "")


def _access(found: Found) -> str:
    if not found.data:
        return "accessUnknown"
    return "accessWrite" if found.write else "accessRead"


def _object_row(
    obj: RepoObject, uri: str, package_uri: str, info: str | None, identifier: str | None
) -> UsageRow:
    return UsageRow(
        uri,
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


def package_rows(packages: Mapping[str, Package], name: str, rows: dict[str, UsageRow]) -> None:
    """Add the rows of package ``name`` and its parents (ADT lists the package tree of every
    using object); stops at a package already listed, or after 32 levels."""
    for _depth in range(32):
        package = packages.get(name)
        if package is None or package.uri in rows:
            return
        parent = packages.get(package.parent or "")
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
        name = package.parent or ""
