"""Public names of a package imported on first use (PEP 562), so that a process that never
needs them (an editor starting its language server, ``--help``) does not pay for them."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, namespace: dict[str, Any], where: Mapping[str, str]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``name`` from ``where[name]`` and keeps it in
    the package's ``namespace``."""

    def attribute(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return attribute
