"""Accept-header matching, strict the way on-prem ADT is.

A metadata Accept that carries parameters (``; charset=utf-8``) matches nothing on
on-prem systems (406 SADT_RESOURCE/037); wildcards ``*/*`` and ``application/*``
always match.  Lock documents are told apart by their ``dataname`` parameter.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MediaRange:
    """One entry of an Accept header."""

    type: str
    subtype: str
    params: dict[str, str] = field(default_factory=dict)
    q: float = 1.0

    @property
    def is_wildcard(self) -> bool:
        return self.type == "*" or self.subtype == "*"


def _parse_one(text: str) -> MediaRange | None:
    parts = [p.strip() for p in text.split(";")]
    if not parts or "/" not in parts[0]:
        return None
    main, _, sub = parts[0].lower().partition("/")
    params: dict[str, str] = {}
    q = 1.0
    for raw in parts[1:]:
        key, _, value = raw.partition("=")
        key = key.strip().lower()
        value = value.strip().strip('"')
        if not key:
            continue
        if key == "q":
            try:
                q = float(value)
            except ValueError:
                q = 0.0
        else:
            params[key] = value
    return MediaRange(main.strip(), sub.strip(), params, q)


def parse_accept(header: str | None) -> list[MediaRange]:
    """Parse an Accept header; an absent or empty one yields ``[]``."""
    if not header or not header.strip():
        return []
    ranges = []
    for item in header.split(","):
        parsed = _parse_one(item)
        if parsed is not None:
            ranges.append(parsed)
    return ranges


def _specificity(rng: MediaRange, offer: MediaRange, *, strict_params: bool) -> int | None:
    """How well ``rng`` matches ``offer`` (higher is better), ``None`` if not at all."""
    if rng.type == "*" and rng.subtype == "*":
        return 0
    if rng.type != offer.type:
        return None
    if rng.subtype == "*":
        return 1
    if rng.subtype != offer.subtype:
        return None
    wanted = {k: v for k, v in rng.params.items() if k != "charset"}
    if strict_params and rng.params:
        return None
    if "dataname" in wanted:
        if wanted["dataname"].lower() != offer.params.get("dataname", "").lower():
            return None
        return 3
    return 2


def choose(header: str | None, offers: list[str], *, strict_params: bool = False) -> str | None:
    """The offer to serve for ``header``, or ``None`` (→ 406).

    Offers are listed in the server's order of preference; ties in quality go to the
    offer matched by the most specific range, then to the server's order.
    """
    ranges = parse_accept(header)
    if not ranges:
        return offers[0] if offers else None
    best: tuple[float, int, int] | None = None
    chosen: str | None = None
    for index, offer_text in enumerate(offers):
        offer = _parse_one(offer_text)
        if offer is None:
            continue
        match: tuple[float, int] | None = None
        for rng in ranges:
            spec = _specificity(rng, offer, strict_params=strict_params and not rng.is_wildcard)
            if spec is None:
                continue
            if match is None or spec > match[1]:
                match = (rng.q, spec)
        if match is None or match[0] <= 0:
            continue
        score = (match[0], match[1], -index)
        if best is None or score > best:
            best = score
            chosen = offer_text
    return chosen
