"""Cookies of one ADT session, kept by name as SAP systems expect them."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


def _cookie_expired(attributes: list[str]) -> bool:
    for attribute in attributes:
        key, _, value = attribute.strip().partition("=")
        key = key.lower()
        if key == "max-age":
            with contextlib.suppress(ValueError):
                if int(value) <= 0:
                    return True
        elif key == "expires":
            try:
                when = parsedate_to_datetime(value.strip())
            except (TypeError, ValueError, IndexError):
                continue
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            if when <= datetime.now(UTC):
                return True
    return False


class CookieJar:
    """Cookies by name, paths ignored (SAP sets ``sap-contextid`` at three paths at once).

    Updated from *every* response, errors included, so a deletion cookie sent with a 400 is
    honoured (abap-adt-api #50).
    """

    def __init__(self) -> None:
        self._cookies: dict[str, str] = {}

    def update(self, set_cookie_headers: list[str]) -> None:
        for header in set_cookie_headers:
            pair, *attributes = header.split(";")
            name, sep, value = pair.partition("=")
            name = name.strip()
            if not sep or not name:
                continue
            if _cookie_expired(attributes):
                self._cookies.pop(name, None)
            else:
                self._cookies[name] = value.strip()

    def header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self._cookies.items())

    def names(self) -> set[str]:
        return set(self._cookies)

    def get(self, name: str) -> str | None:
        return self._cookies.get(name)

    def update_from(self, other: CookieJar) -> None:
        """Take every cookie of ``other`` (a context handed from one session to another)."""
        self._cookies.update(other._cookies)

    def clear(self) -> None:
        self._cookies.clear()

    def __repr__(self) -> str:  # values are credentials: never show them
        return f"CookieJar(names={sorted(self._cookies)})"
