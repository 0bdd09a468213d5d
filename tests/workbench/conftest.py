"""Fixtures for the development-loop operations: a workbench on the in-process emulator."""

from __future__ import annotations

import pytest
from support.emulated import ServiceFactory

from adt.workbench import Workbench


@pytest.fixture
def workbench(make_service: ServiceFactory) -> Workbench:
    return Workbench(make_service())
