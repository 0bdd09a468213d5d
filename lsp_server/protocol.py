"""pygls protocol adjustments for ``adt://`` documents and our ``adt/*`` requests.

* pygls' built-in didOpen/didChange/didClose would store the text in its workspace and rebuild
  it on every change (splitting with ``str.splitlines``). We forward the notifications to our
  own handlers instead, and pygls never sees the text.
* Parameters of ``adt/*`` requests stay plain dicts until :func:`typed` structures them, so a
  bad parameter is a proper ``-32602 Invalid params`` answer (pygls would otherwise fail in
  its reader and leave the client waiting).
* A handler may answer with :class:`Prepared`: a result already in JSON's shape, written as
  it is (orjson) instead of through lsprotocol objects and their converter — for answers
  whose size follows the document's (an outline of 8,000 symbols took longer to convert
  than to compute).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Generator
from typing import Any, TypeVar

import attrs
import cattrs
import orjson
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import MsgId

T = TypeVar("T")
_WRITES: set[asyncio.Future[Any]] = set()  # writes under way on an asynchronous transport


@attrs.define
class RawRequest:
    id: MsgId
    method: str
    params: Any = None
    jsonrpc: str = "2.0"


@attrs.define
class RawNotification:
    method: str
    params: Any = None
    jsonrpc: str = "2.0"


@attrs.frozen
class Prepared:
    """A result in JSON's shape (dicts, lists, strings, numbers, booleans, ``None``), as the
    LSP specification spells it."""

    value: Any


class AdtProtocol(LanguageServerProtocol):
    """Our documents bypass pygls' text store; ``adt/*`` params arrive as dicts; a
    :class:`Prepared` result is sent without conversion."""

    def _send_response(self, msg_id: MsgId, result: Any = None, error: Any = None) -> None:
        if error is not None or not isinstance(result, Prepared):
            super()._send_response(msg_id, result, error)
            return
        self._result_types.pop(msg_id, None)
        body = orjson.dumps({"jsonrpc": self.VERSION, "id": msg_id, "result": result.value})
        if self._include_headers:
            header = (
                f"Content-Length: {len(body)}\r\n"
                f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
            )
            body = header.encode() + body
        if self.writer is not None:
            written = self.writer.write(body)
            if inspect.isawaitable(written):  # an asynchronous transport, as pygls allows
                task = asyncio.ensure_future(written)
                _WRITES.add(task)
                task.add_done_callback(_WRITES.discard)

    def _forward(self, method: str, params: Any) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._forward(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._forward(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._forward(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def structure_message(self, data: Any) -> Any:
        if isinstance(data, dict) and str(data.get("method", "")).startswith("adt/"):
            if "id" in data:
                return RawRequest(id=data["id"], method=data["method"], params=data.get("params"))
            return RawNotification(method=data["method"], params=data.get("params"))
        return super().structure_message(data)


def structure(converter: cattrs.Converter, raw: Any, cls: type[T]) -> T:
    """Structure ``raw`` into ``cls`` or raise ``-32602`` naming what is wrong."""
    try:
        return converter.structure(raw if raw is not None else {}, cls)
    except Exception as exc:
        if isinstance(exc, cattrs.BaseValidationError):
            messages = cattrs.transform_error(exc)
        else:
            messages = [str(exc)]
        raise JsonRpcInvalidParams(
            message="Invalid params: " + "; ".join(messages), data={"errors": messages}
        ) from exc


def typed(cls: type[Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate an ``adt/*`` handler ``(ls, params: cls)``; it receives structured params."""

    def decorate(handler: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(handler):

            @functools.wraps(handler)
            async def async_wrapper(ls: Any, raw: Any) -> Any:
                return await handler(ls, structure(ls.protocol._converter, raw, cls))

            return async_wrapper

        @functools.wraps(handler)
        def wrapper(ls: Any, raw: Any) -> Any:
            return handler(ls, structure(ls.protocol._converter, raw, cls))

        return wrapper

    return decorate
