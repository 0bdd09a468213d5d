"""Element info (hover) for CDS-family sources: a field with its type, the data element's
label and the entity it comes from; an association with its target; an entity or table
with its kind, label and keys."""

from __future__ import annotations

from dataclasses import dataclass, field

from adt.abap.cds.catalog import Catalog
from adt.abap.cds.locate import ELEMENT, locate
from adt.abap.cds.model import Source


@dataclass
class Info:
    name: str
    kind: str
    type: str = ""
    label: str = ""
    owner: str = ""
    keys: list[str] = field(default_factory=list)
    line: int = 0
    column: int = 0
    length: int = 0

    def markdown(self) -> str:
        """How an editor shows it."""
        head = f"**{self.name}**" + (f": `{self.type}`" if self.type else "")
        parts = [f"{head} — {self.kind}"]
        if self.label:
            parts.append(self.label)
        if self.owner:
            parts.append(f"of `{self.owner}`")
        if self.keys:
            parts.append("key: " + ", ".join(self.keys))
        return "\n\n".join(parts)


def element_info(source: Source, catalog: Catalog, line: int, column: int) -> Info | None:
    """What an editor's hover shows for the cursor at (1-based line, 0-based column)."""
    found = locate(source, catalog, line, column)
    if found is None:
        return None
    if found.what == ELEMENT and found.field is not None:
        f = found.field
        label = f.label
        data_element = catalog.data_element(f.type) if f.type else None
        typed = f"{f.type} ({data_element.type})" if data_element and data_element.type else f.type
        info = Info(f.name, "key field" if f.key else "field", typed, label or "", f.owner)
    else:
        entity = catalog.entity(found.name) if found.name else None
        if entity is None:
            info = Info(found.name, found.role or "object")
        else:
            kind = f"association to {entity.kind}" if found.role == "association" else entity.kind
            info = Info(entity.name, kind, label=entity.label, keys=[k.name for k in entity.keys])
    info.line, info.column, info.length = found.line, found.column, found.length
    return info
