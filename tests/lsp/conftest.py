"""The language server end to end: ``client`` is a pytest-lsp editor client (VS Code's
capabilities with UTF-16 positions, then Neovim 0.11's with UTF-8) connected to a real
server process on the emulator on a socket; ``lsp_options`` adds initializationOptions."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import pytest_lsp
from support.lsp_editor import EditorClient, server_config, start_session

PRESETS = ["visual-studio-code", "neovim"]  # UTF-16 and UTF-8 position encodings


@pytest.fixture
def lsp_options(request: pytest.FixtureRequest) -> dict[str, object]:
    """Extra initializationOptions; tests set them with ``indirect=True`` parametrization."""
    return dict(getattr(request, "param", {}))


SERVER = server_config("e2e")


async def _initialize(
    lsp_client: EditorClient, preset: str, emulator_url: str, lsp_options: dict[str, object]
) -> None:
    await start_session(lsp_client, preset, emulator_url, {"checkDelay": 0.05, **lsp_options})


@pytest_lsp.fixture(params=PRESETS, config=SERVER)
async def client(
    lsp_client: EditorClient,
    request: pytest.FixtureRequest,
    emulator_url: str,
    lsp_options: dict[str, object],
) -> AsyncIterator[None]:
    await _initialize(lsp_client, request.param, emulator_url, lsp_options)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
async def new_server(
    request: pytest.FixtureRequest, emulator_url: str, lsp_options: dict[str, object]
) -> AsyncIterator[Callable[[], Awaitable[EditorClient]]]:
    """Start another server process with another editor client of the same kind as
    ``client`` (the editor after a restart of its language server)."""
    preset = next(p for p in PRESETS if p in request.node.callspec.id)
    started: list[EditorClient] = []

    async def start() -> EditorClient:
        fresh = await SERVER.start()
        assert isinstance(fresh, EditorClient)
        started.append(fresh)
        await _initialize(fresh, preset, emulator_url, lsp_options)
        return fresh

    yield start
    for fresh in started:
        await fresh.shutdown_session()
        await fresh.stop()
