"""BibTeX in arXiv's export style and CSL-JSON; matching bibliography entries to an index's list.

Expected BibTeX: the layout of arXiv's "Export BibTeX Citation" (``@misc{vaswani2017attentionneed,``
title, author, year, eprint, archivePrefix, primaryClass, url) and TeX's own accent commands
(The TeXbook, ch. 9: ``\\'e``, ``\\"o``, ``\\v{s}``, ``\\c{c}``, ``\\H{o}``, ``\\"{\\i}``).
Expected matches: the paperIds in the recorded Semantic Scholar page (shared/fixtures/scholar).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from papers_mcp.bibliography import fields
from papers_mcp.bibtex import bibtex_entry, bibtex_key, csl_json, latex_escape
from papers_mcp.graph import _match
from papers_mcp.metadata import PaperMeta
from papers_mcp.scholar_api import _s2_paper

ATTENTION = PaperMeta(
    id="1706.03762v5",
    title="Attention Is All You Need",
    authors=(
        "Ashish Vaswani",
        "Noam Shazeer",
        "Niki Parmar",
        "Jakob Uszkoreit",
        "Llion Jones",
        "Aidan N. Gomez",
        "Lukasz Kaiser",
        "Illia Polosukhin",
    ),
    abstract="The dominant sequence transduction models ...",
    published="2017-06-12T17:57:34+00:00",
    updated="2017-12-06T03:30:32+00:00",
    primary_category="cs.CL",
    categories=("cs.CL", "cs.LG"),
)


def test_bibtex_has_arxivs_layout() -> None:
    assert bibtex_entry(ATTENTION) == (
        "@misc{vaswani2017attentionneed,\n"
        "      title={Attention Is All You Need},\n"
        "      author={Ashish Vaswani and Noam Shazeer and Niki Parmar and Jakob Uszkoreit and Llion Jones and "
        "Aidan N. Gomez and Lukasz Kaiser and Illia Polosukhin},\n"
        "      year={2017},\n"
        "      eprint={1706.03762},\n"
        "      archivePrefix={arXiv},\n"
        "      primaryClass={cs.CL},\n"
        "      url={https://arxiv.org/abs/1706.03762},\n"
        "}"
    )


def test_journal_and_doi_join_when_known_and_old_ids_keep_their_slash() -> None:
    meta = PaperMeta(
        id="quant-ph/9508027v2",
        title="Polynomial-Time Algorithms for Prime Factorization",
        authors=("Peter W. Shor",),
        abstract="",
        published="1995-08-30T00:00:00+00:00",
        updated="1996-01-25T00:00:00+00:00",
        primary_category="quant-ph",
        journal_ref="SIAM J.Sci.Statist.Comput. 26 (1997) 1484",
        doi="10.1137/S0097539795293172",
    )
    entry = bibtex_entry(meta)
    assert entry.startswith("@misc{shor1996polynomialtime,")
    assert "      eprint={quant-ph/9508027},\n" in entry
    assert "      journal={SIAM J.Sci.Statist.Comput. 26 (1997) 1484},\n" in entry
    assert "      doi={10.1137/S0097539795293172},\n" in entry


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("Zlatko Tešanović", r"Zlatko Te{\v{s}}anovi{\'c}"),
        ("Çağlar Gülçehre", r"{\c{C}}a{\u{g}}lar G{\"u}l{\c{c}}ehre"),
        ("Paul Erdős", r"Paul Erd{\H{o}}s"),
        ("naïve", r"na{\"{\i}}ve"),
        ("Łukasz Kaiser", r"{\L}ukasz Kaiser"),
        ("{BERT}: 50% of R_1 & $x$ #1", r"\{BERT\}: 50\% of R\_1 \& \$x\$ \#1"),
    ],
)
def test_accents_and_specials_are_escaped_for_bibtex(raw: str, escaped: str) -> None:
    assert latex_escape(raw) == escaped


def test_the_key_is_plain_ascii_even_for_accented_names() -> None:
    meta = PaperMeta(
        id="1111.2011v2",
        title="The Bethe lattice",
        authors=("Jérôme Dubois",),
        abstract="",
        published="2011-11-08T00:00:00+00:00",
        updated="2012-03-01T00:00:00+00:00",
        primary_category="cond-mat",
    )
    assert bibtex_key(meta) == "dubois2012bethelattice"


def test_csl_json_names_dates_and_identifiers() -> None:
    item = csl_json(ATTENTION)
    assert item["id"] == "arxiv:1706.03762" and item["type"] == "article"
    assert item["author"][5] == {"family": "Gomez", "given": "Aidan N."}
    assert item["issued"] == {"date-parts": [[2017, 6, 12]]}
    assert item["DOI"] == "10.48550/arXiv.1706.03762"
    assert item["URL"] == "https://arxiv.org/abs/1706.03762v5" and item["version"] == "5"


def test_entries_match_an_index_list_by_arxiv_id_doi_or_title() -> None:
    fixtures = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "scholar" / "semanticscholar"
    path = fixtures / "references_CorpusID-1033682_contexts-intents_offset0_limit100.json"
    if not path.is_file():
        pytest.skip("shared/fixtures/scholar is not on this machine")
    listed = [_s2_paper(item["citedPaper"]) for item in json.loads(path.read_bytes())["data"]]
    entries = [
        fields(
            "1",
            "J. Gallego-Posada, J. Ramirez, and A. Erraqabi. Controlled sparsity via constrained "
            "optimization. In NeurIPS, 2022. arXiv:2208.04425.",
        ),
        fields(
            "2",
            "A. Orvieto, S. Lacoste-Julien, and N. Loizou. Dynamics of SGD with stochastic Polyak "
            "stepsizes: truly adaptive variants and convergence to exact solution. In NeurIPS, 2022.",
        ),
        fields("3", "M. El Halabi et al. Data-efficient structured pruning. doi:10.48550/arXiv.2203.04940"),
        fields("4", "A. Nobody. A paper this list does not hold. J. Nowhere 1, 1 (1999)."),
    ]
    matched = _match(entries, listed, "Semantic Scholar")
    assert {i: p.index_id for i, (p, _) in matched.items()} == {
        0: "598b65b8f514304abd34b7e14296559388b20f25",
        1: "6f9d72dd797a67d0a477502a509ab29d215761ae",
        2: "56559a76e9804bfe907297299f8aee88a8a14d64",
    }
