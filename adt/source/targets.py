"""Which source unit a call means: an object URL or source URL, a class include, a version."""

from __future__ import annotations

from dataclasses import dataclass

from adt.source.cache import CacheKey
from adt.source.errors import IncludeNotFound, InvalidArgument, as_source_error
from adt.urls import CLASS_INCLUDE_TYPES, SourceRef, object_type_for, source_ref

VERSIONS = ("active", "inactive", "workingArea")


@dataclass(frozen=True)
class Target:
    """A resolved source unit plus what the caller asked for."""

    ref: SourceRef
    key: CacheKey
    version: str | None
    notes: tuple[str, ...] = ()

    @property
    def include_type(self) -> str | None:
        return self.ref.include if self.ref.is_class else None


def resolve(
    system: str,
    object_url: str | None = None,
    object_source_url: str | None = None,
    include_type: str | None = None,
    version: str | None = None,
) -> Target:
    """Work out which source unit a call means. Raises INVALID_ARGUMENT or
    INCLUDE_NOT_FOUND (for a name that is no class include at all)."""
    url = object_source_url or object_url
    if not url:
        raise InvalidArgument("pass objectUrl (or objectSourceUrl)")
    if version is not None and version not in VERSIONS:
        raise InvalidArgument(f"version must be active, inactive or workingArea, not {version!r}")
    include = include_type.strip().lower() if include_type else None
    try:
        ref = source_ref(url, include)
    except ValueError as exc:
        raise as_source_error(exc) from exc
    if object_url and object_source_url and source_ref(object_url).object_url != ref.object_url:
        raise InvalidArgument(
            f"objectUrl {object_url} and objectSourceUrl {object_source_url} name different objects"
        )
    key = CacheKey(system, ref.object_url, ref.include, version or "")
    return Target(ref, key, version, _include_notes(ref, include))


def _include_notes(ref: SourceRef, include: str | None) -> tuple[str, ...]:
    if include and not ref.is_class:
        kind = object_type_for(ref.object_url) or "this"
        return (f"includeType {include!r} ignored: {kind} objects have a single source",)
    if include and include not in CLASS_INCLUDE_TYPES:
        raise IncludeNotFound(
            f"{include!r} is not a class include; use one of {', '.join(CLASS_INCLUDE_TYPES)}",
            includeType=include,
            available=list(CLASS_INCLUDE_TYPES),
        )
    return ()
