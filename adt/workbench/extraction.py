"""Extract method, all or nothing, as the rename is.

ADT plans it (:meth:`adt.areas.refactoring.Refactorings.extract_evaluate` proposes the
method and its inferred signature; ``extract_preview`` answers the declaration, the call and
the implementation as text replacements). Writing is :class:`adt.workbench.renaming.Renaming`'s:
every affected object locked, every source token-checked against the version its new text
was derived from, all written or none, then activated together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from adt.source.errors import InvalidArgument, SourceError, as_source_error

if TYPE_CHECKING:
    from adt.areas.extraction import ExtractProposal
    from adt.areas.refactoring import RenameProposal
    from adt.source import SourceService
    from adt.workbench.renaming import Renaming

__all__ = ["Extracted", "Extraction"]


@dataclass(frozen=True)
class Extracted:
    """The proposal ADT made and the replacements for the chosen name."""

    proposal: ExtractProposal
    changes: RenameProposal

    @property
    def name(self) -> str:
        return self.changes.new_name


class Extraction:
    """Plan an extract method through ADT; the writing is the rename's."""

    def __init__(self, source: SourceService, renaming: Renaming) -> None:
        self._source = source
        self.renaming = renaming

    async def propose(
        self,
        source_url: str,
        start: tuple[int, int],
        end: tuple[int, int],
        name: str = "",
        transport: str = "",
    ) -> Extracted:
        """Evaluate the selection (1-based lines, 0-based columns of the saved source) and
        preview method ``name`` (ADT's proposed name when empty): nothing is written."""
        if (end[0], end[1]) <= (start[0], start[1]):
            raise InvalidArgument("select the statements to extract")
        refactorings = self._source.client.refactorings
        try:
            proposal = await refactorings.extract_evaluate(source_url, start, end)
            chosen = name.strip() or proposal.name
            changes = await refactorings.extract_preview(proposal, chosen, transport)
        except SourceError:
            raise
        except Exception as exc:
            raise as_source_error(exc) from exc
        return Extracted(proposal, changes)
