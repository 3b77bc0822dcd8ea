"""How resolve-paper-id turns a user's query into an arXiv request, and how free text is ranked."""

from __future__ import annotations

import pytest
from mcp_shared import ErrorCode, ToolFailure
from papers_mcp.ids import ArxivId
from papers_mcp.metadata import PaperMeta
from papers_mcp.queries import plan_query, rerank


def test_an_identifier_is_an_id_lookup_not_a_text_search() -> None:
    for raw in ("1706.03762", "arXiv:1706.03762v5", "https://arxiv.org/abs/1706.03762", "hep-th/9901001"):
        plan = plan_query(raw)
        assert plan.kind == "id", raw
        assert plan.arxiv_id is not None and plan.arxiv_id.base in {"1706.03762", "hep-th/9901001"}


@pytest.mark.parametrize(
    "query",
    [
        'abs:"attention mechanism" AND submittedDate:[202301010000 TO 202312312359]',  # the seed's example
        "all:2512.16906",  # the seed's example
        "au:del_maestro ANDNOT (ti:checkerboard OR ti:Pyrochlore)",
        'ti:"quantum criticality" AND au:del_maestro',
        "cat:cs.CL AND jr:NeurIPS",
        "co:accepted OR rn:MIT-CTP",
        "id:1706.03762",
    ],
)
def test_arxiv_query_syntax_is_passed_through_unchanged(query: str) -> None:
    plan = plan_query(query)
    assert plan.kind == "raw"
    assert plan.search_query == query


def test_submitted_date_bounds_in_day_form_are_completed() -> None:
    plan = plan_query("ti:transformer AND submittedDate:[2023-01-01 TO 2023-12-31]")
    assert plan.search_query == "ti:transformer AND submittedDate:[202301010000 TO 202312312359]"


@pytest.mark.parametrize(
    "query",
    [
        "",
        "   ",
        "x" * 1001,
        'ti:"unbalanced',
        "(ti:a OR ti:b",
        "ti: AND au:x",
        "submittedDate:[2023 TO 2024]",
        "ti:x AND submittedDate:yesterday",
        "!!! ??? ...",
    ],
)
def test_bad_queries_are_rejected_before_any_request(query: str) -> None:
    with pytest.raises(ToolFailure) as info:
        plan_query(query)
    assert info.value.code is ErrorCode.VALIDATION_ERROR


def test_a_bare_term_never_searches_authors() -> None:
    """The issue's example: free text "MoE" must not hit an author called Moe."""
    plan = plan_query("MoE")
    assert plan.kind == "free"
    assert "au:" not in plan.search_query
    assert "ti:MoE" in plan.search_query and "abs:MoE" in plan.search_query


def test_an_acronym_is_never_taken_for_an_author() -> None:
    for query, acronym in (("MoE routing", "MoE"), ("BERT distillation", "BERT"), ("GAN training", "GAN")):
        assert f"au:{acronym}" not in plan_query(query).search_query, query


def test_an_author_word_counts_only_beside_topic_words() -> None:
    plan = plan_query("vaswani attention")
    assert "(au:vaswani AND (ti:attention OR abs:attention))" in plan.search_query
    # every author clause is ANDed with a title/abstract clause
    for clause in plan.search_query.split(" OR (")[1:]:
        if clause.startswith("au:"):
            assert " AND " in clause


def test_free_text_keeps_the_title_as_a_phrase() -> None:
    plan = plan_query("Attention Is All You Need")
    assert plan.search_query.startswith('ti:"Attention Is All You Need"')
    assert "(ti:Attention AND ti:Need)" in plan.search_query  # stopwords dropped from the AND clause


def _paper(pid: str, title: str, authors: tuple[str, ...] = ("A. Author",), abstract: str = "") -> PaperMeta:
    return PaperMeta(
        pid, title, authors, abstract, "2017-06-12T00:00:00+00:00", "2017-06-12T00:00:00+00:00", "cs.CL"
    )


def test_rerank_puts_the_exact_title_first() -> None:
    papers = [
        _paper("2001.00001v1", "Attention is not all you need: pure attention loses rank"),
        _paper("2001.00002v1", "Self-attention you need for speech"),
        _paper("1706.03762v5", "Attention Is All You Need"),
    ]
    ranked = rerank(papers, ["attention", "is", "all", "you", "need"])
    assert ranked[0].id == "1706.03762v5"


def test_rerank_does_not_reward_an_author_name_alone() -> None:
    moe_author = _paper("2001.00003v1", "Graph colouring bounds", authors=("Kim Moe",))
    moe_topic = _paper("2001.00004v1", "Sparse MoE layers", abstract="mixture of experts")
    ranked = rerank([moe_author, moe_topic], ["MoE"])
    assert [p.id for p in ranked] == ["2001.00004v1", "2001.00003v1"]


def test_rerank_keeps_arxiv_order_on_ties() -> None:
    a, b = _paper("2001.00005v1", "Unrelated one"), _paper("2001.00006v1", "Unrelated two")
    assert rerank([a, b], ["zebra"]) == [a, b]
    assert isinstance(a.arxiv_id, ArxivId)
