"""conflict-detect on fact lists written for these tests; expectations from seed 004 and arithmetic by hand."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from research_mcp.conflicts import FactInput, Tolerance, detect_conflicts, normalize_key
from research_mcp.facts import extract_from_doc

if TYPE_CHECKING:
    from spacy.language import Language


def fact(value: Any, source: Any, **extra: Any) -> dict[str, Any]:
    return {"entity": "AI Market", "attribute": "Size 2024", "value": value, "source": source} | extra


def run(facts: list[dict[str, Any]], threshold: float = 0.1) -> dict[str, Any]:
    parsed = [FactInput.model_validate(f) for f in facts]
    return detect_conflicts(parsed, Tolerance(numerical_threshold=threshold))


def test_the_seed_example_gives_the_seed_output() -> None:
    result = run(
        [fact("22.4", "Source A", value_type="number"), fact("28.5", "Source B", value_type="number")]
    )
    assert result["total_conflicts"] == 1
    assert result["severity_summary"] == {"critical": 0, "moderate": 1, "minor": 0}
    c = result["conflicts"][0]
    assert (c["entity"], c["attribute"], c["type"], c["severity"]) == (
        "AI Market",
        "Size 2024",
        "numerical",
        "moderate",
    )
    assert c["values"] == ["22.4", "28.5"] and c["sources"] == ["Source A", "Source B"]
    assert c["difference_percentage"] == 27.2, "seed: (28.5 - 22.4) / 22.4 = 27.2%"
    assert isinstance(c["possible_explanation"], str) and c["possible_explanation"]


def test_one_number_in_four_spellings_is_no_conflict_even_at_zero_tolerance() -> None:
    facts = [
        fact("22.4", "A", value_type="currency"),
        fact("$22.4 billion", "B", value_type="currency"),
        fact("22.4billion", "C", value_type="currency"),
        fact("22,400 million", "D", value_type="currency"),
    ]
    result = run(facts, threshold=0.0)
    assert result["total_conflicts"] == 0, (
        "22.4, $22.4 billion, 22.4billion and 22,400 million are one number"
    )


def test_a_bare_number_is_read_at_the_scale_of_the_others() -> None:
    result = run([fact("22.4", "A"), fact("$28.5 billion", "B")])
    assert result["total_conflicts"] == 1
    c = result["conflicts"][0]
    assert c["difference_percentage"] == 27.2
    assert "billion" in c["possible_explanation"], "the assumption is said out loud"


def test_zero_tolerance_flags_any_difference_and_the_default_forgives_small_ones() -> None:
    facts = [fact("$100 million", "A"), fact("$105 million", "B")]
    assert run(facts, threshold=0.0)["total_conflicts"] == 1, "5% apart is a difference at tolerance 0"
    assert run(facts)["total_conflicts"] == 0, "5% is within the default 10%"
    minor = run([fact("$100 million", "A"), fact("$115 million", "B")])
    assert minor["conflicts"][0]["severity"] == "minor", "15% is above 10% and below the 20% moderate line"


def test_severity_thresholds() -> None:
    assert run([fact("100", "A"), fact("125", "B")])["conflicts"][0]["severity"] == "moderate", "25% apart"
    assert run([fact("100", "A"), fact("150", "B")])["conflicts"][0]["severity"] == "critical", "50% apart"
    assert run([fact("100", "A"), fact("119", "B")])["conflicts"][0]["severity"] == "minor", "19% apart"


def test_different_currencies_are_explained_not_counted() -> None:
    result = run([fact("$22.4 billion", "A"), fact("€20.1 billion", "B")])
    assert result["total_conflicts"] == 0
    (note,) = result["explained_differences"]
    assert note["reason"] == "different_currencies"
    assert "currenc" in note["possible_explanation"].lower()


def test_different_periods_are_explained_not_counted() -> None:
    result = run(
        [
            {
                "entity": "Acme",
                "attribute": "revenue",
                "value": "$10 billion",
                "source": "A",
                "period": "2023",
            },
            {
                "entity": "Acme",
                "attribute": "revenue",
                "value": "$12 billion",
                "source": "B",
                "period": "FY2024",
            },
        ]
    )
    assert result["total_conflicts"] == 0
    (note,) = result["explained_differences"]
    assert note["reason"] == "different_periods" and "period" in note["possible_explanation"]


def test_same_period_written_differently_is_compared() -> None:
    result = run(
        [
            {
                "entity": "Acme",
                "attribute": "revenue",
                "value": "$10 billion",
                "source": "A",
                "period": "Q3 2024",
            },
            {
                "entity": "Acme",
                "attribute": "revenue",
                "value": "$15 billion",
                "source": "B",
                "period": "3Q24",
            },
        ]
    )
    assert result["total_conflicts"] == 1 and result["conflicts"][0]["period"] == "2024-Q3"
    assert result["conflicts"][0]["severity"] == "critical", "(15 - 10) / 10 = 50%"


def test_percentages_are_not_compared_with_money() -> None:
    result = run(
        [
            {"entity": "Acme", "attribute": "growth", "value": "12%", "source": "A"},
            {"entity": "Acme", "attribute": "growth", "value": "$12 million", "source": "B"},
        ]
    )
    assert result["total_conflicts"] == 0
    assert result["explained_differences"][0]["reason"] == "different_value_types"


def test_small_percentages_are_rated_by_points_too() -> None:
    c = run([fact("2%", "A"), fact("3%", "B")])["conflicts"][0]
    assert c["difference_percentage"] == 50.0 and c["difference_points"] == 1.0
    assert c["severity"] == "minor", "one percentage point apart is minor although 50% relative"


def test_opposite_signs_are_critical() -> None:
    c = run([fact("-5%", "A"), fact("3%", "B")])["conflicts"][0]
    assert c["severity"] == "critical"
    assert c["difference_percentage"] == pytest.approx(266.7), "(3 - -5) / 3 = 266.7%"


def test_zero_values_never_divide_by_zero() -> None:
    both = run([fact("0", "A"), fact("0", "B")])
    assert both["total_conflicts"] == 0
    one = run([fact("0", "A"), fact("5", "B")])["conflicts"][0]
    assert one["difference_percentage"] == 100.0, "relative to the non-zero value"
    assert one["severity"] == "critical" and "zero" in one["possible_explanation"]


def test_grouping_ignores_case_whitespace_articles_and_plurals() -> None:
    result = run(
        [
            {"entity": "The AI Markets", "attribute": " Size  2024", "value": "22.4", "source": "A"},
            {"entity": "ai market", "attribute": "size 2024", "value": "28.5", "source": "B"},
        ]
    )
    assert result["total_conflicts"] == 1
    assert normalize_key("The Companies' revenues") == normalize_key("company revenue")


def test_different_attributes_are_not_compared() -> None:
    result = run(
        [fact("22.4", "A"), {"entity": "AI Market", "attribute": "Size 2030", "value": "80", "source": "B"}]
    )
    assert result["total_conflicts"] == 0


def test_categorical_values_conflict_as_text() -> None:
    result = run(
        [
            {
                "entity": "Acme Corp",
                "attribute": "headquarters",
                "value": "Paris",
                "value_type": "text",
                "source": "A",
            },
            {
                "entity": "acme corp",
                "attribute": "Headquarters",
                "value": "London",
                "value_type": "text",
                "source": "B",
            },
            {
                "entity": "Acme Corp",
                "attribute": "headquarters",
                "value": "paris",
                "value_type": "text",
                "source": "C",
            },
        ]
    )
    assert result["total_conflicts"] == 1
    c = result["conflicts"][0]
    assert (
        c["type"] == "text"
        and c["values"] == ["Paris", "London", "paris"]
        and c["difference_percentage"] is None
    )


def test_more_detail_is_not_a_text_conflict() -> None:
    result = run(
        [
            {"entity": "Acme", "attribute": "headquarters", "value": "London", "source": "A"},
            {"entity": "Acme", "attribute": "headquarters", "value": "London, UK", "source": "B"},
        ]
    )
    assert result["total_conflicts"] == 0


def test_dates_at_different_precision_agree() -> None:
    agree = run(
        [
            {"entity": "Acme", "attribute": "founded", "value": "2015", "value_type": "date", "source": "A"},
            {
                "entity": "Acme",
                "attribute": "founded",
                "value": "March 2015",
                "value_type": "date",
                "source": "B",
            },
        ]
    )
    assert agree["total_conflicts"] == 0
    disagree = run(
        [
            {"entity": "Acme", "attribute": "founded", "value": "2015", "value_type": "date", "source": "A"},
            {"entity": "Acme", "attribute": "founded", "value": "2017", "value_type": "date", "source": "B"},
        ]
    )
    assert disagree["total_conflicts"] == 1 and disagree["conflicts"][0]["type"] == "date"


def test_fact_extract_output_is_accepted_as_input() -> None:
    extracted = {
        "entity": "global AI market",
        "attribute": "value",
        "value": "$22.4 billion",
        "value_type": "currency",
        "confidence": "High",
        "source": {"url": "https://a.example", "title": "Report A"},
        "numeric_value": 22.4e9,
        "currency": "USD",
        "scale": "billion",
        "period": {"text": "2024", "type": "year", "key": "2024", "start": "2024-01-01", "end": "2024-12-31"},
        "value_span": [34, 47],
    }
    other = extracted | {"value": "$30 billion", "source": {"url": "https://b.example", "title": None}}
    result = run([extracted, other])
    c = result["conflicts"][0]
    assert c["sources"] == ["Report A", "https://b.example"], "title, else url"
    assert c["difference_percentage"] == pytest.approx(33.9), "(30 - 22.4) / 22.4 = 33.9%"
    assert c["period"] == "2024"


def test_ranges_that_overlap_agree() -> None:
    assert run([fact("$10-12 billion", "A"), fact("$11 billion", "B")], threshold=0.0)["total_conflicts"] == 0
    apart = run([fact("$10-12 billion", "A"), fact("$20 billion", "B")])["conflicts"][0]
    assert apart["difference_percentage"] == pytest.approx(66.7), "closest ends: (20 - 12) / 12"


@pytest.mark.parametrize(
    "bad",
    [
        {"attribute": "size", "value": "1"},
        {"entity": "X", "attribute": "size"},
        {"entity": "  ", "value": "1"},
        {"entity": "X", "value": ""},
        {"entity": "X", "value": ["1"]},
        {"entity": "X", "value": True},
        {"entity": "X", "value": {"amount": 1}},
        {"entity": "X", "value": "1", "value_type": "money"},
        {"entity": "X", "value": float("nan")},
    ],
)
def test_malformed_facts_fail_validation(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        FactInput.model_validate(bad)


def test_tolerance_rejects_negative_and_accepts_zero() -> None:
    with pytest.raises(ValidationError):
        Tolerance(numerical_threshold=-0.1)
    assert Tolerance(numerical_threshold=0).numerical_threshold == 0.0
    assert Tolerance().numerical_threshold == 0.1, "seed default"


def test_numbers_given_as_json_numbers_work() -> None:
    c = run([fact(22.4, "A"), fact(28.5, "B")])["conflicts"][0]
    assert c["difference_percentage"] == 27.2


def test_fewer_than_two_facts_is_no_conflict() -> None:
    assert run([]) == {
        "total_conflicts": 0,
        "conflicts": [],
        "severity_summary": {"critical": 0, "moderate": 0, "minor": 0},
        "explained_differences": [],
    }
    assert run([fact("1", "A")])["total_conflicts"] == 0


def test_fact_extract_output_of_two_sources_round_trips(nlp: Language) -> None:
    a = extract_from_doc(
        nlp(
            "BP reported a profit of £2.3bn for the second quarter, down from £6.9bn a year earlier. "
            "The global AI market was valued at $22.4 billion in 2024."
        ),
        source_url="https://a.example",
        source_metadata={"title": "Report A"},
    )
    b = extract_from_doc(
        nlp("The global AI market was worth $28.5 billion in 2024. It was valued at $20.1 billion in 2023."),
        source_url="https://b.example",
        source_metadata={"title": "Report B"},
    )
    result = detect_conflicts([FactInput.model_validate(f) for f in a["facts"] + b["facts"]], Tolerance())
    assert result["total_conflicts"] == 1, "only the two 2024 market sizes contradict each other"
    c = result["conflicts"][0]
    assert (c["entity"], c["values"], c["sources"]) == (
        "global AI market",
        ["$22.4 billion", "$28.5 billion"],
        ["Report A", "Report B"],
    )
    assert c["difference_percentage"] == 27.2 and c["period"] == "2024"
    reasons = sorted(n["reason"] for n in result["explained_differences"])
    assert reasons == ["different_periods", "different_periods"], (
        "BP's prior-year profit and the 2023 size are not conflicts"
    )


def test_bounds_are_respected() -> None:
    assert run([fact("more than $20 billion", "A"), fact("$25 billion", "B")])["total_conflicts"] == 0, (
        "25 > 20"
    )
    assert run([fact("up to 10%", "A"), fact("8%", "B")])["total_conflicts"] == 0, "8 <= 10"
    over = run([fact("more than $30 billion", "A"), fact("$20 billion", "B")])["conflicts"][0]
    assert over["difference_percentage"] == 50.0, "the bound itself is 50% above 20"
    from_extract = [
        fact("$20 billion", "A", qualifier="more than"),
        fact("$25 billion", "B"),
    ]
    assert run(from_extract)["total_conflicts"] == 0, "fact-extract's qualifier field is a bound too"


_VALUES = st.one_of(
    st.sampled_from(
        [
            "0",
            "-0",
            "22.4",
            "$22.4 billion",
            "22,400 million",
            "€5bn",
            "-3%",
            "0%",
            "4 pp",
            "Paris",
            "2024",
            "March 2024",
            "more than $1bn",
            "$10-12 billion",
            "zero",
            "1e9",
            "∞",
            "N/A",
            " x ",
        ]
    ),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(10**12), max_value=10**12),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "entity": st.sampled_from(["A", "a ", "B"]),
                "value": _VALUES,
                "source": st.sampled_from(["s1", "s2"]),
            },
            optional={
                "value_type": st.sampled_from(["number", "currency", "percentage", "date", "text"]),
                "period": st.sampled_from(["2023", "2024", "Q3 2024", "soon"]),
            },
        ),
        max_size=8,
    ),
    st.sampled_from([0.0, 0.05, 0.1, 0.5, 3.0]),
)
def test_any_fact_list_gives_a_consistent_report(facts: list[dict[str, Any]], threshold: float) -> None:
    result = run(facts, threshold)
    json.dumps(result, allow_nan=False)  # the result must be valid JSON: no inf, no nan
    assert result["total_conflicts"] == len(result["conflicts"]) == sum(result["severity_summary"].values())
    for c in result["conflicts"]:
        assert c["severity"] in ("critical", "moderate", "minor")
        assert len(c["values"]) == len(c["sources"]) >= 2
        d = c["difference_percentage"]
        assert d is None or (d > 0 and d == d), "a conflict has a positive, finite difference"


def test_owner_metric_written_either_way_is_one_group() -> None:
    result = run(
        [
            {"entity": "Apple", "attribute": "revenue", "value": "$94.9 billion", "source": "A"},
            {"entity": "Apple revenue", "attribute": "value", "value": "$120 billion", "source": "B"},
        ]
    )
    assert result["total_conflicts"] == 1, (
        "fact-extract writes ('Apple revenue', 'value'); a person ('Apple', 'revenue')"
    )


def test_a_factor_of_a_thousand_suggests_a_scale_mix_up() -> None:
    c = run([fact("$22.4 million", "A"), fact("$22.4 billion", "B")])["conflicts"][0]
    assert c["severity"] == "critical" and "scale" in c["possible_explanation"]


def test_a_period_given_as_a_number_is_a_year() -> None:
    result = run(
        [
            {"entity": "Acme", "attribute": "revenue", "value": "$10 billion", "source": "A", "period": 2023},
            {
                "entity": "Acme",
                "attribute": "revenue",
                "value": "$12 billion",
                "source": "B",
                "period": "2024",
            },
        ]
    )
    assert (
        result["total_conflicts"] == 0 and result["explained_differences"][0]["reason"] == "different_periods"
    )
