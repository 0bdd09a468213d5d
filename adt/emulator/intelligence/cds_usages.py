"""Where-used of a data definition or table, with its snippets: every CDS-family source
that names it (a view's data source or association target, a projection's base, a
metadata extension, an access control, a BDEF, a service definition) and every ABAP source
that selects from it (``FROM``, ``JOIN``, ``ENTITIES OF``).

Each using object is one row that is its own leaf, with the ``objectIdentifier`` form a
real system gives a non-ABAP user (TRL capture: ``ObjectType_BDEF/BDO;<user>;\\TY:<used>``);
:meth:`CdsUsages.snippets` turns it back into the lines, one snippet per line with a
``matches`` group per name on it, as the ABAP snippets are (``whereused.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from adt.abap.cds.navigate import abap_data_sources

from ..cds_language import abap_sources, catalog, is_cds, newest_text, parsed
from ..documents import intelligence as docs
from ..model import RepoObject, package_uri
from .whereused import package_rows

if TYPE_CHECKING:
    from ..state import SystemState

_USED = "gradeDirect,includeProductive"
PREFIX = "ObjectType_"


@dataclass(frozen=True)
class Use:
    """One name of the searched object in a using object's source."""

    user: RepoObject
    part: str
    line: int
    column: int
    length: int


class CdsUsages:
    """Rows and snippets of where-used lists of CDS entities and tables."""

    def __init__(self, state: SystemState) -> None:
        self.state = state

    def uses(self, name: str, only: RepoObject | None = None) -> list[Use]:
        """Every use of ``name`` (in ``only``, when given), in text order per object."""
        key = name.upper()
        found: list[Use] = []
        with self.state.lock:
            objects = list(self.state.objects.values())
        for obj in objects:
            if only is not None and obj is not only:
                continue
            if is_cds(obj):
                text = newest_text(obj)
                source = parsed(obj.kind.r3tr, text) if text is not None else None
                for ref in source.references if source is not None else ():
                    if ref.key == key:
                        found.append(Use(obj, "main", ref.line, ref.column, len(ref.name)))
        for obj, part, text in abap_sources(self.state):
            if only is not None and obj is not only:
                continue
            for used, line, column in abap_data_sources(text):
                if used.upper() == key:
                    found.append(Use(obj, part, line, column, len(used)))
        return found

    def rows(self, obj: RepoObject) -> tuple[int, list[docs.UsageRow]]:
        """The using objects of the entity or table ``obj`` defines, with package rows."""
        names = {obj.name.upper()}
        definition = catalog(self.state).named(obj.name)
        if definition is not None and definition.source.definition is not None:
            names.add(definition.source.definition.key)
        users: dict[str, RepoObject] = {}
        for name in names:
            for use in self.uses(name):
                if use.user.uri != obj.uri:
                    users[use.user.uri] = use.user
        rows = {user.uri: self._row(user, obj) for user in users.values()}
        for user in users.values():
            package_rows(self.state.packages, user.package, rows)
        return len(users), [rows[uri] for uri in sorted(rows)]

    @staticmethod
    def _row(user: RepoObject, used: RepoObject) -> docs.UsageRow:
        identifier = f"{PREFIX}{user.kind.code};{user.name};\\TY:{used.name}"
        return docs.UsageRow(
            user.uri,
            package_uri(user.package),
            True,
            user.name,
            package_uri(user.package),
            user.package,
            responsible=user.responsible,
            type=user.kind.code,
            usage_information=_USED,
            object_identifier=identifier,
        )

    def snippets(self, identifier: str) -> list[docs.CodeSnippet]:
        """The lines an identifier of :meth:`rows` stands for (none for a stale one)."""
        fields = identifier.removeprefix(PREFIX).split(";")
        if not identifier.startswith(PREFIX) or len(fields) != 3:
            return []
        code, user_name, used = fields[0], fields[1], fields[2].removeprefix("\\TY:")
        user = self._object(user_name, code)
        if user is None:
            return []
        names = {used.upper()}
        definition = catalog(self.state).named(used)
        if definition is not None and definition.source.definition is not None:
            names.add(definition.source.definition.key)
        lines: dict[tuple[str, int], list[Use]] = {}
        for name in names:
            for use in self.uses(name, only=user):
                lines.setdefault((use.part, use.line), []).append(use)
        return [self._snippet(user, group) for _key, group in sorted(lines.items())]

    def _object(self, name: str, code: str) -> RepoObject | None:
        with self.state.lock:
            for obj in self.state.objects.values():
                if obj.name == name.upper() and obj.kind.code == code:
                    return obj
        return None

    @staticmethod
    def _snippet(user: RepoObject, group: list[Use]) -> docs.CodeSnippet:
        group = sorted(group, key=lambda use: use.column)
        first = group[0]
        lines = (newest_text(user, first.part) or "").replace("\r\n", "\n").split("\n")
        content = lines[first.line - 1] if 0 < first.line <= len(lines) else ""
        end = first.column + first.length
        source = user.source_uri(first.part)
        uri = f"{source}#start={first.line},{first.column};end={first.line},{end}"
        matches = ";".join(
            f"{use.column}-{use.column + use.length},accessUnknown,gradeDirect" for use in group
        )
        return docs.CodeSnippet(uri, matches, content)


__all__ = ["PREFIX", "CdsUsages", "Use"]
