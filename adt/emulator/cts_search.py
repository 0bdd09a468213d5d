"""Saved searches of the transport organizer (``…/transportrequests/searchconfiguration``).

A configuration is a user's filter for the request tree (which categories, modifiable or
released, whose). A4H creates one with the defaults of ``transport-search-configuration-
created`` (``POST`` without a body), lists them, and lets a client change the properties
with ``PUT`` (abap-adt-api's ``setTransportsConfig``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from . import stamps

#: Properties of a new configuration and whether each is mandatory, in A4H's order.
DEFAULTS: tuple[tuple[str, str, bool], ...] = (
    ("WorkbenchRequests", "true", True),
    ("CustomizingRequests", "true", True),
    ("TransportOfCopies", "true", True),
    ("Modifiable", "true", True),
    ("Released", "true", True),
    ("User", "", True),
    ("DateFilter", "1", True),
    ("FromDate", "", False),
    ("ToDate", "", False),
)


@dataclass
class SearchConfiguration:
    """One saved search: its id, owner, change times and properties."""

    id: str
    user: str
    created: int
    changed: int
    properties: dict[str, str] = field(default_factory=dict)

    @property
    def etag(self) -> str:
        return time.strftime("%Y%m%d%H%M%S", time.gmtime(self.changed))

    def flag(self, key: str) -> bool:
        return self.properties.get(key, "true").lower() == "true"


class SearchConfigurations:
    """All saved searches of the system (callers hold the state lock)."""

    def __init__(self) -> None:
        self.items: dict[str, SearchConfiguration] = {}

    def create(self, user: str) -> SearchConfiguration:
        now = stamps.now_seconds()
        config = SearchConfiguration(secrets.token_hex(16).upper(), user, now, now)
        config.properties = {key: value for key, value, _ in DEFAULTS}
        config.properties["User"] = user
        self.items[config.id] = config
        return config

    def find(self, uri_or_id: str) -> SearchConfiguration | None:
        return self.items.get(uri_or_id.rstrip("/").rsplit("/", 1)[-1].upper())

    def update(self, config: SearchConfiguration, properties: dict[str, str]) -> None:
        config.properties.update({k: v for k, v in properties.items() if k in config.properties})
        config.changed = stamps.next_stamp(config.changed)

    def of(self, user: str) -> list[SearchConfiguration]:
        return sorted(
            (c for c in self.items.values() if c.user == user),
            key=lambda c: c.created,
            reverse=True,
        )
