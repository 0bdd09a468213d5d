"""The V2 source operations against the emulator: every operation and every error code."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
from typing import Any

import httpx
import pytest
from support.emulated import (
    GREETER,
    LARGE,
    REPORT,
    ServiceFactory,
    make_client,
    no_sleep,
    socket_client,
)

from adt import AdtClient
from adt.emulator import Emulator
from adt.errors import AdtTransportError
from adt.profile import Secret
from adt.source import Patch, SourceService
from adt.source.errors import (
    AuthFailed,
    CacheExpired,
    IncludeNotFound,
    InvalidArgument,
    LineOutOfRange,
    LockRequired,
    NetworkError,
    NotClassObject,
    NoUniqueMatch,
    ObjectLocked,
    ObjectNotFound,
    PatternInvalid,
    SessionExpired,
    TokenInvalid,
    TokenMismatch,
    VersionConflict,
)
from adt.source.token import token_changed_at

REPORT_SOURCE = f"{REPORT}/source/main"


def _stored(emulator: Emulator, source_url: str) -> str:
    text = emulator.source(source_url)
    assert text is not None
    return text


# --- reads --------------------------------------------------------------------------------


async def test_cold_read_costs_one_request_and_warm_read_none(
    service: SourceService, emulator: Emulator
) -> None:
    emulator.reset_request_log()
    read = await service.get_source_v2(LARGE, start_line=100, end_line=199)
    assert sum(emulator.request_counts().values()) == 1
    assert read.line_count >= 9_000 and (read.start_line, read.end_line) == (100, 199)
    assert len(read.content.split("\n")) == 100 and not read.cached
    assert token_changed_at(read.token) == read.changed_at
    again = await service.get_source_v2(LARGE, start_line=500, end_line=510)
    assert again.cached and again.token == read.token
    assert sum(emulator.request_counts().values()) == 1, "a warm read costs no request"
    assert read.expires_at - read.changed_at > 0 and read.object_type == "CLAS/OC"


async def test_read_matches_the_stored_source(service: SourceService, emulator: Emulator) -> None:
    whole = await service.get_source_v2(REPORT)
    assert whole.content == _stored(emulator, REPORT_SOURCE)
    assert whole.start_line == 1 and whole.end_line == whole.line_count
    assert whole.requested_start_line is None and whole.include_type is None


async def test_class_includes_have_their_own_tokens(
    service: SourceService, make_service: ServiceFactory, emulator: Emulator
) -> None:
    definitions = await service.get_source_v2(GREETER, include_type="definitions")
    implementations = await service.get_source_v2(GREETER, include_type="implementations")
    assert definitions.include_type == "definitions"
    assert definitions.source_url == f"{GREETER}/includes/definitions"
    assert definitions.token != implementations.token
    await service.set_source_v2(
        GREETER,
        include_type="implementations",
        token=implementations.token,
        start_line=1,
        end_line=0,
        content="* touched implementations",
    )
    fresh = make_service()  # no cache: everything is read from the server
    again = await fresh.get_source_v2(GREETER, include_type="definitions")
    assert again.token == definitions.token, "editing implementations keeps definitions' token"
    assert (await fresh.get_source_v2(GREETER, include_type="implementations")).token != (
        implementations.token
    )


async def test_include_type_on_a_program_is_ignored_with_a_note(service: SourceService) -> None:
    read = await service.get_source_v2(REPORT, include_type="definitions")
    assert read.include_type is None and read.source_url == REPORT_SOURCE
    assert any("ignored" in note for note in read.notes)


async def test_unknown_includes_list_the_available_ones(service: SourceService) -> None:
    with pytest.raises(IncludeNotFound) as caught:
        await service.get_source_v2(GREETER, include_type="privates")
    assert caught.value.code == 4007 and "testclasses" in caught.value.details["available"]
    counter = "/sap/bc/adt/oo/classes/zcl_demo_counter"
    structure = await service.object_structure(counter)
    have = {inc.include_type for inc in structure.includes}
    missing = next(t for t in ("macros", "definitions", "implementations") if t not in have)
    with pytest.raises(IncludeNotFound) as caught:
        await service.get_source_v2(counter, include_type=missing)
    assert set(caught.value.details["available"]) == have


async def test_include_path_on_a_non_class_is_refused(service: SourceService) -> None:
    with pytest.raises(NotClassObject) as caught:
        await service.get_source_v2(object_source_url=f"{REPORT}/includes/definitions")
    assert caught.value.code == 4008


async def test_line_range_errors_and_clamping(service: SourceService) -> None:
    read = await service.get_source_v2(REPORT, start_line=2, end_line=10_000)
    assert read.end_line == read.line_count and read.notes
    with pytest.raises(LineOutOfRange) as caught:
        await service.get_source_v2(REPORT, start_line=read.line_count + 1)
    assert caught.value.code == 4004 and caught.value.details["lineCount"] == read.line_count


async def test_cut_reads_say_how_to_continue(service: SourceService) -> None:
    first = await service.get_source_v2(LARGE, max_chars=2_000)
    assert first.truncated and first.next_start_line == first.end_line + 1
    assert len(first.content) <= 2_000 and "startLine=" in first.notes[-1]
    rest = await service.get_source_v2(
        LARGE, start_line=first.next_start_line, end_line=first.next_start_line
    )
    assert rest.start_line == first.end_line + 1


async def test_missing_object(service: SourceService) -> None:
    with pytest.raises(ObjectNotFound) as caught:
        await service.get_source_v2("/sap/bc/adt/programs/programs/znope")
    assert caught.value.code == 4011


# --- grep ---------------------------------------------------------------------------------


async def test_grep_finds_method_definitions(service: SourceService) -> None:
    result = await service.grep(LARGE, pattern=r"^\s*METHODS\s+\w+", context_lines=1, max_matches=5)
    assert result.match_count == 5 and result.truncated and result.next_start_line
    for match in result.matches:
        assert re.match(r"^\s*METHODS\s+\w+", match.content)
        assert len(match.context_before) == 1 and len(match.context_after) == 1
    more = await service.grep(
        LARGE, pattern=r"^\s*METHODS\s+\w+", max_matches=5, start_line=result.next_start_line
    )
    assert more.matches[0].line_number == result.next_start_line


async def test_grep_errors(service: SourceService) -> None:
    with pytest.raises(PatternInvalid) as caught:
        await service.grep(LARGE, pattern="METHODS (")
    assert caught.value.code == 4006


async def test_grep_pathological_pattern_is_bounded(make_service: ServiceFactory) -> None:
    """Either an error or a result is fine; an unbounded wait is not."""
    service = make_service(grep_timeout_s=0.5)
    loop = asyncio.get_running_loop()
    for pattern in (r"^(\w+\s?)*$", r"^(\s|\w|\W)*x(\s|\w)*$", r"(.*a){20}"):
        started = loop.time()
        try:
            outcome = await service.grep(LARGE, pattern=pattern, max_matches=10)
        except PatternInvalid as exc:
            assert "longer than" in exc.message  # noqa: PT017 - either outcome is valid
        else:
            assert outcome.line_count > 9_000
        assert loop.time() - started < 5, pattern


# --- writes -------------------------------------------------------------------------------


async def test_patch_is_written_and_token_renewed(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    result = await service.set_source_v2(
        REPORT,
        token=read.token,
        start_line=2,
        end_line=2,
        content="* replaced line\n* and one more",
    )
    assert result.updated and result.old_range == (2, 2) and result.new_range == (2, 3)
    assert result.line_count == read.line_count + 1 and result.token != read.token
    lines = read.content.split("\n")
    expected = "\n".join([lines[0], "* replaced line", "* and one more", *lines[2:]])
    assert _stored(emulator, REPORT_SOURCE) == expected
    assert (await service.get_source_v2(REPORT)).token == result.token


async def test_several_patches_go_in_one_put(service: SourceService, emulator: Emulator) -> None:
    read = await service.get_source_v2(LARGE)
    emulator.reset_request_log()
    result = await service.set_source_v2(
        LARGE,
        token=read.token,
        patches=[
            Patch.from_content(read.line_count + 1, read.line_count, "* appended"),
            Patch.from_content(10, 12, "* three became one"),
            Patch.from_content(1, 0, "* first"),
        ],
    )
    counts = emulator.request_counts()
    assert counts[f"PUT {LARGE}/source/main"] == 1
    assert len(result.patches) == 3 and result.line_count == read.line_count + 2 - 2
    stored = _stored(emulator, f"{LARGE}/source/main").split("\n")
    assert stored[0] == "* first" and stored[-1] == "* appended"
    assert stored[10] == "* three became one"


async def test_overlapping_patches_are_refused_before_locking(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    emulator.reset_request_log()
    with pytest.raises(InvalidArgument, match="overlap"):
        await service.set_source_v2(
            REPORT,
            token=read.token,
            patches=[Patch.from_content(1, 2, "a"), Patch.from_content(2, 3, "b")],
        )
    assert emulator.request_log == [], "refused before any request"
    assert emulator.source(REPORT_SOURCE) == read.content


async def test_a_colleagues_change_is_a_conflict_and_nothing_is_written(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    theirs = read.content + "\n* colleague was here"
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
    with pytest.raises(VersionConflict) as caught:
        await service.set_source_v2(REPORT, token=read.token, start_line=1, end_line=1, content="X")
    error = caught.value
    assert error.code == 4003 and error.details["changedBy"] == "COLLEAGUE"
    assert error.details["expectedToken"] == read.token
    assert (
        error.details["currentToken"] != read.token
        and "read the source again" in error.details["resolution"]
    )
    payload = error.to_dict()
    assert payload["retry"] is True and payload["retryAction"] == "readSource"
    assert _stored(emulator, REPORT_SOURCE) == theirs
    current = await service.get_source_v2(REPORT)
    assert current.token == error.details["currentToken"], "the conflict refreshed the cache"


async def test_expired_cache_with_unchanged_source_still_writes(
    make_service: ServiceFactory, emulator: Emulator
) -> None:
    service = make_service(cache_ttl_ms=0)
    read = await service.get_source_v2(REPORT)
    assert service.cache.get(service.resolve(REPORT).key) is None, "the entry has expired"
    result = await service.set_source_v2(
        REPORT, token=read.token, start_line=1, end_line=0, content="* ok"
    )
    assert result.updated and _stored(emulator, REPORT_SOURCE).startswith("* ok\n")


async def test_restarted_service_accepts_an_old_but_valid_token(
    make_service: ServiceFactory,
) -> None:
    token = (await make_service().get_source_v2(REPORT)).token
    restarted = make_service()
    result = await restarted.set_source_v2(
        REPORT, token=token, start_line=1, end_line=0, content="*"
    )
    assert result.updated


async def test_strict_cache_mode_reports_cache_expired(make_service: ServiceFactory) -> None:
    service = make_service(cache_ttl_ms=0, strict_cache=True)
    read = await service.get_source_v2(REPORT)
    with pytest.raises(CacheExpired) as caught:
        await service.set_source_v2(REPORT, token=read.token, start_line=1, end_line=1, content="x")
    assert caught.value.code == 4000


@pytest.mark.parametrize("token", ["", "garbage", "123_xyz", "1_0123456789ABCDEF"])
async def test_malformed_tokens(service: SourceService, token: str) -> None:
    with pytest.raises(TokenInvalid) as caught:
        await service.set_source_v2(REPORT, token=token, start_line=1, end_line=1, content="x")
    assert caught.value.code == 4001


async def test_a_token_of_another_include_is_a_mismatch(service: SourceService) -> None:
    definitions = await service.get_source_v2(GREETER, include_type="definitions")
    with pytest.raises(TokenMismatch) as caught:
        await service.set_source_v2(
            GREETER,
            include_type="implementations",
            token=definitions.token,
            start_line=1,
            end_line=0,
            content="* x",
        )
    assert caught.value.code == 4002
    assert caught.value.details["issuedFor"]["includeType"] == "definitions"


async def test_line_ranges_are_checked_against_the_tokens_base(service: SourceService) -> None:
    read = await service.get_source_v2(REPORT)
    with pytest.raises(LineOutOfRange):
        await service.set_source_v2(
            REPORT,
            token=read.token,
            start_line=read.line_count + 2,
            end_line=read.line_count + 2,
            content="x",
        )


async def test_lock_held_by_someone_else_names_them(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    emulator.lock_as("COLLEAGUE", REPORT)
    try:
        with pytest.raises(ObjectLocked) as caught:
            await service.set_source_v2(
                REPORT, token=read.token, start_line=1, end_line=1, content="x"
            )
        assert caught.value.code == 4009 and caught.value.details["lockedBy"] == "COLLEAGUE"
        assert "COLLEAGUE" in caught.value.message
    finally:
        emulator.unlock_as("COLLEAGUE", REPORT)
    assert emulator.source(REPORT_SOURCE) == read.content


async def test_caller_lock_that_died_is_lock_required(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    lock = await service.lock(REPORT, owner="agent")
    emulator.expire_contexts()
    with pytest.raises(LockRequired) as caught:
        await service.set_source_v2(
            REPORT,
            token=read.token,
            start_line=1,
            end_line=1,
            content="x",
            lock_handle=lock.lock_handle,
        )
    assert caught.value.code == 4005 and caught.value.to_dict()["retryAction"] == "lock"
    assert emulator.source(REPORT_SOURCE) == read.content
    assert service.locks_of("agent") == {}


async def test_session_death_between_lock_and_put_is_recovered_once(
    service: SourceService, emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = await service.get_source_v2(REPORT)
    real_write = service.client.write_source
    deaths = {"left": 1}

    async def dying_write(*args: object, **kwargs: object) -> object:
        if deaths["left"]:
            deaths["left"] -= 1
            emulator.expire_contexts()
        return await real_write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service.client, "write_source", dying_write)
    emulator.reset_request_log()
    result = await service.set_source_v2(
        REPORT, token=read.token, start_line=1, end_line=0, content="* again"
    )
    assert result.updated and _stored(emulator, REPORT_SOURCE).startswith("* again\n")
    assert emulator.request_counts()[f"POST {REPORT}"] >= 3, "locked twice (and unlocked)"


async def test_session_death_twice_writes_nothing_and_leaks_nothing(
    service: SourceService, emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = await service.get_source_v2(REPORT)
    real_write = service.client.write_source

    async def always_dying(*args: object, **kwargs: object) -> object:
        emulator.expire_contexts()
        return await real_write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service.client, "write_source", always_dying)
    with pytest.raises(SessionExpired) as caught:
        await service.set_source_v2(REPORT, token=read.token, start_line=1, end_line=1, content="x")
    assert caught.value.code == 4010
    assert emulator.source(REPORT_SOURCE) == read.content
    assert emulator.locks() == []


async def test_a_put_whose_answer_was_lost_is_not_a_conflict_on_retry(
    service: SourceService, emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = await service.get_source_v2(REPORT)
    real_write = service.client.write_source
    lost = {"left": 1}

    async def answer_lost(*args: object, **kwargs: object) -> object:
        result = await real_write(*args, **kwargs)  # type: ignore[arg-type]
        if lost["left"]:
            lost["left"] -= 1
            raise AdtTransportError("connection reset after the PUT")
        return result

    monkeypatch.setattr(service.client, "write_source", answer_lost)
    result = await service.set_source_v2(
        REPORT, token=read.token, start_line=1, end_line=0, content="* once"
    )
    stored = _stored(emulator, REPORT_SOURCE)
    assert stored.count("* once") == 1 and result.token != read.token


async def test_ten_concurrent_writers_lose_no_update(emulator: Emulator) -> None:
    """Ten writers, each with its own ADT session, over a real socket so that their
    requests truly interleave."""
    rng = random.Random(42)
    accepted: list[str] = []
    refused: list[tuple[str, int]] = []
    async with emulator.serve() as base_url:
        services = [
            SourceService(socket_client(base_url), system="A4H", sleep=no_sleep) for _ in range(10)
        ]

        async def writer(index: int, service: SourceService) -> None:
            for attempt in range(8):
                marker = f"* writer {index} attempt {attempt}"
                read = await service.get_source_v2(REPORT, fresh=True)
                position = rng.randint(1, read.line_count + 1)
                try:
                    await service.set_source_v2(
                        REPORT,
                        token=read.token,
                        start_line=position,
                        end_line=position - 1,
                        content=marker,
                    )
                except (VersionConflict, ObjectLocked) as exc:
                    refused.append((marker, exc.code))
                    await asyncio.sleep(rng.random() / 50)
                else:
                    accepted.append(marker)
                    return

        try:
            await asyncio.gather(*(writer(i, s) for i, s in enumerate(services)))
        finally:
            for service in services:
                await service.close()
                await service.client.close()
    stored = _stored(emulator, REPORT_SOURCE)
    present = {line for line in stored.split("\n") if line.startswith("* writer")}
    assert present == set(accepted), "every accepted patch is present, no refused one is"
    assert len(present) == len(accepted)
    assert accepted and refused, "there was real contention"
    assert {code for _, code in refused} <= {4003, 4009}
    assert emulator.locks() == []


# --- unique replace -----------------------------------------------------------------------


async def test_unique_replace(service: SourceService, emulator: Emulator) -> None:
    read = await service.get_source_v2(REPORT)
    lines = read.content.split("\n")
    number, unique = next((i, line) for i, line in enumerate(lines, 1) if lines.count(line) == 1)
    result = await service.replace_in_source(
        REPORT, old_string=unique, new_string=unique + ' " renamed', token=read.token
    )
    assert result.old_range == (number, number) and result.updated
    assert _stored(emulator, REPORT_SOURCE).split("\n")[number - 1] == unique + ' " renamed'


async def test_replace_counts_occurrences(service: SourceService) -> None:
    with pytest.raises(NoUniqueMatch) as caught:
        await service.replace_in_source(LARGE, old_string="ENDMETHOD.", new_string="ENDMETHOD. ")
    assert caught.value.details["occurrences"] > 1 and len(caught.value.details["lines"]) > 1
    assert "times" in caught.value.message
    with pytest.raises(NoUniqueMatch) as caught:
        await service.replace_in_source(LARGE, old_string="no such text anywhere", new_string="x")
    assert caught.value.details["occurrences"] == 0
    with pytest.raises(InvalidArgument, match="identical"):
        await service.replace_in_source(LARGE, old_string="same", new_string="same")


async def test_replace_matches_across_line_ending_styles(
    service: SourceService, emulator: Emulator
) -> None:
    lines = (await service.get_source_v2(REPORT)).content.split("\n")
    crlf = "\r\n".join(lines[0:2])
    result = await service.replace_in_source(
        REPORT, old_string=crlf, new_string="* first two\r\n* lines"
    )
    assert result.old_range == (1, 2)
    assert _stored(emulator, REPORT_SOURCE).split("\n")[:2] == ["* first two", "* lines"]


async def test_replace_honours_a_stale_token(service: SourceService, emulator: Emulator) -> None:
    read = await service.get_source_v2(REPORT)
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, read.content + "\n* theirs")
    with pytest.raises(VersionConflict):
        await service.replace_in_source(
            REPORT, old_string=read.content.split("\n")[0], new_string="* mine", token=read.token
        )


# --- V1, locks, structure, checks ---------------------------------------------------------


async def test_v1_whole_source(service: SourceService, emulator: Emulator) -> None:
    text = await service.get_source(REPORT_SOURCE)
    assert text == _stored(emulator, REPORT_SOURCE)
    result = await service.set_source(REPORT_SOURCE, source=text + "\r\n* v1 write")
    assert result.updated and _stored(emulator, REPORT_SOURCE).endswith("* v1 write")


async def test_locks_are_tracked_per_owner(service: SourceService, emulator: Emulator) -> None:
    lock = await service.lock(REPORT, owner="agent-1")
    assert re.fullmatch(r"[0-9A-F]{40}", lock.lock_handle) and lock.is_local
    assert (await service.lock(REPORT, owner="agent-1")).lock_handle == lock.lock_handle
    with pytest.raises(ObjectLocked, match="agent-1"):
        await service.lock(REPORT, owner="agent-2")
    read = await service.get_source_v2(REPORT)
    with pytest.raises(ObjectLocked):  # somebody else's lock through this server
        await service.set_source_v2(REPORT, token=read.token, start_line=1, end_line=0, content="x")
    own = await service.set_source_v2(
        REPORT, token=read.token, start_line=1, end_line=0, content="* own", owner="agent-1"
    )
    assert own.updated, "the owner's lock is used when lockHandle is omitted"
    read = await service.get_source_v2(REPORT)
    written = await service.set_source_v2(
        REPORT,
        token=read.token,
        start_line=1,
        end_line=0,
        content="* locked write",
        lock_handle=lock.lock_handle,
    )
    assert written.updated
    assert [entry.object_uri for entry in emulator.locks()] == [REPORT]
    await service.release_owner("agent-1")
    assert emulator.locks() == []


async def test_object_structure_lists_includes(service: SourceService) -> None:
    structure = await service.object_structure(GREETER)
    assert structure.name == "ZCL_DEMO_GREETER" and structure.package == "$ZDEMO"
    types = [inc.include_type for inc in structure.includes]
    assert {"main", "definitions", "implementations", "macros", "testclasses"} <= set(types)


async def test_check_and_activate(service: SourceService, emulator: Emulator) -> None:
    read = await service.get_source_v2(REPORT)
    broken = read.content + "\nIF 1 = 1."
    await service.set_source_v2(
        REPORT, token=read.token, start_line=1, end_line=read.line_count, content=broken
    )
    check = await service.check(REPORT)
    assert check.errors and check.errors[0].line is not None
    activation = await service.activate(REPORT)
    assert not activation.success and activation.findings
    fixed = await service.get_source_v2(REPORT)
    await service.set_source_v2(
        REPORT,
        token=fixed.token,
        start_line=fixed.line_count,
        end_line=fixed.line_count,
        content="IF 1 = 1.\nENDIF.",
    )
    assert (await service.check(REPORT)).errors == ()
    assert (await service.activate(REPORT)).success
    assert emulator.source(REPORT_SOURCE, version="active") == _stored(emulator, REPORT_SOURCE)


async def test_activation_while_we_hold_the_lock_is_refused_clearly(service: SourceService) -> None:
    await service.lock(REPORT, owner="editor")
    with pytest.raises(ObjectLocked, match="unlock"):
        await service.activate(REPORT)
    await service.release_owner("editor")


async def test_search(service: SourceService) -> None:
    hits = await service.search("ZCL_DEMO_*")
    assert {"ZCL_DEMO_GREETER", "ZCL_DEMO_LARGE"} <= {hit.name for hit in hits}
    greeter = next(hit for hit in hits if hit.name == "ZCL_DEMO_GREETER")
    assert greeter.uri == GREETER and greeter.type == "CLAS/OC"
    assert greeter.package == "$ZDEMO"


async def test_an_owners_lock_that_died_is_lock_required(
    service: SourceService, emulator: Emulator
) -> None:
    """A write without lockHandle uses the lock its owner took; when that lock's session died
    the write refuses (it must not quietly retry with the dead handle)."""
    read = await service.get_source_v2(REPORT)
    await service.lock(REPORT, owner="editor")
    emulator.expire_contexts()
    with pytest.raises(LockRequired):
        await service.set_source_v2(
            REPORT, token=read.token, start_line=1, end_line=0, content="x", owner="editor"
        )
    assert service.locks_of("editor") == {}
    assert emulator.source(REPORT_SOURCE) == read.content


# --- parameters that change what is read or written ---------------------------------------


async def test_version_selects_the_active_or_inactive_source(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    written = await service.set_source_v2(
        REPORT, token=read.token, start_line=1, end_line=0, content="* not active yet"
    )
    inactive = await service.get_source_v2(REPORT, version="inactive", fresh=True)
    active = await service.get_source_v2(REPORT, version="active", fresh=True)
    assert inactive.content.startswith("* not active yet") and inactive.token == written.token
    assert active.content == emulator.source(REPORT_SOURCE, version="active")
    assert not active.content.startswith("* not active yet") and active.token != inactive.token


async def test_an_include_addressed_by_its_source_url(
    service: SourceService, emulator: Emulator
) -> None:
    include_url = f"{GREETER}/includes/definitions"
    by_url = await service.get_source_v2(object_source_url=include_url)
    by_type = await service.get_source_v2(GREETER, include_type="definitions")
    assert (by_url.content, by_url.token, by_url.include_type) == (
        by_type.content,
        by_type.token,
        "definitions",
    )
    written = await service.set_source_v2(
        object_source_url=include_url,
        token=by_url.token,
        start_line=1,
        end_line=0,
        content="* local definitions",
    )
    assert written.updated
    assert (emulator.source(include_url) or "").startswith("* local definitions\n")
    assert (
        emulator.source(f"{GREETER}/source/main")
        == (await service.get_source_v2(GREETER, fresh=True)).content
    ), "the main source is untouched"


async def test_grep_in_a_class_include_and_case_insensitive(service: SourceService) -> None:
    lines = (await service.get_source_v2(GREETER, include_type="definitions")).content.split("\n")
    any_case = await service.grep(
        GREETER, pattern="class", include_type="definitions", case_insensitive=True
    )
    exact = await service.grep(GREETER, pattern="CLASS", include_type="definitions")
    assert exact.match_count > 0 and any_case.include_type == "definitions"
    assert [m.line_number for m in any_case.matches] == [
        number for number, line in enumerate(lines, 1) if "class" in line.lower()
    ]
    assert [m.line_number for m in exact.matches] == [
        number for number, line in enumerate(lines, 1) if "CLASS" in line
    ]
    assert exact.match_count < any_case.match_count
    with pytest.raises(IncludeNotFound):
        await service.grep(GREETER, pattern="x", include_type="nonsense")
    ignored = await service.grep(REPORT, pattern="REPORT", include_type="definitions")
    assert ignored.match_count == 1 and ignored.include_type is None


@pytest.mark.parametrize("how", ["argument", "setting"])
async def test_switching_the_conflict_check_off_overwrites_knowingly(
    make_service: ServiceFactory, emulator: Emulator, how: str
) -> None:
    service = make_service(conflict_check=how != "setting")
    read = await service.get_source_v2(REPORT)
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, read.content + "\n* theirs")
    result = await service.set_source_v2(
        REPORT,
        token=read.token,
        start_line=1,
        end_line=1,
        content="* mine",
        skip_conflict_check=how == "argument",
    )
    stored = _stored(emulator, REPORT_SOURCE)
    assert result.updated and stored.startswith("* mine\n") and stored.endswith("* theirs")
    if how == "setting":
        again = await service.get_source_v2(REPORT, fresh=True)
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, again.content + "\n* theirs again")
        first = again.content.split("\n")[0]
        replaced = await service.replace_in_source(
            REPORT, old_string=first, new_string="* mine again", token=again.token
        )
        assert replaced.updated and _stored(emulator, REPORT_SOURCE).endswith("* theirs again")


async def test_the_transport_request_goes_with_the_put(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    emulator.reset_request_log()
    await service.set_source_v2(
        REPORT,
        token=read.token,
        start_line=1,
        end_line=0,
        content="* transported",
        transport="A4HK900001",
    )
    puts = [entry for entry in emulator.request_log if entry.method == "PUT"]
    assert len(puts) == 1 and "corrNr=A4HK900001" in puts[0].query


async def test_closing_the_service_releases_its_locks(
    make_service: ServiceFactory, emulator: Emulator
) -> None:
    service = make_service()
    await service.lock(REPORT, owner="agent-1")
    await service.lock(GREETER, owner="editor")
    assert {entry.object_uri for entry in emulator.locks()} == {REPORT, GREETER}
    await service.close()
    assert emulator.locks() == [], "released before the client closed"


async def test_network_errors_are_retried_after_one_two_four_seconds(
    emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    pauses: list[float] = []

    async def recording_sleep(seconds: float) -> None:
        pauses.append(seconds)

    service = SourceService(make_client(emulator), system="A4H", sleep=recording_sleep)
    try:
        read = await service.get_source_v2(REPORT)

        async def unreachable(*args: object, **kwargs: object) -> object:
            raise AdtTransportError("connection refused")

        monkeypatch.setattr(service.client, "write_source", unreachable)
        with pytest.raises(NetworkError) as caught:
            await service.set_source_v2(
                REPORT, token=read.token, start_line=1, end_line=0, content="x"
            )
        assert caught.value.code == 4017 and caught.value.to_dict()["retry"] is True
        assert pauses == [1.0, 2.0, 4.0]
        assert emulator.source(REPORT_SOURCE) == read.content and emulator.locks() == []
    finally:
        await service.close()
        await service.client.close()


async def test_a_write_whose_answer_was_lost_leaves_no_stale_text_to_read(
    emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The system applied the write and every answer was lost: the next read shows what the
    system has, not the cached text the write replaced (found by the soak)."""
    service = SourceService(make_client(emulator), system="A4H", sleep=no_sleep)
    try:
        read = await service.get_source_v2(REPORT)
        write_source = service.client.write_source

        async def applied_then_lost(*args: Any, **kwargs: Any) -> Any:
            await write_source(*args, **kwargs)
            raise AdtTransportError("connection reset", system_down=True)

        monkeypatch.setattr(service.client, "write_source", applied_then_lost)
        with pytest.raises(NetworkError):
            await service.set_source_v2(
                REPORT, token=read.token, start_line=1, end_line=0, content="* applied"
            )
        again = await service.get_source_v2(REPORT)
        assert again.content == emulator.source(REPORT_SOURCE)
        assert again.content.startswith("* applied") and again.token != read.token
        assert emulator.locks() == []
    finally:
        await service.close()
        await service.client.close()


async def test_a_write_to_a_system_that_is_down_is_not_retried_as_a_whole(
    emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client already waited through its retries (or the connection was refused): the
    write cycle does not wait through its own on top (a save took 29 s, issue 18)."""
    pauses: list[float] = []

    async def recording_sleep(seconds: float) -> None:
        pauses.append(seconds)

    service = SourceService(make_client(emulator), system="A4H", sleep=recording_sleep)
    try:
        read = await service.get_source_v2(REPORT)

        async def down(*args: object, **kwargs: object) -> object:
            raise AdtTransportError("connection refused", system_down=True)

        monkeypatch.setattr(service.client, "write_source", down)
        with pytest.raises(NetworkError, match="after 1 attempts"):
            await service.set_source_v2(
                REPORT, token=read.token, start_line=1, end_line=0, content="x"
            )
        assert pauses == []
        assert emulator.source(REPORT_SOURCE) == read.content and emulator.locks() == []
    finally:
        await service.close()
        await service.client.close()


async def test_a_wrong_password_is_auth_failed(emulator: Emulator) -> None:
    profile = dataclasses.replace(make_client(emulator).profile, password=Secret("wrong"))
    client = AdtClient(profile, transport=httpx.ASGITransport(app=emulator.app), sleep=no_sleep)
    service = SourceService(client, system="A4H", sleep=no_sleep)
    try:
        with pytest.raises(AuthFailed) as caught:
            await service.get_source_v2(REPORT)
        assert caught.value.code == 4016 and "check the user and password" in caught.value.message
        assert emulator.request_counts()[f"GET {REPORT_SOURCE}"] == 1, "not retried"
    finally:
        await client.close()


async def test_over_long_lines_are_refused_and_nothing_is_written(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    emulator.reset_request_log()
    with pytest.raises(InvalidArgument) as caught:
        await service.set_source_v2(
            REPORT, token=read.token, start_line=3, end_line=2, content="* ok\n" + "x" * 256
        )
    assert caught.value.details == {"line": 4, "length": 256, "limit": 255}
    assert "line 4" in caught.value.message and emulator.request_log == []
    with pytest.raises(InvalidArgument) as caught:
        await service.replace_in_source(
            REPORT,
            old_string="REPORT zdemo_report.",
            new_string='REPORT zdemo_report. " ' + "x" * 250,
        )
    assert caught.value.details["line"] == 6
    assert emulator.source(REPORT_SOURCE) == read.content and emulator.locks() == []


async def test_a_write_moves_the_source_once_each_way(
    service: SourceService, emulator: Emulator
) -> None:
    """Lock, one verifying GET, the PUT, unlock: the new token comes from the PUT's stamp and
    the text sent, and it is the token the server's own text gives."""
    read = await service.get_source_v2(LARGE, start_line=1, end_line=1)
    emulator.reset_request_log()
    result = await service.set_source_v2(
        LARGE, token=read.token, start_line=5, end_line=5, content="* one line changed"
    )
    calls = [(e.method, e.path) for e in emulator.request_log if "discovery" not in e.path]
    assert calls == [  # (the stateful session's first change also fetched a CSRF token)
        ("POST", LARGE),
        ("GET", f"{LARGE}/source/main"),
        ("PUT", f"{LARGE}/source/main"),
        ("POST", LARGE),
    ]
    assert result.token == (await service.get_source_v2(LARGE, fresh=True)).token


async def test_a_text_the_server_normalises_is_read_back(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    emulator.reset_request_log()
    result = await service.set_source_v2(
        REPORT, token=read.token, start_line=1, end_line=0, content="* trailing blanks   "
    )
    gets = [e for e in emulator.request_log if e.method == "GET" and "source" in e.path]
    assert len(gets) == 2, "the server trims trailing blanks: its text is read back"
    assert result.token == (await service.get_source_v2(REPORT, fresh=True)).token
    assert _stored(emulator, REPORT_SOURCE).startswith("* trailing blanks\n")
