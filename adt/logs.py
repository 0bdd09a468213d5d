"""Logging that is safe and quiet, for every entry point.

Secrets never reach a log: cookies, CSRF tokens and authorization headers are redacted from
every record of the HTTP libraries (whose DEBUG output prints response headers) and of every
handler our entry points set up, at every level. A logged session cookie could be replayed
without the password; a CSRF token with it could write. And a message repeated in a burst
(a flood of refused connections) is written a few times, then summarised."""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from pathlib import Path

from adt.errors import ConfigurationError

REDACTED = "<redacted>"
_HEADER_NAMES = r"(?:set-cookie|cookie|x-csrf-token|authorization|proxy-authorization|mysapsso2)"
# (b'set-cookie', b'SAP_SESSIONID_A4H_001=…') as httpcore prints header tuples
_TUPLE = re.compile(
    rf"""(\(b?(['"]){_HEADER_NAMES}\2,\s*b?)(['"])(?:\\.|(?!\3).)*\3""", re.IGNORECASE
)
# Cookie: a=b / x-csrf-token: … as header lines or dict reprs ('cookie': '…')
_LINE = re.compile(
    rf"""((?:^|[\s{{,'"])(['"]?){_HEADER_NAMES}\2\s*[:=]\s*)(['"]?)[^\n'"]*\3""",
    re.IGNORECASE | re.MULTILINE,
)
# SAP's own cookie names anywhere, and basic or bearer credentials
_COOKIE = re.compile(
    r"\b(SAP_SESSIONID_\w+|sap-contextid|MYSAPSSO2|sap-XSRF_\w+|SAP_SESSIONID)=([^;\s'\"&]+)",
    re.IGNORECASE,
)
_CREDENTIALS = re.compile(r"\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]{8,}", re.IGNORECASE)

LIBRARY_LOGGERS = (
    "httpx",
    "httpcore",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.connection",
    "httpcore.proxy",
    "httpcore.socks",
    "hpack",
    "uvicorn",
    "uvicorn.error",
    "uvicorn.access",
)


def redact(text: str) -> str:
    """``text`` with every cookie value, CSRF token and credential replaced."""
    text = _TUPLE.sub(lambda m: f"{m.group(1)}{m.group(3)}{REDACTED}{m.group(3)}", text)
    text = _LINE.sub(lambda m: f"{m.group(1)}{m.group(3)}{REDACTED}{m.group(3)}", text)
    text = _COOKIE.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    return _CREDENTIALS.sub(lambda m: f"{m.group(1)} {REDACTED}", text)


class RedactSecrets(logging.Filter):
    """A filter for loggers and handlers: rewrites the record's message when it holds a
    secret (the formatted message replaces ``msg`` and ``args``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and record.exc_text is None and record.exc_info[1] is not None:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return True


_FILTER = RedactSecrets()


def install(*handlers: logging.Handler) -> None:
    """Redact the HTTP libraries' records at their source, and everything passing the given
    handlers (the entry points pass the handlers they configure)."""
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
    for handler in handlers:
        if _FILTER not in handler.filters:
            handler.addFilter(_FILTER)


class RepeatLimiter(logging.Filter):
    """Lets the same message (logger, level, template) through ``burst`` times per
    ``window`` seconds; the rest are counted and reported once the window has passed."""

    def __init__(self, burst: int = 5, window: float = 10.0) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = time.monotonic()
        with self._lock:
            started, count = self._seen.get(key, (now, 0))
            if now - started > self.window:
                if count > self.burst:
                    record.msg = f"{record.msg} (and {count - self.burst} more like it)"
                started, count = now, 0
            self._seen[key] = (started, count + 1)
            if len(self._seen) > 10_000:  # many distinct messages: forget the old ones
                self._seen = {key: (started, count + 1)}
        return count < self.burst


def private_file_handler(path: str) -> logging.FileHandler:
    """A log file only its owner can read (created 0600, tightened if it existed)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.close(fd)
    Path(path).chmod(0o600)
    return logging.FileHandler(path, encoding="utf-8")


LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def level_named(name: str, variable: str = "ABAP_ADT_LOG_LEVEL") -> int:
    """The logging level a user named (any case); a clear configuration error otherwise."""
    wanted = name.strip().upper()
    if wanted not in LEVELS:
        raise ConfigurationError(f"{variable} must be one of {', '.join(LEVELS)}, not {name!r}")
    return int(getattr(logging, wanted))


def configure(level: int | str, handler: logging.Handler, fmt: str) -> None:
    """Set up the root logger of an entry point with ``handler``: secrets redacted, bursts
    of one message limited."""
    handler.setFormatter(logging.Formatter(fmt))
    handler.addFilter(RepeatLimiter())
    logging.basicConfig(level=level, handlers=[handler], force=True)
    install(handler)
