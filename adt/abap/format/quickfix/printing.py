"""The quick fix that pretty prints one statement (see the package doc)."""

from __future__ import annotations

from adt.abap.format.pretty import printed_by_line

from .model import Edit, Fix, FixEdits, Site, end_of


def _printed(site: Site) -> tuple[str, str] | None:
    statement = site.statement
    if not statement.words:
        return None
    first, last = statement.first.line, end_of(statement)[0]
    printed = printed_by_line(site.lines, site.settings)
    new = "\n".join(text for number in range(first, last + 1) for text in printed[number - 1])
    old = "\n".join(site.lines[first - 1 : last])
    return (old, new) if new != old else None


def offer_printing(site: Site) -> Fix | None:
    if _printed(site) is None:
        return None
    description = (
        "<p>Applies the pretty printer settings (indentation, upper and lower case) "
        "to the lines of this statement.</p>"
    )
    return Fix(
        "pretty_print_statement", "pretty_print_statement", "Pretty print statement", description
    )


def printing(site: Site) -> FixEdits:
    found = _printed(site)
    if found is None:
        return FixEdits(())
    first, last = site.statement.first.line, end_of(site.statement)[0]
    end = (last, len(site.lines[last - 1]))
    return FixEdits((Edit((first, 0), end, found[1], "Pretty print statement"),))
