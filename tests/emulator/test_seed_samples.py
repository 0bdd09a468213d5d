"""The built-in sample set and abapGit seeding."""

from __future__ import annotations

from pathlib import Path

import pytest

from adt.emulator import Emulator, samples_dir
from adt.emulator.checker import check
from adt.emulator.text import MAX_LINE_LENGTH

from .helpers import ADT, FMODULE, GREETER, GROUP, INCLUDE, INTERFACE, LARGE, REPORT, write_abapgit


def test_sample_objects_exist_under_fixed_names(emulator: Emulator) -> None:
    objects = set(emulator.objects())
    for uri in (GREETER, INTERFACE, REPORT, INCLUDE, GROUP, FMODULE, LARGE):
        assert uri in objects
    greeter = emulator.state.find(GREETER)
    assert greeter is not None
    assert list(greeter.parts) == [
        "main",
        "definitions",
        "implementations",
        "macros",
        "testclasses",
    ]
    assert greeter.package == "$ZDEMO"


def test_large_class_has_ten_thousand_lines(emulator: Emulator) -> None:
    text = emulator.source(f"{LARGE}/source/main")
    assert text is not None
    assert len(text.split("\n")) == 10_000


def test_every_sample_passes_the_checker_and_the_line_limit(emulator: Emulator) -> None:
    for uri in emulator.objects():
        obj = emulator.state.find(uri)
        assert obj is not None
        for part in obj.parts:
            text = emulator.source(obj.source_uri(part))
            assert text is not None
            assert check(text) == [], (uri, part, check(text))
            assert max(len(line) for line in text.split("\n")) <= MAX_LINE_LENGTH


def test_descriptions_come_from_the_xml_files(emulator: Emulator) -> None:
    expected = {
        REPORT: "Demo report: greets and adds",
        INCLUDE: "Demo include: output helpers",
        INTERFACE: "Something that greets (demo interface)",
        GROUP: "Demo function group",
        FMODULE: "Add two integers",
    }
    for uri, description in expected.items():
        obj = emulator.state.find(uri)
        assert obj is not None
        assert obj.description == description


def test_transportable_sample_package(emulator: Emulator) -> None:
    obj = emulator.state.find(f"{ADT}/programs/programs/zdemo_tr_report")
    assert obj is not None
    assert obj.package == "ZDEMO_TR"


def test_abapgit_folder_rules(tmp_path: Path) -> None:
    write_abapgit(
        tmp_path,
        {
            "zroot.prog.abap": "REPORT zroot.\n",
            "ztop/package.devc.xml": "<abapGit><asx:abap xmlns:asx='http://www.sap.com/abapxml'>"
            "<asx:values><DEVC><CTEXT>Top package</CTEXT></DEVC></asx:values></asx:abap></abapGit>",
            "ztop/zcl_a.clas.abap": "CLASS zcl_a DEFINITION PUBLIC.\nENDCLASS.\n"
            "CLASS zcl_a IMPLEMENTATION.\nENDCLASS.\n",
            "ztop/zcl_a.clas.testclasses.abap": "* tests\n",
            "ztop/zcl_a.clas.xml": (
                "<abapGit><VSEOCLASS><DESCRIPT>Class A</DESCRIPT></VSEOCLASS></abapGit>"
            ),
            "ztop/sub/zincl.prog.abap": "* include\n",
            "ztop/sub/zincl.prog.xml": "<abapGit><PROGDIR><SUBC>I</SUBC></PROGDIR></abapGit>",
            "ztop/zfg.fugr.xml": "<abapGit><AREAT>Group</AREAT><FUNCTIONS><item>"
            "<FUNCNAME>Z_FM</FUNCNAME><SHORT_TEXT>An FM</SHORT_TEXT></item></FUNCTIONS></abapGit>",
            "ztop/zfg.fugr.saplzfg.abap": "INCLUDE lzfgtop.\n",
            "ztop/zfg.fugr.lzfgtop.abap": "FUNCTION-POOL zfg.\n",
            "ztop/zfg.fugr.z_fm.abap": "FUNCTION z_fm.\nENDFUNCTION.\n",
        },
    )
    emulator = Emulator(seed_dirs=[tmp_path])
    state = emulator.state
    root = state.find(f"{ADT}/programs/programs/zroot")
    cls = state.find(f"{ADT}/oo/classes/zcl_a")
    incl = state.find(f"{ADT}/programs/includes/zincl")
    fm = state.find(f"{ADT}/functions/groups/zfg/fmodules/z_fm")
    fg_include = state.find(f"{ADT}/functions/groups/zfg/includes/lzfgtop")
    assert root is not None and root.package == "$TMP"
    assert cls is not None and (cls.package, cls.description) == ("ZTOP", "Class A")
    assert list(cls.parts) == ["main", "testclasses"]
    assert incl is not None and incl.package == "ZTOP"
    assert fm is not None and (fm.description, fm.group) == ("An FM", "ZFG")
    assert fg_include is not None
    assert emulator.source(f"{ADT}/functions/groups/zfg/source/main") == "INCLUDE lzfgtop."
    assert state.packages["ZTOP"].description == "Top package"
    assert LARGE not in emulator.objects()  # custom seeds do not get the generated class


def test_samples_plus_own_folder(tmp_path: Path) -> None:
    write_abapgit(tmp_path, {"zmine.prog.abap": "REPORT zmine.\n"})
    emulator = Emulator(seed_dirs=[samples_dir(), tmp_path])
    assert {LARGE, GREETER, f"{ADT}/programs/programs/zmine"} <= set(emulator.objects())


def test_missing_seed_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Emulator(seed_dirs=[tmp_path / "nope"])
