"""The sources a system generates for a newly created object (before anyone edits it).

The class frame is the one SAP writes (``CLASS … DEFINITION`` / ``PUBLIC`` / ``CREATE PUBLIC .``,
three empty sections, three blank lines before the implementation, trial capture
``read-class-source-text``); the local-include comments, the report and include headers, the
function-pool frame and the function-module interface comment follow what ADT generates on
an A4H system. Every text passes the emulator's own checker.
"""

from __future__ import annotations

_RULE = "*&---------------------------------------------------------------------*"
_FM_RULE = '*"----------------------------------------------------------------------'

CLASS_LOCALS = {
    "definitions": (
        '*"* use this source file for any type of declarations (class\n'
        '*"* definitions, interfaces or type declarations) you need for\n'
        '*"* components in the private section'
    ),
    "implementations": (
        '*"* use this source file for the definition and implementation of\n'
        '*"* local helper classes, interface definitions and type\n'
        '*"* declarations'
    ),
    "macros": (
        '*"* use this source file for any macro definitions you need\n'
        '*"* in the implementation part of the class'
    ),
}
TEST_CLASSES = '*"* use this source file for your ABAP unit test classes'
#: What a class's local include holds when it is created on its own (56 bytes for the test
#: classes, as a public report of a real system's answer says).
LOCAL_INCLUDE_FRAMES = {**CLASS_LOCALS, "testclasses": TEST_CLASSES}


def class_source(name: str, *, final: bool, superclass: str | None) -> str:
    """The frame of a new global class (no newline after the last line, as SAP sends it)."""
    lower = name.lower()
    header = [f"CLASS {lower} DEFINITION", "  PUBLIC"]
    if superclass:
        header.append(f"  INHERITING FROM {superclass.lower()}")
    if final:
        header.append("  FINAL")
    header.append("  CREATE PUBLIC .")
    body = ["", "  PUBLIC SECTION.", "  PROTECTED SECTION.", "  PRIVATE SECTION.", "ENDCLASS."]
    tail = ["", "", "", f"CLASS {lower} IMPLEMENTATION.", "ENDCLASS."]
    return "\n".join(header + body + tail)


def interface_source(name: str) -> str:
    return f"INTERFACE {name.lower()}\n  PUBLIC .\nENDINTERFACE."


def program_source(name: str) -> str:
    lower = name.lower()
    return f"{_RULE}\n*& Report {lower}\n{_RULE}\n*&\n{_RULE}\nREPORT {lower}."


def include_source(name: str) -> str:
    return f"{_RULE}\n*& Include {name.lower()}\n{_RULE}"


def group_main_source(group: str) -> str:
    """``SAPL<group>``: the system-defined includes of a new function group."""
    lower = group.lower()
    stars = "*" * 67
    return "\n".join(
        [
            stars,
            "*   System-defined Include-files.                                 *",
            stars,
            f"  INCLUDE l{lower}top.".ljust(45) + '" Global Declarations',
            f"  INCLUDE l{lower}uxx.".ljust(45) + '" Function Modules',
            "",
            stars,
            "*   User-defined Include-files (if necessary).                    *",
            stars,
            f"* INCLUDE l{lower}f...".ljust(45) + '" Subroutines',
            f"* INCLUDE l{lower}o...".ljust(45) + '" PBO-Modules',
            f"* INCLUDE l{lower}i...".ljust(45) + '" PAI-Modules',
            f"* INCLUDE l{lower}e...".ljust(45) + '" Events',
            f"* INCLUDE l{lower}p...".ljust(45) + '" Local class implement.',
            f"* INCLUDE l{lower}t99.".ljust(45) + '" ABAP Unit tests',
        ]
    )


def group_top_source(group: str) -> str:
    """``L<group>TOP``: the ``FUNCTION-POOL`` statement."""
    lower = group.lower()
    return "\n".join(
        [
            f"FUNCTION-POOL {lower}.".ljust(44) + '"MESSAGE-ID ..',
            "",
            f"* INCLUDE l{lower}d...".ljust(45) + '" Local class definition',
        ]
    )


def module_source(name: str) -> str:
    """A function module without parameters."""
    return "\n".join(
        [
            f"FUNCTION {name.lower()}.",
            _FM_RULE,
            '*"*"Local Interface:',
            _FM_RULE,
            "",
            "",
            "",
            "",
            "ENDFUNCTION.",
        ]
    )


def group_include_source(name: str) -> str:
    return f"{_RULE}\n*& Include {name.upper()}\n{_RULE}"
