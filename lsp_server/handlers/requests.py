"""Our ``adt/*`` requests and ``adt.*`` commands (docs/lsp-protocol.md)."""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from adt.errors import AdtError
from adt.source.errors import as_source_error
from lsp_server import requests as rq
from lsp_server.progress import Progress
from lsp_server.protocol import typed
from lsp_server.results import WORDS
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints
from lsp_server.uris import InvalidDocumentUri, parse_uri

_Result = TypeVar("_Result")
SOURCE_ERROR = -32001
_PACKAGE_NAME = re.compile(r"[$/\w]{1,30}")  # names like $TMP, ZDEMO, /NS/ZDEMO


def source_error(exc: BaseException) -> JsonRpcException:
    """An ABAP/ADT failure as a JSON-RPC error carrying the V2 error object as ``data``."""
    error = as_source_error(exc)
    return JsonRpcException(message=error.message, code=SOURCE_ERROR, data=error.to_dict(WORDS))


def rpc_errors(
    handler: Callable[..., Awaitable[_Result]],
) -> Callable[..., Awaitable[_Result]]:
    """Answer an ``adt/*`` request's failures as JSON-RPC errors: a bad URI is invalid
    params, an ABAP/ADT failure carries the V2 error object as ``data``."""

    @functools.wraps(handler)
    async def wrapper(ls: AdtLanguageServer, *params: Any) -> _Result:
        try:  # a request has one params object; a command, its arguments
            return await handler(ls, *params)
        except InvalidDocumentUri as exc:
            raise JsonRpcInvalidParams(message=str(exc)) from exc
        except AdtError as exc:
            raise source_error(exc) from exc

    return wrapper


def register(server: AdtLanguageServer) -> None:
    @server.feature(rq.READ_DOCUMENT)
    @typed(rq.ReadDocumentParams)
    @rpc_errors
    async def read_document(ls: AdtLanguageServer, params: rq.ReadDocumentParams) -> Any:
        return (await ls.adt.objects.read_document(params.uri, fresh=params.fresh)).to_dict()

    @server.feature(rq.SAVE_DOCUMENT)
    @typed(rq.SaveDocumentParams)
    @rpc_errors
    async def save_document(ls: AdtLanguageServer, params: rq.SaveDocumentParams) -> Any:
        return (await ls.adt.save(params.uri)).to_dict()

    @server.feature(rq.RESOLVE_CONFLICT)
    @typed(rq.ResolveConflictParams)
    @rpc_errors
    async def resolve_conflict(ls: AdtLanguageServer, params: rq.ResolveConflictParams) -> Any:
        return (await ls.adt.conflicts.resolve(params.uri, params.choice)).to_dict()

    @server.feature(rq.RESTORE_DOCUMENT)
    @typed(rq.RestoreDocumentParams)
    @rpc_errors
    async def restore_document(ls: AdtLanguageServer, params: rq.RestoreDocumentParams) -> Any:
        restored = await ls.adt.restoring.restore(params.uri, params.base_token, params.base_text)
        return restored.to_dict()

    @server.feature(rq.OPEN_OBJECT)
    @typed(rq.OpenObjectParams)
    @rpc_errors
    async def open_object(ls: AdtLanguageServer, params: rq.OpenObjectParams) -> Any:
        found = await ls.adt.objects.open_object(
            params.name,
            object_type=params.type,
            system=params.system,
            include_type=params.include_type,
        )
        return found.to_dict()

    @server.feature(rq.OBJECT_STRUCTURE)
    @typed(rq.ObjectStructureParams)
    @rpc_errors
    async def object_structure(ls: AdtLanguageServer, params: rq.ObjectStructureParams) -> Any:
        if params.uri:
            ref = parse_uri(params.uri)
            return await ls.adt.objects.object_structure(ref.object_url, ref.system)
        if params.object_url:
            return await ls.adt.objects.object_structure(params.object_url, params.system)
        raise JsonRpcInvalidParams(message="pass uri or objectUrl")

    @server.feature(rq.SEARCH_OBJECTS)
    @typed(rq.SearchObjectsParams)
    @rpc_errors
    async def search_objects(ls: AdtLanguageServer, params: rq.SearchObjectsParams) -> Any:
        return await ls.adt.objects.search(
            params.query,
            system=params.system,
            max_results=params.max_results,
            object_type=params.type,
        )

    @server.feature(rq.PACKAGE_CONTENTS)
    @typed(rq.PackageContentsParams)
    @rpc_errors
    async def package_contents(ls: AdtLanguageServer, params: rq.PackageContentsParams) -> Any:
        if not _PACKAGE_NAME.fullmatch(params.package.strip()):
            raise JsonRpcInvalidParams(message=f"not a package name: {params.package!r}")
        return await ls.adt.objects.package_contents(params.package, params.system)

    @server.feature(rq.DATA_PREVIEW)
    @typed(rq.DataPreviewParams)
    @rpc_errors
    async def data_preview(ls: AdtLanguageServer, params: rq.DataPreviewParams) -> Any:
        from adt.areas.datapreview import PreviewQueryError

        try:
            return await ls.adt.preview.preview(
                uri=params.uri,
                name=params.name,
                system=params.system,
                offset=params.offset,
                limit=params.limit,
                columns=params.columns,
                where=params.where,
            )
        except PreviewQueryError as exc:
            raise JsonRpcInvalidParams(message=str(exc)) from exc

    @server.command(rq.ACTIVATE_COMMAND)
    async def activate(ls: AdtLanguageServer, uri: str, *together: list[str]) -> dict[str, Any]:
        """Activate the object of a document (``together``: the inactive objects it builds
        on), with work-done progress when the client has it."""
        progress = await Progress.begin(ls, "Activating")
        try:
            result = await ls.adt.activation.activate(
                uri, progress.report, [u for urls in together for u in urls]
            )
        except AdtError as exc:
            progress.end("failed")
            raise source_error(exc) from exc
        progress.end("activated" if result.activated else "not activated")
        return result.to_dict()

    @server.command(rq.CHECK_COMMAND)
    @rpc_errors
    async def check(ls: AdtLanguageServer, uri: str) -> dict[str, Any]:
        """Run the syntax check of a document's object now (the unsaved text of an open
        document with changes) and publish the findings as diagnostics."""
        return (await ls.adt.diagnostics.check(uri)).to_dict()
