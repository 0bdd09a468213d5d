"""Language-server settings, from initializationOptions or didChangeConfiguration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from adt.errors import ConfigurationError

ON_SAVE, ON_EDIT = "onSave", "onEdit"


@dataclass(frozen=True)
class Settings:
    """``lock_mode``: ``onSave`` locks only for the save burst; ``onEdit`` locks at the first
    change (Eclipse style) and releases when the document is clean again or closed.
    ``poll_interval``: seconds between checks for remote changes of open documents (0: off).
    ``check_delay``: debounce of the syntax check while typing (``onEdit`` mode).
    ``save_on_did_save``: also save on ``textDocument/didSave`` (for clients that cannot send
    ``adt/saveDocument``).
    ``ask_on_conflict``: after a save conflict, ask the user through
    ``window/showMessageRequest``; editors that drive ``adt/resolveConflict`` themselves turn
    it off."""

    lock_mode: str = ON_SAVE
    poll_interval: float = 30.0
    check_delay: float = 0.5
    save_on_did_save: bool = False
    ask_on_conflict: bool = True

    def updated(self, options: Mapping[str, Any] | None) -> Settings:
        if not options:
            return self
        values: dict[str, Any] = {}
        if "lockMode" in options:
            mode = options["lockMode"]
            if mode not in (ON_SAVE, ON_EDIT):
                raise ConfigurationError(f"lockMode must be onSave or onEdit, not {mode!r}")
            values["lock_mode"] = mode
        for key, name in (("pollInterval", "poll_interval"), ("checkDelay", "check_delay")):
            if key in options:
                number = options[key]
                if not isinstance(number, int | float) or number < 0:
                    raise ConfigurationError(f"{key} must be a number of seconds >= 0")
                values[name] = float(number)
        if "saveOnDidSave" in options:
            values["save_on_did_save"] = bool(options["saveOnDidSave"])
        if "askOnConflict" in options:
            values["ask_on_conflict"] = bool(options["askOnConflict"])
        return replace(self, **values)
