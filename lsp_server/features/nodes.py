"""Items of the call and type hierarchies: a named place in a source that the editor hands
back with its next request (``item.data``). One codec for both, so the two hierarchies
cannot drift apart in what they send and accept."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Self

from adt.source.errors import InvalidArgument
from lsp_server.uris import make_uri

#: Field names spelt otherwise in ``data``.
_KEYS = {"source_url": "source"}


@dataclass(frozen=True)
class SourceNode:
    """A named place: ``line``/``column`` where ``name`` is written (buffer coordinates
    when the document is open)."""

    #: what the item is called in an error ("call hierarchy")
    what: ClassVar[str] = "hierarchy"

    system: str
    source_url: str
    line: int
    column: int
    name: str

    @property
    def uri(self) -> str:
        return make_uri(self.system, self.source_url)

    def data(self) -> dict[str, Any]:
        """What the editor hands back with the item."""
        return {_KEYS.get(f.name, f.name): getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_data(cls, data: Any) -> Self:
        """The item back from its ``data``; a typed error when the editor mangled it."""
        if not isinstance(data, dict):
            raise InvalidArgument(f"a {cls.what} item without its data")
        values: dict[str, Any] = {}
        try:
            for f in fields(cls):
                key = _KEYS.get(f.name, f.name)
                if key in data:
                    values[f.name] = int(data[key]) if f.type == "int" else str(data[key])
                elif f.default is MISSING:
                    raise KeyError(key)
        except (KeyError, TypeError, ValueError):
            raise InvalidArgument(f"a {cls.what} item with broken data") from None
        return cls(**values)


__all__ = ["SourceNode"]
