"""``adt://<system>/sap/bc/adt/...`` document URIs.

The authority names the system; the path is the source URL of an object (``.../source/main``)
or of a class include (``.../includes/definitions``). Names with namespaces stay
percent-encoded (``%2fabc%2fcl_x``). Editors sometimes decode a URI once on the way (``//abc/
cl_x``) or encode the ``%`` again (``%252f``); both are repaired, because an ADT path never
contains ``//`` and never a literal ``%25``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from adt.errors import InvalidObjectUrlError
from adt.kinds import KINDS
from adt.urls import SourceRef, source_ref, validate_adt_path

SCHEME = "adt"
_DECODED_NAMESPACE = re.compile(r"//([^/]+)/([^/]+)")


class InvalidDocumentUri(ValueError):
    """Not an ``adt://SYSTEM/sap/bc/adt/...`` URI."""


@dataclass(frozen=True)
class DocumentRef:
    uri: str
    system: str
    source: SourceRef

    @property
    def object_url(self) -> str:
        return self.source.object_url

    @property
    def source_url(self) -> str:
        return self.source.source_url

    @property
    def include_type(self) -> str | None:
        return self.source.include if self.source.is_class else None

    @property
    def language_id(self) -> str:
        """The editor language of the object's kind (``abap``, ``abap-cds``, ``abap-bdef`` …)."""
        kind = KINDS.for_url(self.object_url)
        return kind.language if kind is not None else "abap"


def _repair(path: str) -> str:
    if "%25" in path.lower():
        path = unquote(path)  # the editor encoded our escapes once more
    return _DECODED_NAMESPACE.sub(
        lambda m: f"/%2f{m.group(1).lower()}%2f{m.group(2).lower()}", path
    )


def parse_uri(uri: str) -> DocumentRef:
    """Map a document URI to its system and source. Raises :class:`InvalidDocumentUri`."""
    parts = urlsplit(uri)
    if parts.scheme != SCHEME or not parts.netloc:
        raise InvalidDocumentUri(f"{uri!r} is not an adt://SYSTEM/sap/bc/adt/... URI")
    if parts.query or parts.fragment:
        raise InvalidDocumentUri(f"{uri!r}: adt URIs carry no query or fragment")
    try:
        path = validate_adt_path(_repair(parts.path))
        ref = source_ref(path)
    except InvalidObjectUrlError as exc:
        raise InvalidDocumentUri(f"{uri!r}: {exc}") from exc
    return DocumentRef(uri=uri, system=unquote(parts.netloc), source=ref)


def make_uri(system: str, object_url: str, include_type: str | None = None) -> str:
    """The canonical document URI of an object's source or of a class include."""
    ref = source_ref(object_url, include_type)
    return f"{SCHEME}://{system}{ref.source_url}"
