"""The registry of object kinds the emulator serves: one module per kind, listed once here.

Adding a kind is adding a module with a :class:`~.base.KindModule` (its
:class:`~adt.emulator.model.Kind` facts, abapGit files, seeding, metadata document,
creation template, checks) and one line in :data:`MODULES`. Seeding, URL parsing, the
metadata and source resources, creation and checks find the module through
:data:`REGISTRY`; nothing else dispatches on a kind.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model import ADT, Kind
from . import (
    bdef,
    clas,
    dcls,
    ddls,
    ddlx,
    doma,
    dtel,
    fugr,
    intf,
    msag,
    prog,
    srvb,
    srvd,
    tabl,
    ttyp,
)
from .base import KindModule

#: Every kind module, ABAP sources first (the order of seeding within a folder).
MODULES: tuple[KindModule, ...] = (
    clas.MODULE,
    intf.MODULE,
    prog.MODULE,
    fugr.MODULE,
    ddls.MODULE,
    ddlx.MODULE,
    dcls.MODULE,
    bdef.MODULE,
    srvd.MODULE,
    tabl.MODULE,
    ttyp.MODULE,
    dtel.MODULE,
    doma.MODULE,
    msag.MODULE,
    srvb.MODULE,
)


class Registry:
    """Finds the module of a kind, of a URL path, of an abapGit file."""

    def __init__(self, modules: Iterable[KindModule]) -> None:
        self.modules = tuple(modules)
        self._by_kind = {kind: module for module in self.modules for kind in module.kinds}
        self._by_file = {suffix: module for module in self.modules for suffix in module.main_files}
        self._claimed = {
            suffix
            for module in self.modules
            for suffix in (*module.main_files, *module.companion_files)
        }
        #: ``(collection path below /sap/bc/adt/, kind)``, longest first, for URL parsing.
        self.collections = sorted(
            ((kind.collection[len(ADT) + 1 :] + "/", kind) for kind in self._by_kind),
            key=lambda pair: -len(pair[0]),
        )

    @property
    def kinds(self) -> tuple[Kind, ...]:
        return tuple(self._by_kind)

    def module(self, kind: Kind) -> KindModule:
        return self._by_kind[kind]

    def by_code(self, code: str) -> Kind | None:
        """The kind of an ADT type (``DDLS/DF``); ``None`` if no module serves it."""
        wanted = code.upper()
        return next((kind for kind in self._by_kind if kind.code == wanted), None)

    def kind_for_path(self, rest: str) -> Kind | None:
        """The kind whose collection ``rest`` (a path below ``/sap/bc/adt/``) is in."""
        lowered = rest.lower()
        return next((kind for path, kind in self.collections if lowered.startswith(path)), None)

    def kind_of_uri(self, uri: str) -> Kind | None:
        """The kind an object URI (``/sap/bc/adt/…``) names; function modules and group
        includes live below their group's URI."""
        lowered = uri.lower()
        if not lowered.startswith(ADT + "/"):
            return None
        rest = lowered[len(ADT) + 1 :]
        if rest.startswith("functions/groups/"):
            member = rest.split("/")[3:4]
            if member == ["fmodules"]:
                return fugr.FUNC
            if member == ["includes"]:
                return fugr.FINC
            return fugr.FUGR
        return self.kind_for_path(rest)

    def main_file(self, rest: str) -> KindModule | None:
        """The module for which ``<stem>.<rest>`` stands for objects (``ddls.asddls``)."""
        return self._by_file.get(rest)

    def claims(self, rest: str) -> bool:
        """Whether some module reads files ending in ``rest`` (main or companion)."""
        return rest in self._claimed or any(
            rest.startswith(prefix)
            for module in self.modules
            for prefix in module.companion_prefixes
        )


REGISTRY = Registry(MODULES)

__all__ = ["MODULES", "REGISTRY", "KindModule", "Registry"]
