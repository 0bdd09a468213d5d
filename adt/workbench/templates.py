"""The first text of a new CDS-family object, as ADT's wizards write it: a real system creates
these kinds with an empty source and the editor's wizard writes the template
(``adt.kinds``: ``template``) filled from what the user named — a view entity selecting the
fields of its data source, a behavior definition for its root entity (the definition's own
name) persisted in that entity's table, a service definition or access control on an entity.

A basis that does not exist is refused before anything is created; placeholders without a
basis (``<data_source>``) stay for the user to fill in, as in ADT's linked editing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adt.kinds import KINDS
from adt.source.errors import InvalidArgument

if TYPE_CHECKING:
    from adt.abap.cds.model import Definition
    from adt.client import AdtClient

#: What a basis can be for each kind: the ADT types searched for its name.
_TABLES_AND_VIEWS = ("TABL/DT", "DDLS/DF")
_ENTITIES = ("DDLS/DF",)


@dataclass(frozen=True)
class Basis:
    """The object a new one is built on, with its parsed definition (None: not parsable)."""

    name: str
    type: str
    object_url: str
    definition: Definition | None


async def find_basis(client: AdtClient, name: str, types: tuple[str, ...]) -> Basis:
    """The table or CDS entity called ``name`` (exactly), parsed; refused when there is none."""
    from adt.abap.cds.parse import parse

    wanted = name.strip().upper()
    hits = await client.quick_search(wanted, max_results=20)
    found = next((h for h in hits if h.name.upper() == wanted and h.type in types), None)
    if found is None:
        kinds = " or ".join(k.label for code in types if (k := KINDS.get(code)) is not None)
        raise InvalidArgument(f"there is no {kinds} named {wanted}", basedOn=wanted)
    read = await client.read_source(f"{found.uri}/source/main")
    definition = parse(read.text, found.type.split("/", 1)[0]).definition
    return Basis(wanted, found.type, found.uri, definition)


def _alias(field: str) -> str:
    """ADT's alias of a field in a generated element list: ``trip_id`` → ``TripId``."""
    return "".join(part.capitalize() for part in field.split("_") if part)


def _is_client(name: str, type_: str) -> bool:
    return type_.lower() == "abap.clnt" or name.lower() in ("client", "mandt")


def element_list(basis: Basis) -> str:
    """``{ key f as F, … }`` over the basis's fields (a view entity handles the client
    itself, so a client field is left out)."""
    definition = basis.definition
    fields = [] if definition is None else definition.elements
    lines = []
    for element in fields:
        if element.association:
            continue
        name = element.alias or element.name
        if _is_client(name, element.type):
            continue
        source = name.lower() if basis.type.startswith("TABL") else name
        alias = _alias(name) if basis.type.startswith("TABL") else name
        lines.append(f"  {'key ' if element.key else '    '}{source} as {alias}")
    if not lines:
        return "{\n  key <key_field>\n}"
    return "{\n" + ",\n".join(lines) + "\n}"


async def _view(client: AdtClient, text: str, based_on: str) -> str:
    basis = await find_basis(client, based_on, _TABLES_AND_VIEWS)
    text = text.replace("<data_source>", basis.name.lower())
    return text.replace("{\n  key <key_field>\n}", element_list(basis))


async def _behavior(client: AdtClient, text: str, based_on: str) -> str:
    basis = await find_basis(client, based_on, _ENTITIES)
    sources = basis.definition.sources if basis.definition is not None else []
    return text.replace("<table>", sources[0].name.lower()) if sources else text


async def _on_entity(client: AdtClient, text: str, based_on: str) -> str:
    basis = await find_basis(client, based_on, _ENTITIES)
    return text.replace("<entity>", basis.name)


Filler = Callable[["AdtClient", str, str], Awaitable[str]]

#: How each kind's template is filled from its basis; a kind not listed takes none.
FILLERS: dict[str, Filler] = {
    "DDLS/DF": _view,
    "BDEF/BDO": _behavior,
    "SRVD/SRV": _on_entity,
    "DCLS/DL": _on_entity,
}


def default_basis(code: str, name: str) -> str:
    """A behavior definition is named like its root entity: that is its basis."""
    return name if code == "BDEF/BDO" else ""


async def first_text(
    client: AdtClient, code: str, name: str, description: str, based_on: str = ""
) -> str | None:
    """The wizard's text for a new object of type ``code`` (None: the kind has no template,
    the system's own frame stays)."""
    kind = KINDS.get(code)
    if kind is None or kind.template is None:
        return None
    text = kind.template(name.upper(), description)
    filler = FILLERS.get(code)
    basis = based_on.strip() or default_basis(code, name)
    if not basis or filler is None:
        return text
    try:
        return await filler(client, text, basis)
    except InvalidArgument:
        if based_on.strip():
            raise
        return text  # a behavior definition before its entity: the placeholders stay


__all__ = ["FILLERS", "Basis", "element_list", "find_basis", "first_text"]
