"""One object kind as the client sees it: its ADT type, where it lives, how it is created
and validated, which language an editor edits it in, which abapGit files hold it.

Kinds are declared in one module per kind (``ddls.py``, ``tabl.py`` …) and listed once in
:data:`adt.kinds.MODULES`; URL building (``adt.urls``), creation
(``client.objects``) and the faces look them up here instead of branching on a type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: A template: ``(name, description) -> source`` of a new object (the first text an
#: editor's wizard writes).
Template = Callable[[str, str], str]


@dataclass(frozen=True)
class ObjectKind:
    """Static facts about one object type."""

    code: str
    """ADT type, ``DDLS/DF``."""
    collection: str
    """Path of the collection below ``/sap/bc/adt/`` (``ddic/ddl/sources``); a member of a
    function group has ``{group}`` in it."""
    label: str
    root: str
    """Local name of the root element of the object's document (``ddlSource``)."""
    namespace: str
    prefix: str
    validation: str
    """Name validation endpoint below ``/sap/bc/adt/``."""
    abapgit: tuple[str, ...]
    """abapGit file endings (``ddls.asddls``, ``ddls.xml``)."""
    language: str = "abap"
    """Editor language id: ``abap``, ``abap-cds``, ``abap-bdef``, ``abap-srvd``,
    ``abap-ddic`` or ``xml`` (metadata kinds)."""
    source_based: bool = True
    """``False``: no ``/source/main``; the object is one ADT XML document."""
    media_type: str = "application/*"
    """What to ask for when reading the object's document."""
    template: Template | None = None
    max_name_length: int = 30
    face_name: str = ""
    """The name both faces use for the kind (``class``, ``dataDefinition``, …)."""
    previewable: bool = False
    """ADT's data preview shows its rows (tables, CDS entities)."""
    line_break: str = "\r\n"
    """The break a new source of the kind is written with. A source that was read is
    written back with the break it came with; systems keep CDS-family sources verbatim."""

    @property
    def r3tr(self) -> str:
        return self.code.split("/", 1)[0]

    @property
    def nested(self) -> bool:
        """Lives below a function group (``…/groups/<group>/fmodules/<name>``)."""
        return "{group}" in self.collection


class KindRegistry:
    """The declared kinds, found by ADT type or by URL."""

    def __init__(self, kinds: tuple[ObjectKind, ...]) -> None:
        self.kinds = kinds
        self._by_code = {kind.code: kind for kind in kinds}
        self._by_collection = sorted(
            (k for k in kinds if not k.nested), key=lambda k: -len(k.collection)
        )

    def get(self, code: str) -> ObjectKind | None:
        """The kind of an ADT type; a bare R3TR type (``DDLS``) names its main kind."""
        wanted = code.upper()
        found = self._by_code.get(wanted)
        if found is not None:
            return found
        return next((k for k in self.kinds if k.r3tr == wanted), None)

    def for_url(self, url: str) -> ObjectKind | None:
        """The kind an object or source URL (below ``/sap/bc/adt/``) names."""
        path = url.lower().split("/sap/bc/adt/", 1)[-1]
        if path.startswith("functions/groups/"):
            member = path.split("/")[3:4]
            code = {"fmodules": "FUGR/FF", "includes": "FUGR/I"}.get(member[0] if member else "")
            return self._by_code.get(code or "FUGR/F")
        return next((k for k in self._by_collection if path.startswith(k.collection + "/")), None)

    def by_face_name(self) -> dict[str, str]:
        """Face name → ADT type, for every kind that has a face name."""
        return {kind.face_name: kind.code for kind in self.kinds if kind.face_name}

    def for_file(self, filename: str) -> ObjectKind | None:
        """The kind an abapGit file belongs to (``#dmo#i_travel_m.ddls.asddls``)."""
        rest = filename.lower().partition(".")[2]
        return next((k for k in self.kinds if rest in k.abapgit), None)


__all__ = ["KindRegistry", "ObjectKind", "Template"]
