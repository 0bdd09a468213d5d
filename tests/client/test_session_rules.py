"""Each protocol rule of the client, with a test that fails if the rule is broken."""

from __future__ import annotations

import asyncio
import base64
import logging
import ssl
from pathlib import Path

import certifi
import httpx
import pytest
from support.fake_sap import FakeSap, Seen, csrf_required, exc, session_timed_out

from adt import AdtClient, ConnectionProfile
from adt.auth.base import server_trust
from adt.errors import (
    AdtTransportError,
    AuthenticationError,
    CheckRunError,
    ConfigurationError,
    CsrfTokenError,
    InvalidLockHandleError,
    InvalidObjectUrlError,
    LineTooLongError,
    LockConflictError,
    ServerFailure,
    SessionDeadError,
    SessionTimedOutError,
)
from adt.urls import encode_name, object_url

PROGRAM = "/sap/bc/adt/programs/programs/ztest"
SOURCE = f"{PROGRAM}/source/main"
PASSWORD = "s3cret-Passw0rd"


def _profile(**changes: object) -> ConnectionProfile:
    profile = ConnectionProfile(
        base_url="https://sap.example.test:44300",
        user="DEVELOPER",
        password=PASSWORD,  # type: ignore[arg-type]
    )
    return profile.with_options(**changes) if changes else profile


class _Sleeps:
    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.fixture
def sap() -> FakeSap:
    return FakeSap()


@pytest.fixture
def sleeps() -> _Sleeps:
    return _Sleeps()


@pytest.fixture
async def client(sap: FakeSap, sleeps: _Sleeps) -> AdtClient:
    async with AdtClient(_profile(), transport=sap.transport(), sleep=sleeps) as adt:
        yield adt  # type: ignore[misc]


# --- CSRF ---------------------------------------------------------------------------------


async def test_csrf_token_fetched_on_a_get_and_reused(client: AdtClient, sap: FakeSap) -> None:
    await client.activate(PROGRAM)
    await client.activate(PROGRAM)
    fetches = [s for s in sap.seen if s.headers.get("x-csrf-token") == "fetch"]
    assert [f.method for f in fetches] == ["GET"]
    posts = sap.requests("POST", "/activation")
    assert len(posts) == 2 and all(p.headers["x-csrf-token"] == sap.token for p in posts)


async def test_first_read_piggybacks_the_token_fetch(client: AdtClient, sap: FakeSap) -> None:
    await client.read_source(SOURCE)
    await client.activate(PROGRAM)
    assert len(sap.seen) == 2, "the read carried x-csrf-token: fetch, so no extra request"


async def test_csrf_failure_is_retried_once_after_a_refetch(
    client: AdtClient, sap: FakeSap
) -> None:
    await client.activate(PROGRAM)
    sap.once("POST", "/activation", lambda s: csrf_required())
    result = await client.activate(PROGRAM)
    assert result.success
    assert [s.method for s in sap.seen[-3:]] == ["POST", "GET", "POST"]
    assert sap.seen[-2].headers["x-csrf-token"] == "fetch"


async def test_csrf_failure_twice_raises(client: AdtClient, sap: FakeSap) -> None:
    sap.once("POST", "/activation", lambda s: csrf_required())
    sap.once("POST", "/activation", lambda s: csrf_required())
    with pytest.raises(CsrfTokenError):
        await client.activate(PROGRAM)
    assert len(sap.requests("POST", "/activation")) == 2


async def test_an_expired_csrf_token_under_a_lock_is_fetched_again_in_the_same_session(
    client: AdtClient, sap: FakeSap
) -> None:
    """The lock's context is still alive: a new token from the same session (same cookies,
    stateful) lets the write go through once, under the same lock."""
    lock = await client.lock(PROGRAM)
    context = sap.seen[-1].cookies.get("sap-contextid")
    sap.once("PUT", SOURCE, lambda s: csrf_required())
    before = len(sap.seen)
    await client.write_source(SOURCE, "REPORT ztest.", lock_handle=lock.handle)
    fetch, resend = sap.seen[before + 1], sap.seen[before + 2]
    assert [s.method for s in sap.seen[before:]] == ["PUT", "GET", "PUT"]
    assert fetch.headers["x-csrf-token"] == "fetch"
    assert fetch.headers["x-sap-adt-sessiontype"] == "stateful"
    assert fetch.cookies.get("sap-contextid") == context  # no new logon, no new context
    assert resend.params["lockHandle"] == lock.handle
    assert client.held_locks == {PROGRAM: lock.handle}


async def test_locks_are_reported_lost_when_the_token_fetch_finds_the_context_dead(
    client: AdtClient, sap: FakeSap
) -> None:
    lock = await client.lock(PROGRAM)
    sap.once("PUT", SOURCE, lambda s: csrf_required())
    sap.once("GET", "/sap/bc/adt/core/discovery", lambda s: session_timed_out())
    before = len(sap.seen)
    with pytest.raises(SessionDeadError, match="Lock again"):
        await client.write_source(SOURCE, "REPORT ztest.", lock_handle=lock.handle)
    assert [s.method for s in sap.seen[before:]] == ["PUT", "GET"], "no resend, no re-lock"
    assert client.held_locks == {}


# --- cookies ------------------------------------------------------------------------------


async def test_cookies_are_taken_from_error_responses(client: AdtClient, sap: FakeSap) -> None:
    def not_found(seen: Seen) -> httpx.Response:
        response = exc(404, "ExceptionResourceNotFound", "ZNOPE does not exist")
        response.headers["set-cookie"] = "sap-XSRF_A4H_001=rotated; path=/sap/bc/adt"
        return response

    sap.once("GET", "/znope", not_found)
    with pytest.raises(Exception, match="does not exist"):
        await client.object_metadata("/sap/bc/adt/programs/programs/znope")
    await client.read_source(SOURCE)
    assert sap.seen[-1].cookies["sap-XSRF_A4H_001"] == "rotated"


async def test_session_death_is_recognised_by_the_icm_header_alone(
    client: AdtClient, sap: FakeSap
) -> None:
    lock = await client.lock(PROGRAM)
    sap.once(
        "PUT",
        SOURCE,
        lambda s: httpx.Response(
            400, headers={"x-sap-icm-err-id": "ICMENOSESSION"}, text="Bad Request"
        ),
    )
    with pytest.raises(SessionTimedOutError):
        await client.write_source(SOURCE, "REPORT ztest.", lock_handle=lock.handle)


async def test_session_death_replaces_the_whole_cookie_jar(client: AdtClient, sap: FakeSap) -> None:
    lock = await client.lock(PROGRAM)
    dead_context = sap.seen[-1].cookies.get("sap-contextid") or ""
    assert dead_context.endswith("ctx1")
    sap.once("PUT", SOURCE, lambda s: session_timed_out())
    with pytest.raises(SessionTimedOutError, match=r"released its locks on .*ztest"):
        await client.write_source(SOURCE, "REPORT ztest.", lock_handle=lock.handle)
    assert client.held_locks == {}
    after = len(sap.seen)
    await client.lock(PROGRAM)
    assert sap.seen[after].cookies == {}, "the first request after death starts a new session"
    assert all(s.cookies.get("sap-contextid") != dead_context for s in sap.seen[after:])


# --- stateful versus stateless ------------------------------------------------------------


async def test_no_stateless_request_carries_the_stateful_context(
    client: AdtClient, sap: FakeSap
) -> None:
    await client.read_source(SOURCE)
    async with client.locked(PROGRAM) as lock:
        await client.read_source(SOURCE)  # a stateless read in the middle of the window
        await client.object_metadata(PROGRAM)
        current = await client.read_source(SOURCE, stateful=True)
        await client.write_source(SOURCE, current.text + "\nWRITE 'y'.", lock_handle=lock.handle)
        await client.check_syntax(PROGRAM)
    window = [s for s in sap.seen if "sap-contextid" in s.cookies]
    assert window, "the lock window used a stateful context"
    assert all(s.session_type == "stateful" for s in window)
    stateless = [s for s in sap.seen if s.session_type == "stateless"]
    assert stateless and all("sap-contextid" not in s.cookies for s in stateless)
    lock_calls = [s for s in sap.seen if s.params.get("_action") in ("LOCK", "UNLOCK")]
    assert [s.session_type for s in lock_calls] == ["stateful", "stateful"]


async def test_locked_releases_the_lock_when_the_body_fails(
    client: AdtClient, sap: FakeSap
) -> None:
    with pytest.raises(RuntimeError):
        async with client.locked(PROGRAM):
            raise RuntimeError("boom")
    assert sap.requests("POST", PROGRAM)[-1].params["_action"] == "UNLOCK"
    assert client.held_locks == {}


async def test_close_releases_locks_and_ends_the_context(sap: FakeSap) -> None:
    adt = AdtClient(_profile(), transport=sap.transport())
    await adt.lock(PROGRAM)
    await adt.close()
    unlock = [s for s in sap.seen if s.params.get("_action") == "UNLOCK"]
    assert len(unlock) == 1
    ended = [s for s in sap.seen if s.session_type == "stateless" and "sap-contextid" in s.cookies]
    assert ended and ended[0].path == "/sap/bc/adt/compatibility/graph"
    assert sap.seen[-1].path == "/sap/public/bc/icf/logoff"


async def test_invalid_lock_handle_is_a_typed_session_error(
    client: AdtClient, sap: FakeSap
) -> None:
    lock = await client.lock(PROGRAM)
    sap.once(
        "PUT",
        SOURCE,
        lambda s: exc(
            423,
            "ExceptionResourceInvalidLockHandle",
            "not locked",
            T100KEY_ID="SADT_RESOURCE",
            T100KEY_NO="026",
        ),
    )
    with pytest.raises(InvalidLockHandleError, match="Lock the object again"):
        await client.write_source(SOURCE, "REPORT ztest.", lock_handle=lock.handle)
    assert client.held_locks == {}


async def test_lock_conflict_names_the_holder(client: AdtClient, sap: FakeSap) -> None:
    sap.once(
        "POST",
        PROGRAM,
        lambda s: exc(
            403,
            "ExceptionResourceNoAccess",
            "User COLLEAGUE is currently editing ZTEST",
            T100KEY_ID="EU",
            T100KEY_NO="510",
            T100KEY_V1="COLLEAGUE",
            T100KEY_V2="ZTEST",
        ),
    )
    with pytest.raises(LockConflictError) as caught:
        await client.lock(PROGRAM)
    assert caught.value.holder == "COLLEAGUE" and "COLLEAGUE" in str(caught.value)
    assert client.held_locks == {}


# --- authentication -----------------------------------------------------------------------


async def test_401_is_never_retried_with_the_same_password(client: AdtClient, sap: FakeSap) -> None:
    sap.once("GET", SOURCE, lambda s: httpx.Response(401, text="<html>401</html>"))
    with pytest.raises(AuthenticationError, match="not retrying"):
        await client.read_source(SOURCE)
    sent = len(sap.seen)
    with pytest.raises(AuthenticationError, match="failed earlier"):
        await client.read_source(SOURCE)
    assert len(sap.seen) == sent, "no second logon attempt reached the server"


# --- retries ------------------------------------------------------------------------------


async def test_idempotent_reads_back_off_on_503(
    client: AdtClient, sap: FakeSap, sleeps: _Sleeps
) -> None:
    sap.once("GET", SOURCE, lambda s: httpx.Response(503))
    sap.once("GET", SOURCE, lambda s: httpx.Response(502))
    text = await client.read_source(SOURCE)
    assert text.text.startswith("REPORT")
    assert sleeps.calls == [1.0, 2.0]


async def test_idempotent_reads_retry_network_errors(
    client: AdtClient, sap: FakeSap, sleeps: _Sleeps
) -> None:
    def drop(seen: Seen) -> httpx.Response:
        raise httpx.ReadError("connection reset")

    for _ in range(4):
        sap.once("GET", SOURCE, drop)
    assert (await client.read_source(SOURCE)).etag == "202607311509420011"
    assert sleeps.calls == [1.0, 2.0, 4.0], "the first drop is resent at once"
    sleeps.calls.clear()
    for _ in range(5):
        sap.once("GET", SOURCE, drop)
    with pytest.raises(AdtTransportError, match="ReadError"):
        await client.read_source(SOURCE)
    assert sleeps.calls == [1.0, 2.0, 4.0]


async def test_a_system_never_reached_is_reported_at_once(
    client: AdtClient, sap: FakeSap, sleeps: _Sleeps
) -> None:
    def refuse(seen: Seen) -> httpx.Response:
        raise httpx.ConnectError("connection refused")

    sap.once("GET", SOURCE, refuse)
    with pytest.raises(AdtTransportError, match="ConnectError") as caught:
        await client.read_source(SOURCE)
    assert sleeps.calls == [], "nobody listens there: no waiting"
    assert client.profile.base_url in str(caught.value)
    await client.read_source(SOURCE)  # reached now: a refused connection may be a restart
    sap.once("GET", SOURCE, refuse)
    assert (await client.read_source(SOURCE)).etag
    assert sleeps.calls == [1.0]


async def test_a_first_request_that_fails_lets_the_next_one_log_on(
    client: AdtClient, sap: FakeSap
) -> None:
    """The first request of a session goes alone; when it fails on the wire, the requests
    waiting behind it go on (one of them logs on), none waits for ever."""

    def refuse(seen: Seen) -> httpx.Response:
        raise httpx.ConnectError("connection refused")

    sap.once("GET", SOURCE, refuse)
    first, second, third = await asyncio.gather(
        *(client.read_source(SOURCE) for _ in range(3)), return_exceptions=True
    )
    assert isinstance(first, AdtTransportError)
    assert not isinstance(second, BaseException) and not isinstance(third, BaseException)
    assert second.etag == third.etag
    logons = [s for s in sap.seen if "SAP_SESSIONID_A4H_001" not in s.cookies]
    assert len(logons) == 2, "the refused request and the one after it"


async def test_a_system_that_stays_down_is_not_retried_again_until_it_answers(
    client: AdtClient, sap: FakeSap, sleeps: _Sleeps
) -> None:
    """Issue 18: with the system down a save failed only after 29 s, each of its requests
    waiting through every retry."""

    def refuse(seen: Seen) -> httpx.Response:
        raise httpx.ConnectError("connection refused")

    await client.read_source(SOURCE)  # reached
    for _ in range(4):
        sap.once("GET", SOURCE, refuse)
    with pytest.raises(AdtTransportError, match="ConnectError"):
        await client.read_source(SOURCE)
    assert sleeps.calls == [1.0, 2.0, 4.0], "it may have been restarting: retried"
    sap.once("GET", SOURCE, refuse)
    with pytest.raises(AdtTransportError, match="ConnectError"):
        await client.read_source(SOURCE)
    assert sleeps.calls == [1.0, 2.0, 4.0], "still down: refused at once"
    await client.read_source(SOURCE)  # back up
    sap.once("POST", "/sap/bc/adt/activation", refuse)  # not retried: the write may have landed
    with pytest.raises(AdtTransportError, match="ConnectError"):
        await client.activate(PROGRAM)
    sap.once("GET", SOURCE, refuse)
    with pytest.raises(AdtTransportError, match="ConnectError"):
        await client.read_source(SOURCE)  # another session: it knows the system is down too
    assert sleeps.calls == [1.0, 2.0, 4.0]
    await client.read_source(SOURCE)  # back up
    sap.once("GET", SOURCE, refuse)
    assert (await client.read_source(SOURCE)).etag
    assert sleeps.calls == [1.0, 2.0, 4.0, 1.0], "reached again: a refusal is retried"


async def test_backoff_pauses_come_from_the_profile(sap: FakeSap, sleeps: _Sleeps) -> None:
    profile = _profile(retry_delays=(0.01, 0.02))
    async with AdtClient(profile, transport=sap.transport(), sleep=sleeps) as adt:
        for _ in range(2):
            sap.once("GET", SOURCE, lambda s: httpx.Response(503))
        assert (await adt.read_source(SOURCE)).text.startswith("REPORT")
        assert sleeps.calls == [0.01, 0.02]
        for _ in range(3):
            sap.once("GET", SOURCE, lambda s: httpx.Response(503))
        with pytest.raises(ServerFailure):
            await adt.read_source(SOURCE)
        assert sleeps.calls == [0.01, 0.02, 0.01, 0.02], "two retries, then the error"


async def test_non_idempotent_requests_are_never_retried(
    client: AdtClient, sap: FakeSap, sleeps: _Sleeps
) -> None:
    await client.read_source(SOURCE)
    sap.once("POST", "/activation", lambda s: httpx.Response(503))
    with pytest.raises(ServerFailure):
        await client.activate(PROGRAM)

    def drop(seen: Seen) -> httpx.Response:
        raise httpx.ReadError("peer closed")

    sap.once("POST", "/activation", drop)
    with pytest.raises(AdtTransportError, match="not retried"):
        await client.activate(PROGRAM)
    assert len(sap.requests("POST", "/activation")) == 2
    assert sleeps.calls == []


# --- input validation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/sap/bc/adt/oo/classes/x",
        "//evil.example/sap/bc/adt/oo/classes/x",
        "/sap/bc/adt/../../etc/passwd",
        "/sap/bc/adt/oo/classes/%2e%2e/x",
        "/sap/bc/adt/oo/classes/x\r\nX-Injected: 1",
        "/sap/bc/adt/oo/classes/x%0d%0aX-Injected:%201",
        "/sap/bc/adt/oo/classes/x?lockHandle=abc",
        "/sap/public/bc/icf/logoff",
        "sap/bc/adt/oo/classes/x",
        "/sap/bc/adt/oo/classes/x y",
        "",
    ],
)
async def test_unsafe_urls_are_refused_before_sending(
    client: AdtClient, sap: FakeSap, url: str
) -> None:
    with pytest.raises(InvalidObjectUrlError):
        await client.read_source(url)
    with pytest.raises(InvalidObjectUrlError):
        await client.lock(url)
    assert sap.seen == []


async def test_long_lines_are_refused_before_sending(client: AdtClient, sap: FakeSap) -> None:
    with pytest.raises(LineTooLongError) as caught:
        await client.write_source(SOURCE, "REPORT x.\n" + "x" * 256, lock_handle="H")
    assert caught.value.line_number == 2 and "256" in str(caught.value)
    assert sap.seen == []


# --- text and parameters ------------------------------------------------------------------


async def test_a_transport_request_goes_with_the_put(client: AdtClient, sap: FakeSap) -> None:
    lock = await client.lock(PROGRAM)
    await client.write_source(
        SOURCE, "REPORT ztest.", lock_handle=lock.handle, corr_nr="A4HK900117"
    )
    put = sap.requests("PUT", SOURCE)[-1]
    assert put.params["corrNr"] == "A4HK900117" and put.params["lockHandle"] == lock.handle
    await client.write_source(SOURCE, "REPORT ztest.", lock_handle=lock.handle)
    assert "corrNr" not in sap.requests("PUT", SOURCE)[-1].params


def test_names_are_lower_case_and_percent_encoded() -> None:
    assert encode_name("/ABC/CL_X") == "%2fabc%2fcl_x"
    assert object_url("CLAS/OC", "/ABC/CL_X") == "/sap/bc/adt/oo/classes/%2fabc%2fcl_x"
    assert (
        object_url("FUGR/FF", "/ABC/FM_X", group="/ABC/GRP")
        == "/sap/bc/adt/functions/groups/%2fabc%2fgrp/fmodules/%2fabc%2ffm_x"
    )
    assert object_url("PROG/P", "ZTEST") == PROGRAM


async def test_upper_case_urls_reach_the_wire_lower_cased(client: AdtClient, sap: FakeSap) -> None:
    await client.read_source("/sap/bc/adt/programs/programs/ZTEST/source/main")
    assert sap.seen[-1].path == SOURCE


async def test_text_is_lf_inside_and_crlf_on_the_wire(client: AdtClient, sap: FakeSap) -> None:
    read = await client.read_source(SOURCE)
    assert read.text == "REPORT ztest.\nWRITE 'x'."
    async with client.locked(PROGRAM) as lock:
        await client.write_source(SOURCE, "REPORT ztest.\nWRITE 'ü'.", lock_handle=lock.handle)
    put = sap.requests("PUT")[-1]
    assert put.body == "REPORT ztest.\r\nWRITE 'ü'.".encode()
    assert put.headers["content-type"] == "text/plain; charset=utf-8"
    assert put.params["lockHandle"] == "A" * 40


async def test_client_and_language_go_as_query_parameters(client: AdtClient, sap: FakeSap) -> None:
    await client.read_source(SOURCE, version="active")
    assert sap.seen[-1].params == {"sap-client": "001", "sap-language": "EN", "version": "active"}
    with pytest.raises(ValueError, match="version"):
        await client.read_source(SOURCE, version="newest")


async def test_activation_and_check_verdicts_hidden_in_200(client: AdtClient, sap: FakeSap) -> None:
    assert (await client.activate(PROGRAM)).success  # empty 200
    failure = (
        '<?xml version="1.0" encoding="utf-8"?><chkl:messages '
        'xmlns:chkl="http://www.sap.com/abapxml/checklist"><msg type="E" line="1" '
        f'href="{SOURCE}#start=2,4"><shortText><txt>Bad.</txt></shortText></msg></chkl:messages>'
    )
    sap.once("POST", "/activation", lambda s: httpx.Response(200, text=failure))
    result = await client.activate(PROGRAM)
    assert not result.success and result.errors[0].line == 2
    not_processed = (
        '<?xml version="1.0" encoding="utf-8"?><chkrun:checkRunReports '
        'xmlns:chkrun="http://www.sap.com/adt/checkrun"><chkrun:checkReport '
        'chkrun:reporter="abapCheckRun" chkrun:triggeringUri="x" chkrun:status="notProcessed" '
        'chkrun:statusText="Resource PROGRAM ZTEST does not exist."/></chkrun:checkRunReports>'
    )
    sap.once("POST", "/checkruns", lambda s: httpx.Response(200, text=not_processed))
    with pytest.raises(CheckRunError, match="does not exist"):
        await client.check_syntax(PROGRAM)


# --- secrets ------------------------------------------------------------------------------


async def test_password_and_cookies_never_show(
    client: AdtClient, sap: FakeSap, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    await client.read_source(SOURCE)
    await client.activate(PROGRAM)
    sap.once("GET", SOURCE, lambda s: httpx.Response(401))
    with pytest.raises(AuthenticationError) as caught:
        await client.read_source(SOURCE)
    shown = " ".join(
        [caplog.text, repr(client), repr(client.profile), str(client.profile), str(caught.value)]
    )
    basic = base64.b64encode(f"DEVELOPER:{PASSWORD}".encode()).decode()
    assert PASSWORD not in shown and basic not in shown, "neither plain nor as basic auth"
    assert "secret-session" not in shown
    assert caplog.records, "the client does log its requests"
    assert PASSWORD not in repr(client.profile.password) + str(client.profile.password)


@pytest.mark.parametrize(
    "url", ["https://DEVELOPER:topsecret@", "ftp://u:topsecret@host", "https://u:topsecret@h:1"]
)
def test_a_password_in_the_url_is_refused_without_repeating_it(url: str) -> None:
    with pytest.raises(ConfigurationError, match="user information") as caught:
        ConnectionProfile(base_url=url, user="U", password="p")  # type: ignore[arg-type]
    assert "topsecret" not in str(caught.value)


def test_tls_settings_and_timeouts_reach_the_http_client() -> None:
    profile = _profile(verify=certifi.where(), connect_timeout=3.0, read_timeout=7.0)
    client = AdtClient(profile)
    assert client._stateless._http.timeout == httpx.Timeout(7.0, connect=3.0)
    context = server_trust(certifi.where())
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0, "the bundle's CAs are trusted"
    assert client._stateless.authenticator.tls() is not True, "the bundle, not the defaults"
    default = _profile_tls(True)
    assert isinstance(default, ssl.SSLContext) and default.check_hostname
    assert default.verify_mode == ssl.CERT_REQUIRED
    assert default is _profile_tls(True), "the default CAs are parsed once per process"
    assert _profile_tls(False) is False


def _profile_tls(verify: bool) -> object:
    return AdtClient(_profile(verify=verify))._stateless.authenticator.tls()


def test_a_missing_ca_bundle_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="CA bundle"):
        AdtClient(_profile(verify=str(tmp_path / "missing.pem")))


def test_profile_from_environment() -> None:
    profile = ConnectionProfile.from_env(
        {
            "ADT_URL": "https://a4h.example:50001/",
            "ADT_USER": "DEVELOPER",
            "ADT_PASSWORD": PASSWORD,
            "ADT_CLIENT": "100",
            "ADT_LANGUAGE": "DE",
            "ADT_VERIFY_TLS": "false",
        }
    )
    assert profile.base_url == "https://a4h.example:50001"
    assert (profile.client, profile.language, profile.verify) == ("100", "DE", False)
    assert profile.password.reveal() == PASSWORD and PASSWORD not in repr(profile)
    assert (
        ConnectionProfile.from_env(
            {"ADT_URL": "https://x", "ADT_USER": "U", "ADT_PASSWORD": "p"}
        ).verify
        is True
    )
    with pytest.raises(Exception, match="ADT_PASSWORD"):
        ConnectionProfile.from_env({"ADT_URL": "https://x", "ADT_USER": "U"})
