"""The emulator in its own process for a benchmark (``abap-adt emulator`` on a free port),
stopped with the benchmark however it ends: a SIGTERM to the benchmark (a timeout, a
``kill``) runs the cleanup too, where it would leave the emulator serving on."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from adt import ConnectionProfile, Secret


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def emulator_process(*seeds: Path) -> Iterator[tuple[str, int]]:
    """The emulator seeded with ``seeds`` (none: its samples); (base URL, pid)."""
    command = [sys.executable, "-m", "adt.app", "emulator", "--port", "0"]
    for seed in seeds:
        command += ["--seed", str(seed)]
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://[\d.]+:\d+", line)
        if match is None:
            raise RuntimeError(f"the emulator did not start: {line!r}")
        yield match.group(0), process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)
        signal.signal(signal.SIGTERM, previous)


def developer_profile(url: str) -> ConnectionProfile:
    """The emulator's developer at ``url``, with a read timeout long enough that a slow
    answer is measured rather than cut."""
    return ConnectionProfile(
        base_url=url,
        user="DEVELOPER",
        password=Secret("developer"),
        name="A4H",
        read_timeout=600.0,
    )
