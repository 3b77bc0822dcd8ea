"""The table rule (``tables``), numbers in math (``math_numbers``) and the failed-conversion rule.

Expected values: issue 18's statement of the rules ("EN.QA F1 Score", ``34.26``, ``**88.65**``,
``16K``) and the cells of real tables read from the oxide pages (2409.01666v1 Table 1,
2604.19899v1 Table 1); nothing here is produced by the code under test.
"""

from __future__ import annotations

import pytest
from papers_mcp.html_quality import HtmlSignals, failed_conversion
from papers_mcp.latexml import parse_page
from papers_mcp.math_numbers import plain_number, script
from papers_mcp.tables import Cell, Row, markdown_table
from support.latexml_pages import latexml_page
from support.required import missing
from support.servers import fixtures_dir


def row(*cells: str | Cell, rule: bool = False, head: bool = False) -> Row:
    return Row(tuple(c if isinstance(c, Cell) else Cell(c) for c in cells), head=head, rule_above=rule)


def test_a_spanning_header_is_flattened_and_group_rows_stay_rows() -> None:
    """2409.01666v1 Table 1, as its cells stand on the page (a rule under each header row)."""
    rows = [
        row(Cell("Method", rowspan=2), Cell("EN.QA", colspan=2), Cell("EN.MC", colspan=2), rule=True),
        row("F1 Score", "Tokens", "Acc.", "Tokens", rule=True),
        row(Cell("Long-context LLM w/o RAG", colspan=5), rule=True),
        row("Llama3.1-70B", "34.26", "117K", "71.62", "117K", rule=True),
    ]
    assert markdown_table(rows).splitlines() == [
        "| Method | EN.QA F1 Score | EN.QA Tokens | EN.MC Acc. | EN.MC Tokens |",
        "| --- | --- | --- | --- | --- |",
        "| Long-context LLM w/o RAG |  |  |  |  |",
        "| Llama3.1-70B | 34.26 | 117K | 71.62 | 117K |",
    ]


def test_row_spanning_labels_repeat_and_a_units_row_joins_the_header() -> None:
    rows = [
        row("ID", "R.A.", "G", rule=True),
        row("", "(J2000.0)", "(mag)"),
        row(Cell("HVS01", rowspan=2), "09:34:09.21", "15.9", rule=True),
        row("13:43:14.20", "17.2"),
    ]
    assert markdown_table(rows).splitlines() == [
        "| ID | R.A. (J2000.0) | G (mag) |",
        "| --- | --- | --- |",
        "| HVS01 | 09:34:09.21 | 15.9 |",
        "| HVS01 | 13:43:14.20 | 17.2 |",
    ]


def test_values_under_a_spanning_header_are_data_not_sub_headers() -> None:
    rows = [row("Model", Cell("Score", colspan=2)), row("A", "1.0", "2.0"), row("B", "3.0", "4.0")]
    lines = markdown_table(rows).splitlines()
    assert lines[0] == "| Model | Score | Score |"  # a spanning header names every column it covers
    assert lines[2:] == ["| A | 1.0 | 2.0 |", "| B | 3.0 | 4.0 |"]


def test_a_pipe_in_a_cell_is_escaped_and_an_empty_table_is_nothing() -> None:
    assert markdown_table([row("a|b", "c"), row("1", "2")]).splitlines()[0] == "| a\\|b | c |"
    assert markdown_table([row("", "")]) == ""


@pytest.mark.parametrize(
    ("tex", "text"),
    [
        ("34.26", "34.26"),
        ("\\mathbf{88.65}", "**88.65**"),
        ("16", "16"),
        ("50\\%", "50%"),
        ("{0}", "0"),
        ("-0.911", "-0.911"),
        ("1{,}000", "1,000"),
        ("5\\,\\mathrm{ms}", "5 ms"),
        ("{\\bf 12.1}", "**12.1**"),
        ("\\displaystyle 3", "3"),
        # A list of values split over formulas (2401.00596v3: "=7.7,\\,\\," "19.6,\\,\\," ... "200\\,").
        ("19.6,\\,\\,", "19.6, "),
        ("27,", "27,"),
        ("\\mathbf{0.5};", "**0.5**;"),
    ],
)
def test_math_that_is_only_a_number_is_the_number(tex: str, text: str) -> None:
    assert plain_number(tex) == text


@pytest.mark.parametrize(
    "tex", ["1+1", "2^{17}", "=0", "x", "\\mathbf{x}", "10^{12}", "34.2\\pm 0.3", "128m", "x,", ","]
)
def test_other_math_stays_math(tex: str) -> None:
    assert plain_number(tex) is None


def test_a_page_without_title_sections_or_sound_paragraphs_is_a_failed_conversion() -> None:
    failed = HtmlSignals(0, 0, 0, 2, 1, 1, 0, 2, titled=False)  # 2608.30667v1 as its MANIFEST row reads
    assert failed_conversion(failed)
    assert failed_conversion(HtmlSignals(0, 0, 0, 2, 1, 1, 0, 2, titled=True)) is None
    assert failed_conversion(HtmlSignals(9, 0, 0, 0, 40, 0, 0, 3000, titled=False)) is None  # 2607.24767v1


def test_touching_formulas_in_a_table_header_are_one_formula() -> None:
    """Issue 18: a header with math in its unit came out as ``$M_{\\mathrm{vir}}/${10}^{12}...$$``."""
    page = latexml_page(
        '<section class="ltx_section"><h2 class="ltx_title">1 Results</h2><table class="ltx_tabular">'
        '<tr class="ltx_tr"><td class="ltx_td">Halo</td><td class="ltx_td">'
        '<math alttext="M_{\\mathrm{vir}}/" display="inline"></math>'
        '<math alttext="{10}^{12}M_{\\odot}" display="inline"></math></td></tr>'
        '<tr class="ltx_tr"><td class="ltx_td">A</td><td class="ltx_td">'
        '<math alttext="1.5" display="inline"></math></td></tr></table></section>'
    )
    body = parse_page(page, "html").text.body
    assert "| Halo | $M_{\\mathrm{vir}}/{10}^{12}M_{\\odot}$ |" in body
    assert "| A | 1.5 |" in body


def test_an_equation_group_of_rows_in_one_table_is_one_display_line_per_row() -> None:
    """Issue 18: oxide writes a multi-line equation group as ONE table whose rows are tr.ltx_equation."""
    cell = (
        '<td class="ltx_td ltx_eqn_cell"><math alttext="\\displaystyle {tex}" display="inline"></math></td>'
    )
    rows = "".join(
        f'<tr class="ltx_equation ltx_eqn_row">{cell.format(tex=lhs)}{cell.format(tex=rhs)}'
        f'<td class="ltx_eqn_cell ltx_eqn_eqno"><span class="ltx_tag">({n})</span></td></tr>'
        for n, (lhs, rhs) in enumerate([("R=", "\\lambda_{1}a"), ("", "+\\lambda_{2}b")], 1)
    )
    page = latexml_page(
        '<section class="ltx_section"><h2 class="ltx_title">1 Method</h2><div class="ltx_para">'
        f'<table class="ltx_equationgroup ltx_eqn_align ltx_eqn_table"><tbody>{rows}</tbody></table>'
        "</div></section>"
    )
    body = parse_page(page, "html").text.body
    assert "$$R= \\lambda_{1}a$$ (1)\n$$+\\lambda_{2}b$$ (2)" in body


def test_a_footnote_waits_for_the_end_of_its_paragraph() -> None:
    """Synthetic, in the shape of 2401.00596v3: a sentence with a footnote continues after a display
    equation ("…two exponential functions,[^4] $$…$$ where $x$…"); the note follows the paragraph."""
    page = latexml_page(
        '<section class="ltx_section"><h2 class="ltx_title">1 Method</h2><div class="ltx_para">'
        '<p class="ltx_p">The average of two functions,<span class="ltx_note ltx_role_footnote">'
        '<sup class="ltx_note_mark">4</sup><span class="ltx_note_outer"><span class="ltx_note_content">'
        '<sup class="ltx_note_mark">4</sup>See Sec. 3.</span></span></span></p>'
        '<table class="ltx_equation ltx_eqn_table"><tbody><tr class="ltx_equation ltx_eqn_row">'
        '<td class="ltx_td ltx_eqn_cell"><math alttext="f(x)=e^{-x}" display="block"></math></td>'
        "</tr></tbody></table>"
        '<p class="ltx_p">where <math alttext="x" display="inline"></math> is the rapidity.</p>'
        "</div></section>"
    )
    body = parse_page(page, "html").text.body
    assert body.index("functions,[^") < body.index("$$f(x)=e^{-x}$$") < body.index("where $x$")
    assert body.index("where $x$") < body.index("]: See Sec. 3.")


@pytest.mark.parametrize(
    ("text", "kind", "written"),
    [
        ("3", "sup", "³"),  # fm<sup>3</sup> (2401.00596v3)
        ("-1", "sup", "⁻¹"),  # km s<sup>-1</sup> (2507.00150v1)
        ("−3", "sup", "⁻³"),
        ("2", "sub", "₂"),
        ("n", "sup", "ⁿ"),
        ("st", "sup", "st"),  # no script form for every character: unchanged
        ("1,3*", "sup", "1,3*"),
        ("∘", "sup", "∘"),
    ],
)
def test_script_digits_keep_their_meaning(text: str, kind: str, written: str) -> None:
    assert script(text, kind) == written


def test_a_superscript_unit_power_on_a_real_page_is_a_power() -> None:
    """2507.00150v1 writes ``km s<sup>-1</sup>`` 24 times; read flat it was "km s-1"."""
    arxiv = fixtures_dir()
    if arxiv is None:
        missing("shared/fixtures is missing")
        return
    page = arxiv.parent / "arxiv-html" / "oxide" / "2507.00150v1.html"
    body = parse_page(page.read_bytes(), "html").text.body
    assert body.count("km s⁻¹") >= 20 and "km s-1" not in body


def test_latexml_section_signs_are_signs() -> None:
    """Synthetic: LaTeXML writes "§" as math with alttext ``\\lx@sectionsign`` (2608.29808v1: "(§III)")."""
    page = latexml_page(
        '<div class="ltx_para"><p class="ltx_p">As shown in (<math alttext="\\lx@sectionsign" '
        'display="inline"><mi>§</mi></math>III) and <math alttext="\\lx@sectionsign 2.1" display="inline">'
        "<mi>§</mi><mn>2.1</mn></math>.</p></div>"
    )
    body = parse_page(page, "html").text.body
    assert "(§III)" in body and "lx@" not in body
