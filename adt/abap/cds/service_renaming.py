"""Renaming the alias of an entity a service definition exposes (``expose ZC_Travel as
Travel;``): the alias is the entity set's name in the OData service, unique within the
service — its definition and every ``extend service … with`` of it together.

Only the alias itself changes: nothing else in the CDS family or in ABAP source names it
(a service binding refers to the service, annotations and behaviors to entities). What
names an entity set from outside — an OData client's URL, a Fiori app, a string literal in
ABAP (``create_resource_for_entity_set( 'Travel' )``) — is not source we can follow and is
left alone. No I/O: the caller gives the texts of the service definitions."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from adt.abap.cds.renaming import Place, RenameRefused
from adt.abap.cds.tokens import NAME, tokenize
from adt.abap.lexer import Token

_NAME = re.compile(r"^(?:/[A-Za-z0-9_]+/)?[A-Za-z_][A-Za-z0-9_]*$")
_MAX_NAME = 30

__all__ = ["ServiceAlias", "alias_at", "alias_places", "check_alias_name"]


@dataclass(frozen=True)
class ServiceAlias:
    """The alias ``name`` (upper case) in the service ``service`` (upper case: the
    defined service, also when the alias is written in an extension of it)."""

    service: str
    name: str


@dataclass(frozen=True)
class _Exposure:
    entity: Token
    alias: Token | None

    @property
    def set_name(self) -> str:
        """The entity set's name: the alias, else the entity's own name."""
        return (self.alias or self.entity).text.upper()


def _service_of(tokens: list[Token]) -> str | None:
    """The service a text defines or extends (``define service X``, ``extend service X``)."""
    for index, token in enumerate(tokens[:-2]):
        if token.text.lower() in ("define", "extend") and tokens[index + 1].text.lower() == (
            "service"
        ):
            return tokens[index + 2].text.upper()
    return None


def _exposures(tokens: list[Token]) -> Iterator[_Exposure]:
    for index, token in enumerate(tokens):
        if token.text.lower() != "expose" or index + 1 >= len(tokens):
            continue
        entity = tokens[index + 1]
        if entity.kind != NAME:
            continue
        after = tokens[index + 2 : index + 4]
        named = len(after) == 2 and after[0].text.lower() == "as" and after[1].kind == NAME
        yield _Exposure(entity, after[1] if named else None)


def alias_at(text: str, line: int, column: int) -> ServiceAlias | None:
    """The alias under the cursor in a service definition (or its extension); None when
    the cursor is on no exposure. Refused: the entity's name of an exposure (its alias
    is what is renamed), an exposure without an alias."""
    tokens = tokenize(text)
    service = _service_of(tokens)
    if service is None:
        return None
    for exposure in _exposures(tokens):
        if exposure.alias is not None and _covers(exposure.alias, line, column):
            return ServiceAlias(service, exposure.alias.text.upper())
        if _covers(exposure.entity, line, column):
            entity = exposure.entity.text
            if exposure.alias is None:
                raise RenameRefused(
                    f"{entity} is exposed without an alias: give it one (expose {entity} as "
                    "…) and rename the alias"
                )
            raise RenameRefused(
                f"{entity} is the exposed entity: place the cursor on its alias "
                f"{exposure.alias.text} to rename the entity set"
            )
    return None


def _covers(token: Token, line: int, column: int) -> bool:
    return token.line == line and token.column <= column <= token.column + len(token.text)


def _of_service(services: Mapping[str, str], service: str) -> Iterator[tuple[str, _Exposure]]:
    """(object, exposure) of every exposure of ``service`` and its extensions."""
    for name, text in sorted(services.items()):
        tokens = tokenize(text)
        if _service_of(tokens) == service:
            for exposure in _exposures(tokens):
                yield name, exposure


def check_alias_name(services: Mapping[str, str], alias: ServiceAlias, new: str) -> None:
    """A CDS name (a namespace allowed), at most 30 characters, not the name of another
    entity set of the same service (its extensions included)."""
    if not _NAME.match(new) or len(new) > _MAX_NAME:
        raise RenameRefused(
            f"{new} is not a valid alias (letters, digits, _, a /namespace/; at most 30)"
        )
    if new.upper() == alias.name:
        return
    for name, exposure in _of_service(services, alias.service):
        if exposure.set_name == new.upper():
            raise RenameRefused(
                f"The service {alias.service} exposes {exposure.entity.text} as "
                f"{(exposure.alias or exposure.entity).text} already (in {name}): entity set "
                "names must be unique within a service"
            )


def alias_places(services: Mapping[str, str], alias: ServiceAlias) -> list[Place]:
    """The alias where it is written (``services``: SRVD name → text)."""
    return [
        Place(name, "SRVD", exposure.alias.line, exposure.alias.column, len(exposure.alias.text))
        for name, exposure in _of_service(services, alias.service)
        if exposure.alias is not None and exposure.alias.text.upper() == alias.name
    ]
