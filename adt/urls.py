"""Object URLs: validation and construction.

Every URL that reaches the HTTP layer passes :func:`validate_adt_path`, so a caller (an
editor, an agent) can never point us at another host, escape ``/sap/bc/adt/`` or smuggle a
query string into a path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

from adt.errors import InvalidObjectUrlError, NotAClassError
from adt.kinds import KINDS

MAX_URL_LENGTH = 1024
"""Longer than any ADT URL: names have at most 40 characters, namespaces 10."""
ADT_ROOT = "/sap/bc/adt/"
CLASS_INCLUDE_TYPES = ("main", "definitions", "implementations", "macros", "testclasses")

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_ALLOWED = re.compile(r"^[A-Za-z0-9_\-./%$~]+$")


def _lower_escapes(path: str) -> str:
    return _PERCENT.sub(lambda m: m.group(0).lower(), path)


def validate_adt_path(url: object) -> str:
    """Return ``url`` normalised (lower case) if it is a safe path under ``/sap/bc/adt/``.

    Refused: anything but a string, a scheme or host, ``..`` (also percent-encoded),
    control characters, a query or fragment, backslashes and whitespace.
    """
    return _lower_escapes(check_adt_path(url)).lower()


def check_adt_path(url: object) -> str:
    """``url`` itself (trailing slash dropped, case kept: request numbers and run ids are
    upper case) if it is a safe path under ``/sap/bc/adt/``; else as
    :func:`validate_adt_path`."""
    if not isinstance(url, str) or not url:
        raise InvalidObjectUrlError("an object URL must be a non-empty string")
    if len(url) > MAX_URL_LENGTH:
        raise InvalidObjectUrlError(
            f"object URL is {len(url)} characters long; ADT URLs have at most "
            f"{MAX_URL_LENGTH} (object names at most 40): {url[:80]}..."
        )
    decoded = unquote(url)
    if _CONTROL.search(url) or _CONTROL.search(decoded):
        raise InvalidObjectUrlError(f"object URL {url!r} contains control characters")
    if "://" in url or url.startswith("//"):
        raise InvalidObjectUrlError(
            f"object URL {url!r} must be a path like /sap/bc/adt/oo/classes/zcl_x, "
            "without scheme or host"
        )
    if not url.startswith(ADT_ROOT):
        raise InvalidObjectUrlError(f"object URL {url!r} must start with {ADT_ROOT}")
    if "?" in url or "#" in url:
        raise InvalidObjectUrlError(f"object URL {url!r} must not carry a query or fragment")
    if not _ALLOWED.match(url):
        raise InvalidObjectUrlError(
            f"object URL {url!r} contains characters that are not allowed; percent-encode names"
        )
    segments = decoded.split("/")
    if any(segment in ("..", ".") for segment in segments) or "\\" in decoded:
        raise InvalidObjectUrlError(f"object URL {url!r} must not contain '..' or '.' segments")
    if "//" in url[1:]:
        raise InvalidObjectUrlError(f"object URL {url!r} contains an empty path segment")
    return url.rstrip("/")


def encode_name(name: str) -> str:
    """Encode an object name for a URL: lower case, ``/`` and ``$`` percent-encoded.

    ``/ABC/CL_X`` becomes ``%2fabc%2fcl_x`` (SAP writes the escapes in lower case).
    """
    if not name or _CONTROL.search(name) or name.strip() != name:
        raise InvalidObjectUrlError(f"invalid object name {name!r}")
    return _lower_escapes(quote(name.lower(), safe=""))


def decode_name(segment: str) -> str:
    """The upper-case object name of a URL segment (``%2fabc%2fcl_x`` -> ``/ABC/CL_X``)."""
    return unquote(segment).upper()


def object_url(object_type: str, name: str, *, group: str | None = None) -> str:
    """Build an object URL from an ADT type (``CLAS``, ``PROG/I``, ``DDLS/DF``, ``FUGR/FF``...)
    and a name; namespaced names are encoded (``/DMO/I_TRAVEL_M`` → ``%2fdmo%2fi_travel_m``)."""
    code = object_type.upper()
    kind = KINDS.get("PROG/I" if code == "INCL" else code)
    if kind is None:
        raise InvalidObjectUrlError(f"unsupported object type {object_type!r}")
    if kind.nested:
        if not group:
            raise InvalidObjectUrlError(f"{object_type} needs the function group name")
        collection = kind.collection.format(group=encode_name(group))
        return f"{ADT_ROOT}{collection}/{encode_name(name)}"
    return f"{ADT_ROOT}{kind.collection}/{encode_name(name)}"


@dataclass(frozen=True)
class SourceRef:
    """An object and one of its source units, derived from URLs by ADT's conventions.

    ``include`` is the class include type (``main`` for every non-class source).
    """

    object_url: str
    source_url: str
    include: str
    is_class: bool

    @property
    def object_name(self) -> str:
        return decode_name(self.object_url.rsplit("/", 1)[-1])


def is_class_url(object_url: str) -> bool:
    return object_url.startswith(f"{ADT_ROOT}oo/classes/")


def source_ref(url: str, include: str | None = None) -> SourceRef:
    """Resolve an object URL or a source URL (plus optional class include) to a :class:`SourceRef`.

    ``includeType`` on a non-class object is ignored, as the V2 design prescribes; an include
    path (``/includes/x``) on a non-class object is refused, because it cannot exist.
    """
    path = validate_adt_path(url)
    object_path, from_url = _split_source_path(path)
    klass = is_class_url(object_path)
    if from_url is not None and from_url != "main" and not klass:
        raise NotAClassError(f"{url!r}: only classes have /includes/{from_url}")
    if not klass and (kind := KINDS.for_url(object_path)) is not None and not kind.source_based:
        return SourceRef(object_path, object_path, "main", False)  # its document is its text
    chosen = (include or from_url or "main").lower() if klass else "main"
    if klass and chosen != "main":
        return SourceRef(object_path, f"{object_path}/includes/{chosen}", chosen, True)
    return SourceRef(object_path, f"{object_path}/source/main", "main", klass)


def _split_source_path(path: str) -> tuple[str, str | None]:
    if path.endswith("/source/main"):
        return path[: -len("/source/main")], "main"
    head, sep, tail = path.rpartition("/includes/")
    if sep and "/" not in tail and (is_class_url(head) or tail in CLASS_INCLUDE_TYPES):
        return head, tail
    return path, None


def object_type_for(object_url: str) -> str:
    """The ADT type an object URL implies (``CLAS/OC``, ``DDLS/DF``, ...); ``""`` if unknown."""
    kind = KINDS.for_url(object_url)
    return kind.code if kind is not None else ""


VERSIONS = ("active", "inactive", "workingArea")


def version_params(version: str | None) -> dict[str, str]:
    """The query of a read of one version of an object (none: the newest, as ADT answers)."""
    if version is None:
        return {}
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {', '.join(VERSIONS)}, not {version!r}")
    return {"version": version}
