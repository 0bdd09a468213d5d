"""The development loop's commands and requests: ABAP Unit (with code lenses over test
classes and methods), ATC, new objects, the transport question, versions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from adt.errors import AdtError
from lsp_server import requests as rq
from lsp_server.editor import Severity
from lsp_server.handlers.requests import rpc_errors, source_error
from lsp_server.progress import Progress
from lsp_server.protocol import typed
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints
from lsp_server.uris import InvalidDocumentUri


def unit_summary(result: dict[str, Any]) -> str:
    if not result["tests"]:
        notes = "; ".join(result.get("notes", []))
        return f"ABAP Unit: no tests ran{': ' + notes if notes else ''}"
    return f"ABAP Unit: {result['passed']} passed, {result['failed']} failed"


def atc_summary(result: dict[str, Any]) -> str:
    counts = result["counts"]
    if not counts:
        return "ATC: no findings"
    per = ", ".join(f"priority {k}: {v}" for k, v in counts.items())
    return f"ATC: {len(result['findings'])} findings ({per})"


Run = Callable[[Callable[[str], None]], Awaitable[dict[str, Any]]]


async def _run(
    ls: AdtLanguageServer,
    title: str,
    run: Run,
    summary: Callable[[dict[str, Any]], str],
    worrying: Callable[[dict[str, Any]], bool],
) -> dict[str, Any]:
    """Run with progress, show the summary, answer with the result."""
    progress = await Progress.begin(ls, title)
    try:
        result: dict[str, Any] = await run(progress.report)
    except InvalidDocumentUri as exc:
        progress.end("failed")
        raise JsonRpcInvalidParams(message=str(exc)) from exc
    except AdtError as exc:
        progress.end("failed")
        raise source_error(exc) from exc
    text = summary(result)
    progress.end(text)
    notes = [n for n in result.get("notes", []) if n not in text]
    ls.notify(Severity.WARNING if worrying(result) else Severity.INFO, "; ".join([text, *notes]))
    return result


def register(server: AdtLanguageServer) -> None:
    @server.command(rq.RUN_UNIT_TESTS_COMMAND)
    async def run_unit_tests(ls: AdtLanguageServer, uri: str, *scope: Any) -> dict[str, Any]:
        """``[uri, {"testClass"?, "method"?}?]``: failures become diagnostics."""
        selection = scope[0] if scope and isinstance(scope[0], dict) else None
        return await _run(
            ls,
            "ABAP Unit",
            lambda report: ls.adt.quality.run_unit_tests(uri, selection, report),
            unit_summary,
            lambda result: bool(result["failed"]) or not result["tests"],
        )

    @server.command(rq.RUN_PACKAGE_TESTS_COMMAND)
    async def run_package_tests(ls: AdtLanguageServer, package: str, *system: str) -> Any:
        """``[package, system?]``: every test of the package, by object, class and method."""
        return await _run(
            ls,
            "ABAP Unit",
            lambda report: ls.adt.quality.run_package_tests(
                package, system[0] if system else None, report
            ),
            unit_summary,
            lambda result: bool(result["failed"]) or not result["tests"],
        )

    @server.command(rq.RUN_ATC_COMMAND)
    async def run_atc(ls: AdtLanguageServer, uri: str) -> dict[str, Any]:
        """``[uri]``: findings become diagnostics (severity from their priority)."""
        return await _run(
            ls,
            "ATC",
            lambda report: ls.adt.quality.run_atc(uri, report),
            atc_summary,
            lambda result: "1" in result["counts"] or "2" in result["counts"],
        )

    @server.command(rq.CREATE_OBJECT_COMMAND)
    @rpc_errors
    async def create_object(ls: AdtLanguageServer, spec: Any) -> dict[str, Any]:
        """``[{"kind", "name", "description", "package", "transport"?, "functionGroup"?,
        "basedOn"?, "system"?}]`` → the new object's document ``uri``."""
        if not isinstance(spec, dict):
            raise JsonRpcInvalidParams(message="adt.createObject takes one object argument")
        return await ls.adt.creation.create(spec)

    @server.command(rq.SET_MESSAGE_COMMAND)
    @rpc_errors
    async def set_message(ls: AdtLanguageServer, uri: str, message: Any) -> dict[str, Any]:
        """``[uri, {"number", "text"}]``: one message of a message class, added or changed
        on the version the editor shows."""
        if not isinstance(message, dict) or not {"number", "text"} <= message.keys():
            raise JsonRpcInvalidParams(message="adt.setMessage takes [uri, {number, text}]")
        result = await ls.adt.metadata.set_message(
            uri, str(message["number"]), str(message["text"])
        )
        ls.notify(Severity.INFO, f"Message {message['number']} saved (inactive)")
        return result

    @server.command(rq.PUBLISH_COMMAND)
    @rpc_errors
    async def publish(ls: AdtLanguageServer, uri: str, *unpublish: Any) -> dict[str, Any]:
        """``[uri, false?]``: publish a service binding (``false``: unpublish it)."""
        wanted = not unpublish or unpublish[0] is not False
        result = await ls.adt.metadata.publish(uri, wanted)
        done = "Published" if wanted else "Unpublished"
        worded = f"{done} {result['objectUrl'].rsplit('/', 1)[-1].upper()}"
        severity = Severity.INFO if result["ok"] else Severity.WARNING
        ls.notify(severity, worded if result["ok"] else f"Not {done.lower()}: {result['message']}")
        return result

    @server.command(rq.CHOOSE_TRANSPORT_COMMAND)
    @rpc_errors
    async def choose_transport(ls: AdtLanguageServer, uri: str) -> dict[str, Any]:
        return await ls.adt.transports.choose_for(uri)

    @server.command(rq.TRANSPORT_OBJECTS_COMMAND)
    @rpc_errors
    async def transport_objects(ls: AdtLanguageServer, number: str, *system: str) -> Any:
        """``[request, system?]``: its tasks and their objects."""
        return await ls.adt.transports.request_objects(number, system[0] if system else None)

    @server.command(rq.TRANSPORT_REQUESTS_COMMAND)
    @rpc_errors
    async def transport_requests(ls: AdtLanguageServer, *system: str) -> Any:
        """``[system?]``: the user's open requests, their tasks and objects."""
        return await ls.adt.transports.my_requests(system[0] if system else None)

    @server.command(rq.CHECK_RELEASE_COMMAND)
    @rpc_errors
    async def check_release(ls: AdtLanguageServer, number: str, *system: str) -> Any:
        """``[task or request, system?]``: the release's checks, nothing released."""
        return await ls.adt.transports.check_release(number, system[0] if system else None)

    @server.command(rq.OBJECT_TRANSPORT_COMMAND)
    @rpc_errors
    async def object_transport(ls: AdtLanguageServer, uri: str) -> Any:
        """``[uri]``: the request the document's object is on; asks nothing."""
        return await ls.adt.transports.object_request(uri)

    @server.command(rq.RELEASE_TRANSPORT_COMMAND)
    @rpc_errors
    async def release_transport(ls: AdtLanguageServer, number: str, *system: str) -> Any:
        """``[task or request, system?]``: released, or refused naming the objects."""
        released = await ls.adt.transports.release(number, system[0] if system else None)
        ls.notify(Severity.INFO, f"Released {', '.join(released['released'])}")
        return released

    @server.command(rq.REASSIGN_TRANSPORT_COMMAND)
    @rpc_errors
    async def reassign_transport(ls: AdtLanguageServer, uri: str, number: str) -> Any:
        """``[uri, request]``: the document's object moved into that request."""
        return await ls.adt.transports.reassign(uri, number)

    @server.feature(rq.VERSIONS)
    @typed(rq.VersionsParams)
    @rpc_errors
    async def versions(ls: AdtLanguageServer, params: rq.VersionsParams) -> Any:
        return await ls.adt.versions.versions(params.uri)

    @server.feature(rq.READ_VERSION)
    @typed(rq.ReadVersionParams)
    @rpc_errors
    async def read_version(ls: AdtLanguageServer, params: rq.ReadVersionParams) -> Any:
        return await ls.adt.versions.read_version(params.uri, params.version)

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(ls: AdtLanguageServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        uri = params.text_document.uri
        return [
            types.CodeLens(
                range=ls.range(uri, (lens.line, 0), (lens.line, 0)),
                command=types.Command(
                    title=lens.title,
                    command=rq.RUN_UNIT_TESTS_COMMAND,
                    arguments=[uri, lens.scope()],
                ),
            )
            for lens in ls.adt.quality.test_lenses(uri)
        ]
