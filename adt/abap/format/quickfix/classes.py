"""Quick fixes between a class definition and its implementation (see the package doc)."""

from __future__ import annotations

from adt.abap.format.blocks import Block
from adt.abap.format.declarations import declared_methods, implemented_methods

from .model import Edit, Fix, FixEdits, Site, case, class_name, end_of, find_class


def _missing_methods(site: Site) -> tuple[list[str], Block, str] | None:
    words = site.statement.words
    if not words or words[0] not in ("CLASS", "METHODS", "CLASS-METHODS"):
        return None
    name = class_name(site)
    if name is None:
        return None
    definition = find_class(site.source, name, "DEFINITION")
    implementation = find_class(site.source, name, "IMPLEMENTATION")
    if definition is None or implementation is None:
        return None
    assert definition.end is not None and implementation.end is not None
    declared = declared_methods(site.source, definition.start, definition.end)
    if words[0] != "CLASS":
        declared = [m for m in declared if m.statement == site.index]
    done = implemented_methods(site.source, implementation.start, implementation.end)
    missing = [m.name for m in declared if not m.abstract and m.name.upper() not in done]
    written = site.source.statements[definition.start].tokens[1].text
    return (missing, implementation, written) if missing else None


def offer_implementations(site: Site) -> Fix | None:
    found = _missing_methods(site)
    if found is None:
        return None
    missing, _, written = found
    listed = ", ".join(f"<b>{m}</b>" for m in missing)
    if len(missing) == 1:
        title = f"Add implementation for '{missing[0]}'"
        text = f"Creates an empty method implementation for method {listed}"
    else:
        title = f"Add {len(missing)} unimplemented methods"
        text = f"Creates empty method implementations for methods {listed}"
    description = f"<p>{text} in class <b>{written}</b>.</p>"
    return Fix("add_unimplemented_method", "unimplemented_methods", title, description)


def implementations(site: Site) -> FixEdits:
    found = _missing_methods(site)
    if found is None:
        return FixEdits(())
    missing, implementation, _ = found
    assert implementation.end is not None
    opener = site.source.statements[implementation.start].first
    endclass = site.source.statements[implementation.end].first
    indent = " " * (site.source.lines[opener.line - 1].indent + 2)
    method, end = case(opener, "METHOD"), case(opener, "ENDMETHOD")
    body = "".join(f"{indent}{method} {m}.\n\n{indent}{end}.\n\n" for m in missing)
    label = "Insert method implementation"
    if site.source.lines[endclass.line - 1].indent == endclass.column:
        return FixEdits((Edit((endclass.line, 0), None, body, label),), (endclass.line + 1, 0))
    start = (endclass.line, endclass.column)  # ENDCLASS shares its line: break before it
    return FixEdits(
        (Edit(start, None, "\n" + body.rstrip("\n") + "\n", label),), (endclass.line + 2, 0)
    )


def _undeclared_method(site: Site) -> tuple[str, Block] | None:
    words = site.statement.words
    if len(words) < 2 or words[0] != "METHOD" or "~" in words[1]:
        return None
    name = class_name(site)
    definition = find_class(site.source, name, "DEFINITION") if name else None
    if definition is None:
        return None
    assert definition.end is not None
    declared = declared_methods(site.source, definition.start, definition.end)
    if words[1] in {m.name.upper() for m in declared}:
        return None
    return site.statement.tokens[1].text, definition


def offer_definition(site: Site) -> Fix | None:
    found = _undeclared_method(site)
    if found is None:
        return None
    method, _ = found
    description = f"<p>Adds a definition of method <b>{method}</b> to the private section.</p>"
    return Fix(
        "create_method_def", "create_method_def", f"Create definition of '{method}'", description
    )


def definition(site: Site) -> FixEdits:
    found = _undeclared_method(site)
    if found is None:
        return FixEdits(())
    method, definition = found
    assert definition.end is not None
    statements = site.source.statements
    opener = statements[definition.start].first
    base = site.source.lines[opener.line - 1].indent
    methods = f"{' ' * (base + 4)}{case(opener, 'METHODS')} {method}."
    for index in range(definition.start + 1, definition.end):
        if statements[index].words[:2] == ["PRIVATE", "SECTION"]:
            edit = Edit(end_of(statements[index]), None, "\n" + methods, "Insert member definition")
            return FixEdits((edit,))
    section = f"{' ' * (base + 2)}{case(opener, 'PRIVATE')} {case(opener, 'SECTION')}."
    after = statements[definition.end - 1]
    edit = Edit(end_of(after), None, f"\n{section}\n{methods}", "Insert member definition")
    return FixEdits((edit,))
