"""Repository answers: quick search (the tree, packages and discovery have their own modules)."""

from __future__ import annotations

from dataclasses import dataclass

from ..xmlwriter import DECL, tag
from .common import (
    NS_ADTCORE,
)


@dataclass(frozen=True)
class Reference:
    """One quick-search hit."""

    uri: str
    type: str
    name: str
    package: str | None
    description: str | None


def object_references(refs: list[Reference]) -> str:
    """``adtcore:objectReferences`` (an empty result is the 109-byte empty root)."""
    body = "".join(
        tag(
            "adtcore:objectReference",
            [
                ("adtcore:uri", ref.uri),
                ("adtcore:type", ref.type),
                ("adtcore:name", ref.name),
                ("adtcore:packageName", ref.package),
                ("adtcore:description", ref.description),
            ],
        )
        for ref in refs
    )
    return DECL + tag("adtcore:objectReferences", [("xmlns:adtcore", NS_ADTCORE)], body)
