"""The ADT areas of a client (ATC, unit, navigation, refactoring, …), each a cached property
whose module loads with its first use: opening a document needs none of them, and together
they cost 3.4 MB of code objects. A mixin of :class:`adt.client.AdtClient`, kept apart so
the client module stays one concern (the requests themselves)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from adt.areas.atc import Atc
    from adt.areas.base import AreaClient
    from adt.areas.completion import Completion
    from adt.areas.datapreview import DataPreview
    from adt.areas.dictionary import Dictionary
    from adt.areas.discovery import Discovery
    from adt.areas.fixes import QuickFixes
    from adt.areas.formatting import Formatting
    from adt.areas.history import History
    from adt.areas.lifecycle import Lifecycle
    from adt.areas.navigation import Navigation
    from adt.areas.occurrences import OccurrenceMarkers
    from adt.areas.refactoring import Refactorings
    from adt.areas.structure import Structure
    from adt.areas.transports import Transports
    from adt.areas.unit import AbapUnit


class Areas:
    """The area objects of one client."""

    def _client(self) -> AreaClient:
        return cast("AreaClient", self)  # only ever mixed into AdtClient, which is one

    @functools.cached_property
    def discovery(self) -> Discovery:
        """Core discovery (which collections a system offers) and package value helps."""
        from adt.areas.discovery import Discovery  # with its first use

        return Discovery(self._client())

    @functools.cached_property
    def objects(self) -> Lifecycle:
        """Object lifecycle: validate a new name, create objects in a package, delete them."""
        from adt.areas.lifecycle import Lifecycle  # with its first use

        return Lifecycle(self._client())

    @functools.cached_property
    def dictionary(self) -> Dictionary:
        """Metadata objects (data elements, domains, message classes, service bindings,
        table types): compact reads, token-checked whole-document writes, publishing."""
        from adt.areas.dictionary import Dictionary  # with its first use

        return Dictionary(self._client())

    @functools.cached_property
    def transports(self) -> Transports:
        """Transport requests: checks for an object, the user's requests, creating and releasing."""
        from adt.areas.transports import Transports  # with its first use

        return Transports(self._client())

    @functools.cached_property
    def history(self) -> History:
        """Inactive objects and the revisions (versions) of a source."""
        from adt.areas.history import History  # with its first use

        return History(self._client())

    @functools.cached_property
    def navigation(self) -> Navigation:
        """Go to definition, element info (hover) and where-used with snippets."""
        from adt.areas.navigation import Navigation  # with its first use

        return Navigation(self._client())

    @functools.cached_property
    def structure(self) -> Structure:
        """Node paths, main programs of includes, object structures and type hierarchies."""
        from adt.areas.structure import Structure  # with its first use

        return Structure(self._client())

    @functools.cached_property
    def datapreview(self) -> DataPreview:
        """Data preview: the rows of a table or CDS entity, and free-style SELECTs."""
        from adt.areas.datapreview import DataPreview  # with its first use

        return DataPreview(self._client())

    @functools.cached_property
    def completion(self) -> Completion:
        """Code completion: proposals at a position and the text to insert."""
        from adt.areas.completion import Completion  # with its first use

        return Completion(self._client())

    @functools.cached_property
    def formatting(self) -> Formatting:
        """The pretty printer and its settings."""
        from adt.areas.formatting import Formatting  # with its first use

        return Formatting(self._client())

    @functools.cached_property
    def fixes(self) -> QuickFixes:
        """Quick fixes: what ADT offers at a position, and the edits of one."""
        from adt.areas.fixes import QuickFixes  # with its first use

        return QuickFixes(self._client())

    @functools.cached_property
    def occurrences(self) -> OccurrenceMarkers:
        """Where the symbol at a position occurs in one source (reads, writes)."""
        from adt.areas.occurrences import OccurrenceMarkers  # with its first use

        return OccurrenceMarkers(self._client())

    @functools.cached_property
    def refactorings(self) -> Refactorings:
        """ADT's rename refactoring: evaluate, preview, execute."""
        from adt.areas.refactoring import Refactorings  # with its first use

        return Refactorings(self._client())

    @functools.cached_property
    def unit(self) -> AbapUnit:
        """ABAP Unit: run the tests of objects or packages; results with alerts and positions."""
        from adt.areas.unit import AbapUnit  # with its first use

        return AbapUnit(self._client())

    @functools.cached_property
    def atc(self) -> Atc:
        """ATC: run a check variant on objects; findings with priority and position."""
        from adt.areas.atc import Atc  # with its first use

        return Atc(self._client())
