"""Object kinds as the client knows them (``adt.kinds.KINDS``): ADT type, collection, root
element, validation endpoint, language id, abapGit files, template. One module per family;
a new kind is one more declaration there and nothing else."""

from __future__ import annotations

from . import abap, cds, dictionary
from .base import KindRegistry, ObjectKind, Template

KINDS = KindRegistry((*abap.KINDS, *cds.KINDS, *dictionary.KINDS))

__all__ = ["KINDS", "KindRegistry", "ObjectKind", "Template"]
