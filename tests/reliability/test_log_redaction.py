"""No cookie, CSRF token, password or authorization header reaches a log, at any level: a
real client cycle over real HTTP with every logger at DEBUG (the HTTP libraries print
response headers there)."""

from __future__ import annotations

import base64
import logging
import time

import pytest

from adt import AdtClient, ConnectionProfile, logs
from adt.emulator import Emulator

REPORT = "/sap/bc/adt/programs/programs/zdemo_report"


async def test_debug_logs_of_a_lock_cycle_hold_no_secret(
    emulator: Emulator, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with emulator.serve() as url:
        profile = ConnectionProfile(base_url=url, user="DEVELOPER", password="developer")
        async with AdtClient(profile) as client:
            lock = await client.lock(REPORT)
            secrets = [
                client._stateful.cookies.get("SAP_SESSIONID_A4H_001"),
                client._stateful.cookies.get("sap-contextid"),
                client._stateful._csrf,
                "developer",  # the password
                base64.b64encode(b"DEVELOPER:developer").decode(),
            ]
            await client.unlock(REPORT, lock.handle)
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert "receive_response_headers" in text, "the HTTP library did log headers"
    assert logs.REDACTED in text
    for secret in secrets:
        assert secret and secret not in text


def test_redaction_covers_the_shapes_secrets_take() -> None:
    cases = {
        "[(b'set-cookie', b'SAP_SESSIONID_A4H_001=s3cr3t; path=/')]": "s3cr3t",
        "[(b'x-csrf-token', b'T0K3N==')]": "T0K3N==",
        "Cookie: sap-contextid=C0NTEXT; other=1": "C0NTEXT",
        "{'authorization': 'Basic REVWRUxPUEVSOmRldg=='}": "REVWRUxPUEVSOmRldg==",
        "Authorization: Bearer abcdefghijklmnopqrstuvwxyz": "abcdefghijklmnopqrstuvwxyz",
        "resent with MYSAPSSO2=SS0TICKET": "SS0TICKET",
    }
    for text, secret in cases.items():
        assert secret not in logs.redact(text), text
    assert logs.redact("GET /sap/bc/adt/discovery -> 200") == "GET /sap/bc/adt/discovery -> 200"


def test_a_burst_of_one_message_is_limited_then_summarised() -> None:
    limiter = logs.RepeatLimiter(burst=2, window=0.05)

    def record() -> logging.LogRecord:
        return logging.LogRecord("x", logging.ERROR, "f", 1, "Too many open files", None, None)

    passed = [limiter.filter(record()) for _ in range(1000)]
    assert passed.count(True) == 2
    time.sleep(0.06)
    later = record()
    assert limiter.filter(later)
    assert later.getMessage() == "Too many open files (and 998 more like it)"
