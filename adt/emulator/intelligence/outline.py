"""What a class or interface pool declares and where (``…/objectstructure``), and how types
derive from each other (``abapsource/typehierarchy``), read from the index of the sources.

Spans are SAP's: ``#start=L,C;end=L,C`` with 1-based lines and 0-based columns, the end being
the end of the last word (the period is not included), as an intercepted S/4 answer shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from adt.abap.index import ProgramIndex, Unit
from adt.abap.lexer import Statement, lex
from adt.abap.structure import Block, BlockKind, structure
from adt.abap.symbols import Location, Symbol, SymbolKind

from ..documents.structure import HierarchyEntry, Link, StructureElement
from ..model import CLAS, INTF, RepoObject
from .elements import wb_type
from .repository import Repository, pool_name

_COMPONENTS = (
    SymbolKind.TYPE,
    SymbolKind.CONSTANT,
    SymbolKind.ATTRIBUTE,
    SymbolKind.EVENT,
    SymbolKind.METHOD,
)


@dataclass(frozen=True)
class Span:
    """A stretch of one unit's text."""

    unit: str
    line: int
    column: int
    end_line: int
    end_column: int

    def href(self, base: str) -> str:
        """``./source/main#start=…;end=…`` relative to the object URI ``base``."""
        relative = self.unit[len(base) + 1 :] if self.unit.startswith(base + "/") else self.unit
        prefix = f"./{relative}" if relative != self.unit else relative
        return f"{prefix}#start={self.line},{self.column};end={self.end_line},{self.end_column}"


def _statement_span(unit: str, statement: Statement) -> Span:
    first, last = statement.tokens[0], statement.tokens[-1]
    return Span(unit, first.line, first.column, last.line, last.end)


def _block_span(block: Block) -> Span:
    end = block.end if block.end is not None else block.header
    first, last = block.header.tokens[0], end.tokens[-1]
    return Span(block.unit, first.line, first.column, last.line, last.end)


def _name_span(location: Location, name: str) -> Span:
    return Span(
        location.unit, location.line, location.column, location.line, location.column + len(name)
    )


class PoolText:
    """The texts of one class or interface pool in one version, lexed and indexed."""

    def __init__(self, repo: Repository, obj: RepoObject, version: str | None) -> None:
        self.obj = obj
        self.units: list[Unit] = []
        for part in obj.ordered_parts():
            picked = part.pick(version)
            if picked is not None:
                self.units.append(Unit(obj.source_uri(part.part), picked[0].text))
        suffix = "CP" if obj.kind is CLAS else "IP"
        self.index = ProgramIndex(pool_name(obj.name, suffix), self.units, repo)
        self.statements: dict[str, list[Statement]] = {}
        self.blocks: list[Block] = []
        for unit in self.units:
            lexed = lex(unit.text)
            self.statements[unit.id] = lexed.statements
            self.blocks.extend(structure(unit.id, lexed).blocks)

    def statement_at(self, location: Location) -> Statement | None:
        for statement in self.statements.get(location.unit, []):
            if any(
                t.line == location.line and t.column == location.column for t in statement.tokens
            ):
                return statement
        return None

    def block(self, kind: BlockKind, name: str) -> Block | None:
        for block in self.all_blocks():
            token = block.name_token
            if block.kind is kind and token is not None and token.upper == name.upper():
                return block
        return None

    def all_blocks(self) -> Iterator[Block]:
        stack = list(self.blocks)
        while stack:
            block = stack.pop(0)
            yield block
            stack.extend(block.children)


def object_structure(
    repo: Repository, obj: RepoObject, version: str | None
) -> StructureElement | None:
    """The element tree of a global class or interface, or ``None`` when it has no text."""
    pool = PoolText(repo, obj, version)
    symbol = pool.index.symbol(obj.name)
    if symbol is None or symbol.location is None or not pool.units:
        return None
    root = StructureElement(obj.kind.code, obj.name, [("visibility", "public")])
    root.attrs += _class_flags(pool, symbol)
    root.links = _own_links(pool, symbol)
    members = symbol.members.symbols.values() if symbol.members is not None else []
    for member in members:
        if member.kind in _COMPONENTS and member.location is not None:
            root.children.append(_component(pool, member))
    if obj.kind is CLAS:
        root.children += _interface_parts(pool, symbol)
    return root


def _class_flags(pool: PoolText, symbol: Symbol) -> list[tuple[str, str | None]]:
    if pool.obj.kind is not CLAS or symbol.location is None:
        return []
    statement = pool.statement_at(symbol.location)
    words = {t.upper for t in statement.tokens} if statement is not None else set()
    return [
        ("final", "true" if "FINAL" in words else None),
        ("abstract", "true" if "ABSTRACT" in words else None),
    ]


def _own_links(pool: PoolText, symbol: Symbol) -> list[Link]:
    assert symbol.location is not None
    base = pool.obj.uri
    links = [Link("definitionIdentifier", _name_span(symbol.location, symbol.name).href(base))]
    if symbol.implementation is not None:
        implementation = _name_span(symbol.implementation, symbol.name)
        links.append(Link("implementationIdentifier", implementation.href(base)))
    kind = BlockKind.CLASS_DEFINITION if pool.obj.kind is CLAS else BlockKind.INTERFACE
    definition = pool.block(kind, symbol.name)
    if definition is not None:
        links.append(Link("definitionBlock", _block_span(definition).href(base)))
    implementation_block = pool.block(BlockKind.CLASS_IMPLEMENTATION, symbol.name)
    if implementation_block is not None:
        links.append(Link("implementationBlock", _block_span(implementation_block).href(base)))
    return links


def _component(pool: PoolText, member: Symbol) -> StructureElement:
    assert member.location is not None
    base = pool.obj.uri
    kind = wb_type(member) or ""
    element = StructureElement(kind, member.name)
    if member.description:
        element.attrs.append(("description", member.description))
    if member.kind is SymbolKind.CONSTANT:
        element.attrs.append(("constant", "true"))
    if member.kind is not SymbolKind.TYPE:
        element.attrs.append(("level", "static" if member.static else "instance"))
    if member.kind is SymbolKind.CONSTANT:
        element.attrs.append(("readOnly", "true"))
    element.attrs.append(("visibility", (member.visibility or "public").lower()))
    method = member.kind is SymbolKind.METHOD
    identifier = _name_span(member.location, member.name).href(base)
    element.links.append(Link("definitionIdentifier", identifier, kind if method else None))
    if member.implementation is not None:
        implementation = _name_span(member.implementation, member.name).href(base)
        element.links.append(Link("implementationIdentifier", implementation))
    statement = pool.statement_at(member.location)
    if statement is not None:
        span = _statement_span(member.location.unit, statement)
        element.links.append(Link("definitionBlock", span.href(base)))
    block = pool.block(BlockKind.METHOD, member.name) if method else None
    if block is not None:
        element.links.append(Link("implementationBlock", _block_span(block).href(base)))
    return element


def _interface_parts(pool: PoolText, symbol: Symbol) -> list[StructureElement]:
    """One ``CLAS/OR`` element per ``INTERFACES`` statement, then one ``CLAS/OM`` element
    per implemented interface method (``ZIF_X~M``), as S/4 lists them."""
    base = pool.obj.uri
    parts: list[StructureElement] = []
    methods: list[StructureElement] = []
    for name in symbol.interfaces:
        declared = _interfaces_statement(pool, name)
        element = StructureElement("CLAS/OR", name)
        if declared is not None:
            statement, token_column, line = declared
            unit = _unit_of(pool, statement)
            span = Span(unit, line, token_column, line, token_column + len(name))
            element.links.append(Link("definitionIdentifier", span.href(base)))
            element.links.append(
                Link("definitionBlock", _statement_span(unit, statement).href(base))
            )
        for block, full_name in _method_blocks(pool, name):
            token = block.header.tokens[1]
            ident = Span(
                block.unit, token.line, token.column, token.line, token.column + len(full_name)
            )
            if not any(link.rel == "implementationIdentifier" for link in element.links):
                element.links.insert(
                    1, Link("implementationIdentifier", ident.href(base), "CLAS/OM")
                )
            method = StructureElement(
                "CLAS/OM",
                full_name,
                [("clif_name", pool.obj.name), ("level", "instance"), ("visibility", "public")],
            )
            if element.links:
                method.links.append(Link("definitionIdentifier", element.links[0].href, "CLAS/OR"))
            method.links.append(Link("implementationIdentifier", ident.href(base), "CLAS/OM"))
            method.links.append(Link("implementationBlock", _block_span(block).href(base)))
            methods.append(method)
        parts.append(element)
    return parts + methods


def _unit_of(pool: PoolText, statement: Statement) -> str:
    for unit, statements in pool.statements.items():
        if any(s is statement for s in statements):
            return unit
    return pool.obj.source_uri()


def _interfaces_statement(pool: PoolText, name: str) -> tuple[Statement, int, int] | None:
    for statements in pool.statements.values():
        for statement in statements:
            words = [t.upper for t in statement.tokens]
            if words[:1] == ["INTERFACES"] and name in words:
                token = statement.tokens[words.index(name)]
                return statement, token.column, token.line
    return None


def _method_blocks(pool: PoolText, interface: str) -> list[tuple[Block, str]]:
    """The ``METHOD zif_x~m`` blocks of the interface, with the full name ``ZIF_X~M``."""
    found: list[tuple[Block, str]] = []
    for block in pool.all_blocks():
        words = [t.upper for t in block.header.tokens[1:4]]
        if block.kind is BlockKind.METHOD and len(words) == 3 and words[:2] == [interface, "~"]:
            found.append((block, "".join(words)))
    return found


# --- type hierarchy ---------------------------------------------------------------------
def hierarchy_of(
    repo: Repository, index: ProgramIndex, unit: str, line: int, column: int, super_types: bool
) -> tuple[str, list[HierarchyEntry]]:
    """The type at the cursor (or the class or interface around it) and its super or sub
    types, the origin first."""
    origin = _type_at(index, unit, line, column)
    if origin is None:
        return "", []
    entries = [_entry(repo, origin, "")]
    seen = {origin.name}
    queue = [origin]
    while queue:
        current = queue.pop(0)
        related = _supers(repo, current) if super_types else _subs(repo, current)
        for other in related:
            if other.name not in seen:
                seen.add(other.name)
                entries.append(_entry(repo, other, _type_uri(repo, current)))
                queue.append(other)
    return origin.name, entries


def _type_at(index: ProgramIndex, unit: str, line: int, column: int) -> Symbol | None:
    found = index.occurrence_at(unit, line, column)
    if found is not None and found.symbol.kind in (SymbolKind.CLASS, SymbolKind.INTERFACE):
        return found.symbol
    scope = index.scope_at(unit, line)
    for outer in scope.chain():
        owner = outer.owner
        if owner is not None and owner.kind in (SymbolKind.CLASS, SymbolKind.INTERFACE):
            return owner
    for symbol in index.program.symbols.values():
        if symbol.kind in (SymbolKind.CLASS, SymbolKind.INTERFACE) and symbol.is_global:
            return symbol
    return None


def _named(repo: Repository, name: str) -> Symbol:
    found = repo.global_symbol(name)
    if found is not None:
        return found
    return Symbol(SymbolKind.CLASS, name, None, None, is_global=True)


def _supers(repo: Repository, symbol: Symbol) -> list[Symbol]:
    names = ([symbol.super_name] if symbol.super_name else []) + list(symbol.interfaces)
    return [_named(repo, name) for name in names]


def _subs(repo: Repository, symbol: Symbol) -> list[Symbol]:
    found: list[Symbol] = []
    for obj in sorted(repo.state.objects.values(), key=lambda o: o.name):
        if obj.kind not in (CLAS, INTF):
            continue
        candidate = repo.global_symbol(obj.name)
        if candidate is not None and (
            candidate.super_name == symbol.name or symbol.name in candidate.interfaces
        ):
            found.append(candidate)
    return found


def _type_uri(repo: Repository, symbol: Symbol) -> str:
    obj = repo.named(symbol.name, CLAS, INTF)
    if obj is not None:
        return obj.uri
    return f"{CLAS.collection}/{symbol.name.lower()}"


def _entry(repo: Repository, symbol: Symbol, parent_uri: str) -> HierarchyEntry:
    obj = repo.named(symbol.name, CLAS, INTF)
    kind = wb_type(symbol) or "CLAS/OC"
    if symbol.location is None:
        return HierarchyEntry(_type_uri(repo, symbol), kind, symbol.name, parent_uri, "", "", False)
    location = symbol.location
    uri = f"{location.unit}#start={location.line},{location.column}"
    description = obj.description if obj is not None else symbol.description
    package = obj.package if obj is not None else ""
    return HierarchyEntry(uri, kind, symbol.name, parent_uri, description, package)
