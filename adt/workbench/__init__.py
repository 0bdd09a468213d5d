"""The development loop beside the source operations: code assistance (completion, element
info, definitions, pretty printer, quick fixes), where-used, creating and deleting objects,
transport requests, ABAP Unit and ATC, inactive objects (and those an activation needs
with it) and version history.

Both faces use it; it speaks of operations and typed results, not of any protocol, and its
errors are the source operations' (:mod:`adt.source.errors`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adt.workbench.code import CodeAssist, Completions, Location, SymbolInfo
    from adt.workbench.dependencies import ActivationDependencies
    from adt.workbench.history import History, InactiveEntry, SourceDiff, VersionEntry
    from adt.workbench.objects import KINDS, CreatedObject, NewObject, ObjectLifecycle
    from adt.workbench.quality import AtcReport, Finding, Quality, TestFailure, UnitReport
    from adt.workbench.service import Workbench
    from adt.workbench.transports import OpenRequest, TransportNeed, Transports
    from adt.workbench.usages import Usage, UsagePage, WhereUsed

_HOMES = {
    "ActivationDependencies": "dependencies",
    "CodeAssist": "code",
    "Completions": "code",
    "Location": "code",
    "SymbolInfo": "code",
    "History": "history",
    "InactiveEntry": "history",
    "SourceDiff": "history",
    "VersionEntry": "history",
    "KINDS": "objects",
    "CreatedObject": "objects",
    "NewObject": "objects",
    "ObjectLifecycle": "objects",
    "AtcReport": "quality",
    "Finding": "quality",
    "Quality": "quality",
    "TestFailure": "quality",
    "UnitReport": "quality",
    "Workbench": "service",
    "OpenRequest": "transports",
    "TransportNeed": "transports",
    "Transports": "transports",
    "Usage": "usages",
    "UsagePage": "usages",
    "WhereUsed": "usages",
}

__all__ = [
    "KINDS",
    "ActivationDependencies",
    "AtcReport",
    "CodeAssist",
    "Completions",
    "CreatedObject",
    "Finding",
    "History",
    "InactiveEntry",
    "Location",
    "NewObject",
    "ObjectLifecycle",
    "OpenRequest",
    "Quality",
    "SourceDiff",
    "SymbolInfo",
    "TestFailure",
    "TransportNeed",
    "Transports",
    "UnitReport",
    "Usage",
    "UsagePage",
    "VersionEntry",
    "WhereUsed",
    "Workbench",
]


def __getattr__(name: str) -> Any:
    """Load a name's module on first use (PEP 562): importing :mod:`adt.workbench` stays
    cheap for processes that never use the development loop."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'adt.workbench' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"adt.workbench.{home}"), name)
