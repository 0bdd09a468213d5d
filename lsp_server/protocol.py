"""pygls protocol adjustments for ``adt://`` documents and our ``adt/*`` requests.

* pygls' built-in didOpen/didChange/didClose would store the text in its workspace and rebuild
  it on every change (splitting with ``str.splitlines``). We forward the notifications to our
  own handlers instead, and pygls never sees the text.
* Parameters of ``adt/*`` requests stay plain dicts until :func:`typed` structures them, so a
  bad parameter is a proper ``-32602 Invalid params`` answer (pygls would otherwise fail in
  its reader and leave the client waiting).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Generator
from typing import Any, TypeVar

import attrs
import cattrs
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import MsgId

T = TypeVar("T")


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


class AdtProtocol(LanguageServerProtocol):
    """Our documents bypass pygls' text store; ``adt/*`` params arrive as dicts."""

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
