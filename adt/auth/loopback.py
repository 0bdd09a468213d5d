"""The loopback redirect of a browser logon (RFC 8252): a one-request HTTP listener on
127.0.0.1 at a random port that takes the authorization server's answer, but only with the
one-time ``state`` it was started with; anything else is refused and waiting goes on.

HTTP parsing is h11's (httpx's own parser), not ours."""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlsplit

import h11

from adt.errors import AdtError, AuthenticationError
from adt.logon import LogonPrompt, OpenBrowser

log = logging.getLogger("adt.auth")

T = TypeVar("T")

CALLBACK_PATH = "/callback"
_MAX_HEAD = 16_384
_DONE_PAGE = (
    "<!DOCTYPE html><html><head><title>abap-adt</title></head><body>"
    "<p>You are logged on. You can close this window and return to your editor.</p>"
    "</body></html>"
)
_REFUSED_PAGE = (
    "<!DOCTYPE html><html><head><title>abap-adt</title></head><body>"
    "<p>This logon answer is not the one abap-adt is waiting for (an old or forged link). "
    "Start the logon again from your editor.</p></body></html>"
)


class LoopbackReceiver:
    """Receives one redirect at ``redirect_uri``; ``state`` is the one-time value the
    authorization request must carry back."""

    def __init__(self) -> None:
        self.state = secrets.token_urlsafe(32)
        self.port = 0
        self._answer: asyncio.Future[dict[str, str]] | None = None
        self._server: asyncio.Server | None = None

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self.port}{CALLBACK_PATH}"

    @property
    def redirect_uri_with_state(self) -> str:
        """The redirect URI with the ``state`` as its last path segment, for a server that
        appends its answer to the URI without parsing it (a query of ours could break)."""
        return f"{self.redirect_uri}/{self.state}"

    async def __aenter__(self) -> LoopbackReceiver:
        self._answer = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        if self._answer is not None and not self._answer.done():
            self._answer.cancel()

    async def answer(self) -> dict[str, str]:
        """The query parameters of the one redirect that carried our ``state`` (the caller
        bounds the wait)."""
        assert self._answer is not None, "use the receiver as an async context manager"
        return await asyncio.shield(self._answer)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=_MAX_HEAD)
        try:
            target = await _request_target(reader, connection)
            if target is None:
                return
            status, page = self._take(target)
            writer.write(_response(connection, status, page))
            await writer.drain()
        except (ConnectionError, h11.ProtocolError, TimeoutError):
            pass
        finally:
            writer.close()

    def _take(self, target: str) -> tuple[int, str]:
        parts = urlsplit(target)
        params = dict(parse_qsl(parts.query))
        if parts.path.startswith(CALLBACK_PATH + "/"):
            sent = parts.path[len(CALLBACK_PATH) + 1 :]
        elif parts.path == CALLBACK_PATH:
            sent = params.get("state", "")
        else:
            return 404, _REFUSED_PAGE
        assert self._answer is not None
        if self._answer.done() or not hmac.compare_digest(sent.encode(), self.state.encode()):
            log.warning("refused a logon answer on the loopback: wrong or used state")
            return 400, _REFUSED_PAGE
        self._answer.set_result(params)
        return 200, _DONE_PAGE


async def _request_target(reader: asyncio.StreamReader, connection: h11.Connection) -> str | None:
    """The target of the first request on the connection (within a few seconds)."""
    async with asyncio.timeout(10):
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                connection.receive_data(await reader.read(4096))
                continue
            if isinstance(event, h11.Request):
                return bytes(event.target).decode("ascii", errors="replace")
            return None


def _response(connection: h11.Connection, status: int, page: str) -> bytes:
    body = page.encode("utf-8")
    headers = [
        ("content-type", "text/html; charset=utf-8"),
        ("content-length", str(len(body))),
        ("cache-control", "no-store"),
        ("connection", "close"),
    ]
    return b"".join(
        (
            connection.send(h11.Response(status_code=status, headers=headers)) or b"",
            connection.send(h11.Data(data=body)) or b"",
            connection.send(h11.EndOfMessage()) or b"",
        )
    )


async def answer_in_browser(
    url_for: Callable[[LoopbackReceiver], str],
    open_browser: OpenBrowser | None,
    *,
    within: float,
    system: str,
) -> dict[str, str]:
    """Show the user the logon URL ``url_for`` builds around a fresh loopback receiver, and
    return the parameters of the answer that comes back to it with our ``state``."""
    if open_browser is None:
        import webbrowser  # with the first browser logon, not at start

        open_browser = webbrowser.open
    opener = open_browser
    async with LoopbackReceiver() as receiver:
        url = url_for(receiver)
        log.info("log on to %s in the browser: %s", system, url)
        browser = _show(opener, system, url)
        answer = asyncio.ensure_future(receiver.answer())
        try:
            async with asyncio.timeout(within):
                either: set[asyncio.Future[Any]] = {browser, answer}
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
                refusal = _refusal(browser)
                if refusal is not None:  # this face may not start it, or the user cancelled
                    raise refusal
                return await answer
        except TimeoutError:
            raise AuthenticationError(
                f"logon to {system} in the browser did not finish within {within:.0f} s; try again"
            ) from None
        finally:
            answer.cancel()
            if isinstance(opener, LogonPrompt):
                browser.cancel()  # a prompt may wait for the user until the answer comes
            await _settle(browser)


async def log_on_in_browser(
    url_for: Callable[[LoopbackReceiver], str],
    finish: Callable[[dict[str, str]], Awaitable[T]],
    open_browser: OpenBrowser | None,
    *,
    within: float,
    system: str,
) -> T:
    """A whole browser logon: the answer on the loopback, turned into credentials by
    ``finish`` (a code exchanged for tokens, a ticket taken); a :class:`LogonPrompt` is told
    how it ended."""
    try:
        answer = await answer_in_browser(url_for, open_browser, within=within, system=system)
        result = await finish(answer)
    except BaseException as exc:
        if isinstance(open_browser, LogonPrompt):
            open_browser.ended(system, _in_words(exc))
        raise
    if isinstance(open_browser, LogonPrompt):
        open_browser.ended(system, None)
    return result


def _in_words(exc: BaseException) -> str:
    """Why a logon failed, for the user (an error's own text only where ours: no secret)."""
    if isinstance(exc, AdtError):
        return str(exc)
    if isinstance(exc, asyncio.CancelledError):
        return "the logon was cancelled"
    return f"the logon failed ({type(exc).__name__})"


def _show(opener: OpenBrowser, system: str, url: str) -> asyncio.Future[object]:
    """Show the URL: a prompt on the event loop, a plain opener (which may block, as
    ``webbrowser.open`` does) in a thread."""
    if isinstance(opener, LogonPrompt):
        return asyncio.ensure_future(opener.show(system, url))
    return asyncio.ensure_future(asyncio.to_thread(opener, url))


def _refusal(browser: asyncio.Future[object]) -> AuthenticationError | None:
    if browser.done() and not browser.cancelled():
        error = browser.exception()
        if isinstance(error, AuthenticationError):
            return error
    return None


async def _settle(browser: asyncio.Future[object]) -> None:
    """Wait for the call that opened the browser; its own failure is only logged (the user
    may have opened the URL by hand). A refusal was raised to the caller already; a prompt
    cancelled because the answer came is no failure."""
    await asyncio.wait({browser})
    if browser.cancelled():
        return
    error = browser.exception()
    if error is not None and not isinstance(error, AuthenticationError):
        log.warning("could not open the browser: %s", type(error).__name__)


__all__ = ["CALLBACK_PATH", "LoopbackReceiver", "answer_in_browser", "log_on_in_browser"]
