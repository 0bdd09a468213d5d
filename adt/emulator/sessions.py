"""Security sessions, CSRF tokens and stateful contexts (protocol doc §1, §9).

* A security session (cookie ``SAP_SESSIONID_<SID>_<CLIENT>``) belongs to one user
  and holds the CSRF token.
* A stateful context (cookie ``sap-contextid``) lives inside a security session and
  owns locks.  It ends on a request that carries it without
  ``X-sap-adt-sessiontype: stateful``, after the idle timeout, on logoff, or by
  fault injection.  Its id stays known as dead so a later use gets ICMENOSESSION.

Not thread-safe on its own: :class:`~adt.emulator.state.SystemState` guards it.
"""

from __future__ import annotations

import base64
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field


def new_csrf_token() -> str:
    """24 characters of base64url ending in ``==``, like SAP's tokens."""
    return base64.urlsafe_b64encode(secrets.token_bytes(16)).decode("ascii")


def _new_session_id() -> str:
    return base64.urlsafe_b64encode(secrets.token_bytes(30)).decode("ascii").rstrip("=") + "%3d"


@dataclass
class SecuritySession:
    """A logon session of one user in one client."""

    id: str
    user: str
    client: str
    csrf_token: str | None = None
    created: float = field(default_factory=time.monotonic)
    last_used: float = field(default_factory=time.monotonic)


@dataclass
class Context:
    """A stateful ICM context; ``session_id`` is ``None`` for synthetic ones."""

    id: str
    user: str
    session_id: str | None
    synthetic: bool = False
    created: float = field(default_factory=time.monotonic)
    last_used: float = field(default_factory=time.monotonic)


class SessionManager:
    """The session and context tables."""

    def __init__(
        self, sid: str, idle_timeout: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.sid = sid
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.sessions: dict[str, SecuritySession] = {}
        self.contexts: dict[str, Context] = {}
        self.dead_contexts: set[str] = set()

    # security sessions -----------------------------------------------------------------
    def open_session(self, user: str, client: str) -> SecuritySession:
        session = SecuritySession(_new_session_id(), user, client)
        self.sessions[session.id] = session
        return session

    def find_session(self, session_id: str | None) -> SecuritySession | None:
        if session_id is None:
            return None
        session = self.sessions.get(session_id)
        if session is not None:
            session.last_used = self.clock()
        return session

    def token_for(self, session: SecuritySession) -> str:
        """The session's CSRF token, issued on first fetch and then reused."""
        if session.csrf_token is None:
            session.csrf_token = new_csrf_token()
        return session.csrf_token

    def expire_tokens(self) -> None:
        for session in self.sessions.values():
            session.csrf_token = None

    def close_session(self, session_id: str) -> list[str]:
        """Drop a security session; returns the ids of the contexts it ended."""
        self.sessions.pop(session_id, None)
        ended = [c.id for c in self.contexts.values() if c.session_id == session_id]
        for context_id in ended:
            self.kill_context(context_id)
        return ended

    # contexts --------------------------------------------------------------------------
    def open_context(
        self, user: str, session_id: str | None, *, synthetic: bool = False
    ) -> Context:
        raw = secrets.token_hex(16).upper()
        context_id = f"SID%3aANON%3aemulator_{self.sid}_00%3a{raw}-NEW"
        context = Context(context_id, user, session_id, synthetic=synthetic)
        self.contexts[context_id] = context
        return context

    def kill_context(self, context_id: str) -> None:
        if self.contexts.pop(context_id, None) is not None:
            self.dead_contexts.add(context_id)

    def expired_contexts(self) -> list[str]:
        """Ids of non-synthetic contexts idle longer than the timeout."""
        now = self.clock()
        return [
            c.id
            for c in self.contexts.values()
            if not c.synthetic and now - c.last_used > self.idle_timeout
        ]

    def synthetic_context(self, user: str) -> Context:
        """The one synthetic context of ``user`` (another actor, e.g. a colleague)."""
        for context in self.contexts.values():
            if context.synthetic and context.user == user:
                return context
        return self.open_context(user, None, synthetic=True)
