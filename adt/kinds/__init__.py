"""Object kinds as the client knows them (``adt.kinds.KINDS``): ADT type, collection, root
element, validation endpoint, language id, abapGit files, template. One module per kind,
listed once in :data:`MODULES`."""

from __future__ import annotations

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
from .base import KindRegistry, ObjectKind, Template

#: One module per kind (a module may declare related kinds: programs and includes); a new
#: kind is a new module and one entry here.
MODULES = (clas, intf, prog, fugr, ddls, ddlx, dcls, bdef, srvd, tabl, ttyp, dtel, doma, msag, srvb)

KINDS = KindRegistry(tuple(kind for module in MODULES for kind in module.KINDS))

__all__ = ["KINDS", "MODULES", "KindRegistry", "ObjectKind", "Template"]
