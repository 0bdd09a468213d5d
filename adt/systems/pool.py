"""One connection pool over the configured systems: a client and source service per system."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from adt.logon import BrowserLogon, OAuthLogon, OpenBrowser
from adt.profile import ConnectionProfile
from adt.source.config import SourceConfig
from adt.systems.config import SystemsConfig

if TYPE_CHECKING:
    from adt.client import AdtClient
    from adt.source.service import SourceService
    from adt.workbench.service import Workbench

ClientFactory = Callable[[ConnectionProfile], "AdtClient"]


class Connections:
    """One :class:`AdtClient` and :class:`SourceService` per system, created on first use.

    ``open_browser`` is how this face shows a browser logon (OAuth, single sign-on) of a
    system whose logon names none: an editor's prompt, or a refusal where no browser may be
    opened for the user."""

    def __init__(
        self,
        systems: SystemsConfig,
        *,
        source_config: SourceConfig | None = None,
        client_factory: ClientFactory | None = None,
        open_browser: OpenBrowser | None = None,
    ) -> None:
        self.systems = systems
        self.open_browser = open_browser
        self.source_config = source_config or SourceConfig()
        self._client_factory = client_factory
        self._services: dict[str, SourceService] = {}
        self._workbenches: dict[str, Workbench] = {}

    def service(self, system: str | None = None) -> SourceService:
        profile = self.systems.get(system)
        name = profile.name or profile.system_id
        service = self._services.get(name)
        if service is None:
            # Imported here: a process that never talks to a system does not load httpx.
            from adt.client import AdtClient
            from adt.source.service import SourceService

            factory = self._client_factory or AdtClient
            client = factory(self._shown_by_face(profile))
            service = SourceService(client, system=name, config=self.source_config)
            self._services[name] = service
            with contextlib.suppress(RuntimeError):  # no running loop: nothing to clean up yet
                service.start()
        return service

    def _shown_by_face(self, profile: ConnectionProfile) -> ConnectionProfile:
        logon = profile.logon
        if self.open_browser is None or not isinstance(logon, OAuthLogon | BrowserLogon):
            return profile
        if logon.open_browser is not None:
            return profile
        return profile.with_options(
            logon=dataclasses.replace(logon, open_browser=self.open_browser)
        )

    def workbench(self, system: str | None = None) -> Workbench:
        """The development-loop operations of a system, over its source service's client."""
        service = self.service(system)
        bench = self._workbenches.get(service.system)
        if bench is None:
            from adt.workbench.service import Workbench

            bench = self._workbenches[service.system] = Workbench(service)
        return bench

    def open_services(self) -> list[SourceService]:
        return list(self._services.values())

    async def close(self) -> None:
        for service in self._services.values():
            await service.close()
            await service.client.close()
        self._services.clear()
        self._workbenches.clear()
