"""A string that keeps itself out of sight: passwords, passphrases, client secrets, tokens."""

from __future__ import annotations


class Secret:
    """A string that never shows itself in ``repr``, ``str``, logs or tracebacks."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret itself, for the one place that must send it (an HTTP header, a key file)."""
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)
