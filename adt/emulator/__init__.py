"""A local ASGI server that speaks SAP's ADT protocol like an A4H system.

>>> from adt.emulator import Emulator
>>> emu = Emulator()          # built-in samples, DEVELOPER/developer, A4H client 001

See ``docs/emulator.md`` for what is faithful and what is simplified.
"""

from __future__ import annotations

from .app import DropConnection
from .emulator import DEFAULT_USERS, SAMPLE_PACKAGE, Emulator, samples_dir
from .faults import FaultInjector
from .logon import LogonPolicy
from .state import EmulatorError, LockEntry, RequestLogEntry
from .tls import ServerTls

__all__ = [
    "DEFAULT_USERS",
    "SAMPLE_PACKAGE",
    "DropConnection",
    "Emulator",
    "EmulatorError",
    "FaultInjector",
    "LockEntry",
    "LogonPolicy",
    "RequestLogEntry",
    "ServerTls",
    "samples_dir",
]
