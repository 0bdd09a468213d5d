"""What a person does and sees in VS Code (code-server in Chromium), through Playwright: the
command palette, quick inputs, notifications, tabs, the editor's lines, the status bar and
the Problems panel. Every step can be photographed into the artefacts directory."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from adt.emulator import Emulator

T = TypeVar("T")
STEP_TIMEOUT = 30.0
_SHOTS = itertools.count(1)  # one numbering for every window's screenshots


class Workbench:
    def __init__(self, page: Page, shots: Path) -> None:
        self.page = page
        self.shots = shots

    # --- waiting and pictures -------------------------------------------------------------

    def until(self, condition: Callable[[], T], what: str, timeout: float = STEP_TIMEOUT) -> T:
        """Poll until ``condition`` returns something truthy; a timeout names ``what`` and
        leaves a screenshot."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                path = self.shot(f"timeout-{re.sub(r'[^a-z0-9]+', '-', what.lower())[:40]}")
                raise AssertionError(f"timed out waiting for {what} (screenshot {path})")
            time.sleep(0.2)

    def shot(self, name: str) -> Path:
        path = self.shots / f"{next(_SHOTS):02d}-{name}.png"
        self.page.screenshot(path=str(path))
        return path

    # --- commands and quick inputs --------------------------------------------------------

    def run(self, command: str) -> None:
        """Run a command from the palette by its title, e.g. ``ABAP: Open Object…``."""
        self.page.keyboard.press("F1")
        box = self.page.locator(".quick-input-widget .quick-input-box input")
        self.until(lambda: box.is_visible() and box.is_editable(), "the command palette")
        box.fill(f">{command}")
        row = self.page.locator(".quick-input-list .monaco-list-row").filter(has_text=command)
        self.until(lambda: row.count() > 0, f"the command {command} in the palette")
        box.press("Enter")
        # the palette closes (or turns into the command's own input): text typed next must
        # not go into the palette
        self.until(lambda: not self._palette_open(), f"the palette to run {command}")

    def _palette_open(self) -> bool:
        box = self.page.locator(".quick-input-widget .quick-input-box input")
        try:
            return box.is_visible() and box.input_value(timeout=1000).startswith(">")
        except PlaywrightError:
            return False  # replaced while asked

    def quick_input(self) -> Locator:
        widget = self.page.locator(".quick-input-widget")
        widget.wait_for(state="visible")
        return widget

    def quick_input_title(self) -> str:
        return self.quick_input().locator(".quick-input-title").inner_text()

    def answer(self, text: str, to: str = "") -> None:
        """Type into the open input box or quick pick and accept; with ``to``, first wait
        for the input whose title or prompt says it (one box follows another in the same
        widget, and text typed before the next one shows would go to the last one)."""
        widget = self.quick_input()
        if to:
            self.until(lambda: to in widget.inner_text(), f"the input for {to}")
        box = widget.locator(".quick-input-box input")
        box.fill(text)
        box.press("Enter")

    def pick(self, label: str) -> None:
        row = self.quick_input().locator(".monaco-list-row").filter(has_text=label).first
        row.wait_for(state="visible")
        row.click()

    # --- notifications --------------------------------------------------------------------

    def notifications(self) -> list[str]:
        toasts = self.page.locator(".notifications-toasts .notification-list-item-message")
        return [text.strip() for text in toasts.all_inner_texts()]

    def notification(self, pattern: str) -> str:
        """Wait for a notification whose text matches ``pattern``; its text."""
        regex = re.compile(pattern)
        return self.until(
            lambda: next((text for text in self.notifications() if regex.search(text)), None),
            f"a notification /{pattern}/",
        )

    def click_in_notification(self, pattern: str, button: str) -> None:
        action = self.page.locator(".monaco-button", has_text=re.compile(f"^{re.escape(button)}$"))
        item = self.page.locator(".notifications-toasts .notification-list-item").filter(
            has_text=re.compile(pattern), has=action
        )
        item.first.locator(".monaco-button", has_text=re.compile(f"^{re.escape(button)}$")).click()

    def clear_notifications(self) -> None:
        self.run("Notifications: Clear All Notifications")

    # --- editors --------------------------------------------------------------------------

    def tab_titles(self) -> list[str]:
        titles = self.page.locator(".tabs-container .tab .label-name")
        return [text.strip() for text in titles.all_inner_texts()]

    def active_tab(self) -> str:
        return self.page.locator(".tabs-container .tab.active .label-name").inner_text().strip()

    def wait_for_tab(self, title: str) -> None:
        self.until(
            lambda: self.active_tab() == title if self.tab_titles() else False, f"the tab {title}"
        )

    def open_object(self, name: str) -> None:
        """ "ABAP: Open Object…", ``name`` typed in, and its tab active."""
        self.run("ABAP: Open Object…")
        self.answer(name)
        self.wait_for_tab(name)

    def open_tab(self, title: str) -> None:
        tab = self.page.locator(".tabs-container .tab").filter(
            has=self.page.locator(".label-name", has_text=re.compile(f"^{re.escape(title)}$"))
        )
        tab.first.click()
        self.wait_for_tab(title)

    def editor_lines(self) -> list[str]:
        """The visible lines of the active editor, top to bottom (non-breaking spaces as
        blanks)."""
        lines = self.page.locator(".editor-group-container.active .view-lines .view-line")
        tops: list[tuple[float, str]] = []
        for line in lines.all():
            style = line.get_attribute("style") or ""
            match = re.search(r"top:\s*([\d.]+)px", style)
            tops.append((float(match.group(1)) if match else 0.0, line.inner_text()))
        return [text.replace("\u00a0", " ") for _, text in sorted(tops)]

    def click_editor(self) -> None:
        self.page.locator(".editor-group-container.active .view-lines").first.click()

    def type_at_top(self, text: str) -> None:
        """Put the cursor at the start of the document and type ``text`` (``\\n`` is Enter)."""
        self.click_editor()
        self.page.keyboard.press("Control+Home")
        self.page.keyboard.type(text)

    def find_in_editor(self, text: str) -> None:
        """Select ``text`` (its first match after the cursor) through the find box, as a person
        would; the cursor is at its end. Waits for the find box to have the focus (keys
        typed before that go into the document) and for the selection in the status bar."""
        self.click_editor()
        self.page.keyboard.press("Control+f")
        group = self.page.locator(".editor-group-container.active")
        box = group.locator(".find-widget.visible .monaco-findInput .input").first
        self.until(
            lambda: box.count() and box.evaluate("e => e === document.activeElement"),
            "the focus in the find box",
        )
        box.fill(text)
        box.press("Enter")
        # closed with its button (Escape leaves it open here); the focus goes to the editor
        close = group.locator(".find-widget.visible .codicon-widget-close").first
        close.dispatch_event("click")  # a real click scrolls the workbench by a few pixels
        self.until(lambda: not group.locator(".find-widget.visible").count(), "the find box closed")
        selected = re.compile(rf"\({len(text)} selected\)")
        self.until(lambda: self.status_item(selected.pattern).count(), f"{text} selected")

    def undo_until_clean(self, title: str, steps: int = 10) -> None:
        """Ctrl+Z until the tab is back at the saved text (typing, an Enter and a format are
        separate undo steps)."""
        self.click_editor()
        for _ in range(steps):
            if not self.tab_is_dirty(title):
                return
            self.page.keyboard.press("Control+z")
            time.sleep(0.3)
        assert not self.tab_is_dirty(title), f"{title} is back at its saved text"

    def tab_is_dirty(self, title: str) -> bool:
        tab = self.page.locator(".tabs-container .tab").filter(has_text=title).first
        return "dirty" in (tab.get_attribute("class") or "")

    def save(self) -> None:
        self.page.keyboard.press("Control+s")

    # --- status bar and problems ----------------------------------------------------------

    def status_items(self) -> list[str]:
        items = self.page.locator(".statusbar .statusbar-item")
        return [text.strip() for text in items.all_inner_texts() if text.strip()]

    def status_item(self, pattern: str) -> Locator:
        return self.page.locator(".statusbar .statusbar-item").filter(has_text=re.compile(pattern))

    def problems(self) -> list[str]:
        """The Problems panel's rows (the panel is opened if needed)."""
        panel = self.page.locator(".markers-panel")
        if not panel.is_visible():
            self.page.keyboard.press("Control+Shift+M")
            panel.wait_for(state="visible")
        rows = panel.locator(".monaco-list-row")
        return [text.strip() for text in rows.all_inner_texts()]


@dataclass
class Editor:
    """One code-server with the extension, its browser page and the emulator behind it."""

    workbench: Workbench
    emulator: Emulator
    state: Path  # code-server's user data directory
    url: str  # the workbench in the browser
    session: int  # code-server's process group and session: everything it started

    def language_servers(self) -> list[int]:
        """The process ids of the language servers this code-server started."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
                if os.getsid(int(entry.name)) != self.session:
                    continue
            except OSError:
                continue  # ended meanwhile
            if any(part.endswith(b"/abap-adt") for part in command) and b"lsp" in command:
                found.append(int(entry.name))
        return found

    def wait_for_activation(self, known: set[Path], timeout: float = 120.0) -> Path:
        """Wait until a window's extension host that is not among ``known`` has activated the
        extension; that host's log's path. VS Code logs ``_doActivateExtension`` *before* it
        loads the extension (3 s before on a loaded machine), so that line only names the
        host; the real signal is the extension's own "ABAP ADT is ready" in that host's
        output channel, written once the window took its commands, its file system and its
        Ctrl+T provider. Typing into the palette or Ctrl+T before that finds nothing."""
        line = "_doActivateExtension abap-adt.abap-adt"

        def activating() -> Path | None:
            for log in sorted(self.state.glob("logs/*/exthost*/remoteexthost.log")):
                if log not in known and line in log.read_text(encoding="utf-8", errors="replace"):
                    return log
            return None

        def ready(log: Path) -> bool:
            channels = log.parent.glob("output_logging_*/*ABAP ADT.log")
            return any(
                "ABAP ADT is ready" in channel.read_text(encoding="utf-8") for channel in channels
            )

        log = self.workbench.until(activating, "the extension activated", timeout)
        self.workbench.until(lambda: ready(log), "the extension ready", timeout)
        return log

    def wait_for_backup(self, text: str) -> None:
        """Wait until VS Code's hot-exit backup of an unsaved editor holds ``text`` (it writes
        one about a second after the last change, under ``User/Backups``); a reload before
        that is refused by the window ("pending backups")."""

        def backed_up() -> bool:
            for path in (self.state / "User" / "Backups").glob("*/*/*"):
                with contextlib.suppress(OSError):
                    if text in path.read_text(encoding="utf-8", errors="replace"):
                        return True
            return False

        self.workbench.until(backed_up, "the hot-exit backup of the unsaved editor")

    def extension_hosts(self) -> set[Path]:
        return set(self.state.glob("logs/*/exthost*/remoteexthost.log"))

    def output_log(self) -> str:
        """The "ABAP ADT" output channel as code-server logs it (newest window)."""
        logs = sorted(self.state.glob("logs/*/exthost*/output_logging_*/*ABAP ADT.log"))
        return logs[-1].read_text(encoding="utf-8") if logs else ""

    def workspace_settings(self, **changes: object) -> None:
        """Change the workspace's .vscode/settings.json, as a person editing it would (VS Code
        watches workspace files; the User settings file on disk is not watched as closely)."""
        path = self.state / "workspace" / ".vscode" / "settings.json"
        path.parent.mkdir(exist_ok=True)
        values = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        values.update(changes)
        path.write_text(json.dumps(values, indent=2), encoding="utf-8")
