"""The XML writer drops exactly the control characters XML 1.0 forbids, also now that a
printable value skips the search for them."""

from __future__ import annotations

from adt.emulator.xmlwriter import esc_attr, esc_text


def test_control_characters_go_and_everything_else_stays() -> None:
    assert esc_attr('a\x01b\tc\n"&<') == "ab&#9;c&#10;&quot;&amp;&lt;"
    assert esc_attr("x\xa0y\x0b\u2028z") == "x\xa0y\u2028z"  # not printable, yet allowed
    assert esc_text("plain <b> & 'q'\x1f") == "plain &lt;b&gt; &amp; 'q'"
    assert esc_attr("ZCL_ABAPGIT_X=====CP") == "ZCL_ABAPGIT_X=====CP"
