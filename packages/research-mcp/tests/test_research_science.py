"""research-mcp on papers: results tables and prose results as facts, scientific entity types, relations, conflicts.

The texts are short passages of real papers as papers-mcp renders them (arXiv 2409.01666's Table 1 through
the HTML route today and in issue 18's form; 1706.03762's Table 2 through the PDF route), and sentences
of 1706.03762. Expected values are read by eye from the papers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from research_mcp.conflicts import FactInput, Tolerance, detect_conflicts
from research_mcp.entities import extract_entities, normalise_entity_types, prepare_text
from research_mcp.facts import extract_from_doc
from research_mcp.markup import mask_markup
from research_mcp.science.names import canonical_metric
from research_mcp.science.tables import parse_tables

if TYPE_CHECKING:
    from spacy.language import Language

CAPTION = (
    "Table 1: Comparisons among the long-context LLM without RAG, SELF-ROUTE mechanism Li et al. (2024) "
    "and the proposed order-preserve (OP) RAG.\n\n"
)
# papers-mcp's HTML route today (header over two rows, no separator, no outer pipes, math numbers)
HTML_TODAY = CAPTION + (
    "Method | EN.QA |  | EN.MC |\n"
    "| F1 Score | Tokens | Acc. | Tokens\n"
    "Long-context LLM w/o RAG |  |  |  |\n"
    "Llama3.1-70B | $34.26$ | 117K | $71.62$ | 117K\n"
    "Llama3.1-70B order-preserve RAG (ours) |  |  |  |\n"
    "OP-RAG-24K | $45.45$ | 24K | $\\mathbf{88.65}$ | 24K\n"
)
# issue 18's form: one flattened header row, a separator, plain numbers
HTML_ISSUE_18 = CAPTION + (
    "| Method | EN.QA F1 Score | EN.QA Tokens | EN.MC Acc. | EN.MC Tokens |\n"
    "| --- | --- | --- | --- | --- |\n"
    "| Long-context LLM w/o RAG |  |  |  |  |\n"
    "| Llama3.1-70B | 34.26 | 117K | 71.62 | 117K |\n"
    "| Llama3.1-70B order-preserve RAG (ours) |  |  |  |  |\n"
    "| OP-RAG-24K | 45.45 | 24K | **88.65** | 24K |\n"
)
# issue 18's form with the row-spanning group label repeated on every row
HTML_ISSUE_18_GROUPED = CAPTION + (
    "| Group | Method | EN.QA F1 Score | EN.MC Acc. |\n"
    "| --- | --- | --- | --- |\n"
    "| Long-context LLM w/o RAG | Llama3.1-70B | 34.26 | 71.62 |\n"
    "| Long-context LLM w/o RAG | GPT-4O | 32.36 | 78.42 |\n"
    "| Llama3.1-70B order-preserve RAG (ours) | OP-RAG-24K | 45.45 | **88.65** |\n"
)
# papers-mcp's PDF route today: "BLEU" cut in two header cells, language pairs on a second header row
PDF_TODAY = (
    "Table 2: The Transformer achieves better BLEU scores than previous state-of-the-art models on the "
    "English-to-German and English-to-French newstest2014 tests at a fraction of the training cost.\n\n"
    "|Model|BL|EU|Training C|ost (FLOPs)|\n|---|---|---|---|---|\n||EN-DE|EN-FR|EN-DE|EN-FR|\n"
    "|ByteNet [18]|23.75||||\n"
    "|Transformer (big)|**28.4**|**41.8**|2_._3_·_|10<sup>19</sup>|\n"
)
PROSE = (
    "## **6.1 Machine Translation**\n\n"
    "On the WMT 2014 English-to-German translation task, the big transformer model (Transformer (big) in "
    "Table 2) outperforms the best previously reported models (including ensembles) by more than 2 _._ 0 BLEU, "
    "establishing a new state-of-the-art BLEU score of 28 _._ 4. We employ three types of regularization "
    "during training. We used the Adam optimizer and trained on the Penn Treebank dataset."
)


def facts_of(nlp: Language, text: str) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = extract_from_doc(nlp(mask_markup(text)), source_text=text)["facts"]
    return facts


def result(facts: list[dict[str, Any]], value: str) -> dict[str, Any]:
    found = [f for f in facts if f["value"] == value and f.get("metric")]
    assert len(found) == 1, [(f["entity"], f["attribute"], f["value"]) for f in facts]
    return found[0]


@pytest.mark.parametrize(
    "text",
    [HTML_TODAY, HTML_ISSUE_18, HTML_ISSUE_18_GROUPED],
    ids=["html-today", "issue-18", "issue-18-grouped"],
)
def test_a_results_table_gives_method_metric_dataset_and_value(nlp: Language, text: str) -> None:
    facts = facts_of(nlp, text)
    best = result(facts, "88.65")
    assert (best["entity"], best["metric"], best["dataset"]) == ("OP-RAG-24K", "accuracy", "EN.MC")
    assert best["numeric_value"] == 88.65 and best["confidence"] == "High" and best["found_by"] == "table"
    f1 = result(facts, "34.26")
    assert (f1["entity"], f1["metric"], f1["dataset"], f1["group"]) == (
        "Llama3.1-70B", "F1", "EN.QA", "Long-context LLM w/o RAG"
    )  # fmt: skip
    tokens = [f for f in facts if f["value"] == "117K"]
    assert all(f["metric"] is None and f["confidence"] == "Medium" for f in tokens)
    assert tokens or text is HTML_ISSUE_18_GROUPED


def test_the_pdf_route_header_cut_in_two_is_one_metric(nlp: Language) -> None:
    [table] = parse_tables(PDF_TODAY)
    assert table.headers[1:3] == ["BLEU EN-DE", "BLEU EN-FR"]
    facts = facts_of(nlp, PDF_TODAY)
    assert {(f["entity"], f["dataset"], f["value"]) for f in facts if f.get("metric") == "BLEU"} == {
        ("ByteNet", "EN-DE", "23.75"),
        ("Transformer (big)", "EN-DE", "28.4"),
        ("Transformer (big)", "EN-FR", "41.8"),
    }


def test_prose_results_numbers_as_math_and_no_plain_noun_counts(nlp: Language) -> None:
    facts = facts_of(nlp, PROSE)
    score = result(facts, "28.4")  # the PDF route's "28 _._ 4"
    assert score["metric"] == "BLEU" and "English-to-German" in score["dataset"]
    assert score["entity"] == "Transformer (big)" and score["found_by"] == "prose"
    assert not any(f["value"] == "three" for f in facts)  # "three types of regularization"
    assert not [f for f in facts if f["value"] == "2.0" and f.get("metric")]  # "by 2.0 BLEU": a difference
    math = facts_of(nlp, "Our experiments show that OP-RAG attains a $47.25$ F1 score on the EN.QA dataset.")
    assert result(math, "47.25")["metric"] == "F1"


def test_scientific_names_get_scientific_types_and_headings_none(nlp: Language) -> None:
    text = PROSE + "\n\n" + HTML_ISSUE_18
    out = extract_entities(nlp(prepare_text(text)), None, True, source_text=text)
    types = {e["name"]: e["type"] for e in out["entities"]}
    assert types.get("Adam optimizer") == "method" and types.get("Penn Treebank") == "dataset"
    assert types.get("BLEU") == "metric" and types.get("OP-RAG-24K") == "method"
    assert types.get("EN.MC") == "dataset"
    assert "Machine Translation" not in types  # a heading
    assert not [n for n in types if "|" in n or "*" in n or "<" in n]
    edges = {(e["source"], e["relation"], e["target"]) for e in out["edges"]}
    assert ("OP-RAG-24K", "evaluated_on", "EN.MC") in edges


def test_outperforms_edges_carry_the_metric(nlp: Language) -> None:
    text = "In our experiments on the WMT 2014 dataset, ConvS2S outperforms ByteNet in BLEU."
    out = extract_entities(nlp(prepare_text(text)), None, True, source_text=text)
    [edge] = [e for e in out["edges"] if e["relation"] == "outperforms"]
    assert (edge["source"], edge["target"], edge["metric"]) == ("ConvS2S", "ByteNet", "BLEU")
    assert edge["evidence"] == text


def test_news_text_is_read_as_before(nlp: Language) -> None:
    text = "Adam Smith, the chief executive of Apple, said revenue rose to $5 billion."
    out = extract_entities(nlp(prepare_text(text)), None, True, source_text=text)
    assert {(e["name"], e["type"]) for e in out["entities"]} >= {
        ("Adam Smith", "person"),
        ("Apple", "company"),
    }


def test_science_types_are_accepted() -> None:
    assert normalise_entity_types(["Methods", "datasets", "metric", "task"]) == (
        "method",
        "dataset",
        "metric",
        "task",
    )
    assert {"method", "dataset", "metric", "task"} <= set(normalise_entity_types(None))


def test_conflicts_compare_results_across_metric_spellings() -> None:
    paper = {"entity": "Transformer (big)", "attribute": "BLEU", "value": "28.4", "metric": "BLEU",
             "dataset": "EN-DE", "source": {"url": "https://arxiv.org/abs/1706.03762"}}  # fmt: skip
    other = {"entity": "big Transformer", "attribute": "BLEU score", "value": "26.9", "metric": "BLEU score",
             "dataset": "WMT 2014 English-to-German", "source": "a reproduction"}  # fmt: skip
    elsewhere = dict(other, dataset="WMT 2014 English-to-French", value="39.0")
    out = detect_conflicts(
        [FactInput(**f) for f in (paper, other, elsewhere)], Tolerance(numerical_threshold=0.05)
    )
    assert out["total_conflicts"] == 1
    assert sorted(map(float, out["conflicts"][0]["values"])) == [26.9, 28.4]
    assert canonical_metric("Acc.") == canonical_metric("accuracy") == "accuracy"
