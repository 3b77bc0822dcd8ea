"""fact-extract on the real spaCy model, over sentences written for these tests (expected values read by eye)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from research_mcp.facts import extract_from_doc

if TYPE_CHECKING:
    from spacy.language import Language


def facts_of(nlp: Language, text: str, **kwargs: Any) -> list[dict[str, Any]]:
    result = extract_from_doc(nlp(text), **kwargs)
    facts: list[dict[str, Any]] = result["facts"]
    return facts


def only(facts: list[dict[str, Any]], value: str) -> dict[str, Any]:
    found = [f for f in facts if f["value"] == value]
    assert len(found) == 1, f"exactly one fact with value {value!r} in {[f['value'] for f in facts]}"
    return found[0]


def test_the_seed_shape_with_source_attribution(nlp: Language) -> None:
    text = "The global AI market was valued at $22.4 billion in 2024."
    result = extract_from_doc(
        nlp(text),
        source_url="https://example.com",
        source_metadata={"title": "Report Title", "author": "A. Analyst"},
    )
    assert set(result) == {"facts", "extraction_quality", "metadata"}
    assert result["metadata"]["total_facts"] == len(result["facts"]) == 1
    assert isinstance(result["metadata"]["processing_time_ms"], int)
    fact = result["facts"][0]
    assert fact["entity"] == "global AI market", "the subject of 'was valued', without the article"
    assert fact["attribute"] == "value"
    assert fact["value_type"] == "currency"
    assert (
        fact["numeric_value"] == pytest.approx(22.4e9)
        and fact["currency"] == "USD"
        and fact["scale"] == "billion"
    )
    assert fact["source"] == {"url": "https://example.com", "title": "Report Title", "author": "A. Analyst"}
    assert fact["period"]["key"] == "2024" and fact["period"]["type"] == "year"
    assert fact["confidence"] == "High", "named subject, typed value, no hedge, no projection"
    assert text[slice(*fact["value_span"])] == "$22.4 billion", "value_span points into the input"
    assert text[slice(*fact["sentence_span"])] == text


def test_no_source_gives_null_url_and_title(nlp: Language) -> None:
    fact = facts_of(nlp, "Acme's revenue reached $3 million in 2022.")[0]
    assert fact["source"] == {"url": None, "title": None}


@pytest.mark.parametrize(
    ("sentence", "value", "number", "currency"),
    [
        ("Siemens posted revenue of €77.8 billion in fiscal 2023.", "€77.8 billion", 77.8e9, "EUR"),
        ("The startup raised US$150m in its Series B round.", "US$150m", 150e6, "USD"),
        ("BP reported a profit of £2.3bn for the second quarter.", "£2.3bn", 2.3e9, "GBP"),
        ("Toyota's operating income reached ¥5.35 trillion in FY2023.", "¥5.35 trillion", 5.35e12, "JPY"),
        ("The fund manages 3.5 trillion USD in assets.", "3.5 trillion USD", 3.5e12, "USD"),
        ("Nvidia's data center revenue was $14.5B in Q3 FY2024.", "$14.5B", 14.5e9, "USD"),
        ("The bakery's sales were £450k last year.", "£450k", 450e3, "GBP"),
        ("The merger created a group with sales of EUR 3.2bn.", "EUR 3.2bn", 3.2e9, "EUR"),
        ("The retailer lost -$1.2 billion in 2022.", "-$1.2 billion", -1.2e9, "USD"),
    ],
)
def test_money_in_every_scale_style_and_currency(
    nlp: Language, sentence: str, value: str, number: float, currency: str
) -> None:
    fact = only(facts_of(nlp, sentence), value)
    assert fact["value_type"] == "currency"
    assert fact["numeric_value"] == pytest.approx(number), f"{value} read by eye"
    assert fact["currency"] == currency


def test_owner_and_metric_make_the_entity(nlp: Language) -> None:
    facts = facts_of(
        nlp, "Apple's revenue rose 6% to $94.9 billion in Q3 2024, while net income fell to $21.4bn."
    )
    assert only(facts, "$94.9 billion")["entity"] == "Apple revenue"
    assert only(facts, "$21.4bn")["entity"] == "net income", "the second clause has its own subject"
    growth = only(facts, "6%")
    assert (growth["entity"], growth["attribute"], growth["value_kind"]) == (
        "Apple revenue",
        "growth",
        "growth",
    )
    assert all(f["period"]["key"] == "2024-Q3" for f in facts), "Q3 2024 governs the whole sentence"


def test_percentages_points_and_growth_are_told_apart(nlp: Language) -> None:
    facts = facts_of(nlp, "Unemployment fell 0.3 percentage points to 3.7% in November 2023.")
    points = only(facts, "0.3 percentage points")
    assert points["value_kind"] == "percentage_points" and points["attribute"] == "change"
    level = only(facts, "3.7%")
    assert level["value_kind"] == "percentage", "'to 3.7%' is a level, not growth"
    assert level["period"]["key"] == "2023-11"
    yoy = only(facts_of(nlp, "Cloud revenue grew 12% year over year."), "12%")
    assert yoy["value_kind"] == "growth" and yoy["direction"] == "up"
    bps = only(facts_of(nlp, "The bank's net interest margin widened by 25 basis points."), "25 basis points")
    assert bps["value_kind"] == "percentage_points" and bps["numeric_value"] == pytest.approx(0.25)


def test_a_decline_is_growth_with_direction_down(nlp: Language) -> None:
    fact = only(facts_of(nlp, "Shares of Alphabet dropped 4.4% on Tuesday."), "4.4%")
    assert (fact["value_kind"], fact["direction"], fact["attribute"]) == ("growth", "down", "decline")
    assert fact["numeric_value"] == pytest.approx(4.4), "the magnitude as written; the sign is in direction"


def test_ranges_are_one_fact_with_low_and_high(nlp: Language) -> None:
    fact = facts_of(nlp, "Analysts estimate the market at between $40 billion and $50 billion.")[0]
    assert fact["entity"] == "market", "the object of 'estimate', not the analysts"
    assert fact["range"] == {"low": pytest.approx(40e9), "high": pytest.approx(50e9)}
    assert fact["is_projection"] is True and fact["confidence"] == "Low", "an estimate lowers confidence"
    short = facts_of(nlp, "Each plant costs $2-3 million to build.")[0]
    assert short["range"] == {"low": pytest.approx(2e6), "high": pytest.approx(3e6)}


def test_counts_keep_their_noun(nlp: Language) -> None:
    facts = facts_of(
        nlp, "Netflix has 260 million paid subscribers and 13,000 employees as of December 31, 2023."
    )
    subs = only(facts, "260 million")
    assert (subs["entity"], subs["unit"], subs["value_kind"]) == ("Netflix", "paid subscribers", "count")
    assert subs["numeric_value"] == pytest.approx(260e6) and subs["value_type"] == "number"
    staff = only(facts, "13,000")
    assert staff["unit"] == "employees" and staff["numeric_value"] == 13000
    assert subs["period"]["key"] == "2023-12-31" and subs["period"]["as_of"] is True


def test_quarters_halves_and_fiscal_years(nlp: Language) -> None:
    q = facts_of(
        nlp, "Amazon's AWS segment generated $24.2 billion in revenue in the fourth quarter of 2023."
    )[0]
    assert q["attribute"] == "revenue" and q["period"]["key"] == "2023-Q4"
    assert q["period"]["start"] == "2023-10-01" and q["period"]["end"] == "2023-12-31"
    h = only(facts_of(nlp, "Sales rose to 3.2 million units in H1 2024."), "3.2 million")
    assert h["period"]["key"] == "2024-H1" and h["unit"] == "units"
    fy = facts_of(nlp, "Toyota's operating income reached ¥5.35 trillion in FY2023.")[0]
    assert (
        fy["period"]["type"] == "fiscal_year"
        and fy["period"]["key"] == "FY2023"
        and fy["period"]["start"] is None
    )


def test_projections_are_flagged_and_less_confident(nlp: Language) -> None:
    facts = facts_of(
        nlp, "The global AI market was valued at $22.4 billion in 2024 and could reach $1.8 trillion by 2030."
    )
    now, later = only(facts, "$22.4 billion"), only(facts, "$1.8 trillion")
    assert now["is_projection"] is False and now["confidence"] == "High"
    assert later["is_projection"] is True and later["confidence"] == "Low", (
        "'could reach ... by 2030' is a forecast"
    )
    assert later["entity"] == "global AI market", "the conjoined verb shares the subject"
    assert later["period"]["key"] == "2030" and later["period"]["target"] is True
    expected = only(facts_of(nlp, "Revenue is expected to grow 15% in 2025."), "15%")
    assert expected["is_projection"] is True


def test_hedged_values_are_medium_at_best(nlp: Language) -> None:
    fact = only(
        facts_of(nlp, "The deal, valued at roughly $69 billion, closed in October 2023."), "$69 billion"
    )
    assert fact["qualifier"] == "roughly" and fact["confidence"] == "Medium"


def test_several_facts_per_line_each_get_their_own_label(nlp: Language) -> None:
    facts = facts_of(nlp, "Revenue: $5.2M | Net income: $1.1M | Margin: 21%")
    assert [(f["entity"], f["value"]) for f in facts] == [
        ("Revenue", "$5.2M"),
        ("Net income", "$1.1M"),
        ("Margin", "21%"),
    ]


def test_facts_on_separate_lines_do_not_borrow_each_others_words(nlp: Language) -> None:
    facts = facts_of(nlp, "Revenue: £3.2m (FY2024)\nEmployees: 1,200")
    assert [(f["entity"], f["value"]) for f in facts] == [("Revenue", "£3.2m"), ("Employees", "1,200")]
    assert facts[0]["attribute"] == "value", "no counted noun from the next line"
    assert facts[0]["period"]["key"] == "FY2024" and facts[1]["period"] is None


def test_a_prior_value_keeps_the_entity_and_not_the_period(nlp: Language) -> None:
    facts = facts_of(
        nlp, "BP reported a profit of £2.3bn for the second quarter, down from £6.9bn a year earlier."
    )
    before = only(facts, "£6.9bn")
    assert before["entity"] == only(facts, "£2.3bn")["entity"] == "BP profit"
    assert before["comparison"] == "prior" and before["period"] is None


def test_each_clause_of_a_semicolon_sentence_gets_its_own_period(nlp: Language) -> None:
    facts = facts_of(nlp, "In 2022 the company had 12,000 employees; in 2023 it had 15,000.")
    assert only(facts, "12,000")["period"]["key"] == "2022"
    assert only(facts, "15,000")["period"]["key"] == "2023"


def test_zero_values_are_facts(nlp: Language) -> None:
    fact = only(facts_of(nlp, "Inflation was 0% in 2021."), "0%")
    assert fact["numeric_value"] == 0.0 and fact["entity"] == "Inflation"


def test_a_year_alone_is_never_a_value(nlp: Language) -> None:
    facts = facts_of(nlp, "In 2023, revenue was $5 billion; the firm had 1,200 staff in 2022.")
    assert [f["value"] for f in facts] == ["$5 billion", "1,200"], "2023 and 2022 are periods, not values"
    assert [f["period"]["key"] for f in facts] == ["2023", "2022"]


def test_dates_of_events_are_date_facts(nlp: Language) -> None:
    facts = facts_of(nlp, "The company was founded in 1998 and went public in 2004.")
    assert [(f["entity"], f["attribute"], f["value"], f["value_type"]) for f in facts] == [
        ("company", "founded", "1998", "date"),
        ("company", "went public", "2004", "date"),
    ]
    assert all(f["numeric_value"] is None for f in facts), "a date is not a number"
    deal = facts_of(nlp, "Microsoft acquired LinkedIn in 2016 for $26.2 billion.")
    assert [(f["entity"], f["attribute"], f["value"]) for f in deal] == [
        ("LinkedIn", "acquired", "2016"),
        ("LinkedIn", "acquisition price", "$26.2 billion"),
    ]
    assert (
        only(facts_of(nlp, "Apple launched the iPhone in June 2007."), "June 2007")["period"]["key"]
        == "2007-06"
    )
    assert facts_of(nlp, "The firm will launch its new model in 2026.") == [], "a plan is not a dated fact"


def test_text_without_quantities_gives_no_facts_and_zero_quality(nlp: Language) -> None:
    result = extract_from_doc(nlp("Researchers described a new method for protein folding."))
    assert result["facts"] == [] and result["extraction_quality"] == 0.0


def test_quality_reflects_how_well_facts_are_anchored_not_how_many(nlp: Language) -> None:
    one = extract_from_doc(nlp("Siemens posted revenue of €77.8 billion in fiscal 2023."))
    two = extract_from_doc(
        nlp(
            "Siemens posted revenue of €77.8 billion in fiscal 2023. Bosch posted revenue of €91.6 billion in fiscal 2023."
        )
    )
    assert one["extraction_quality"] == two["extraction_quality"] == 10.0, (
        "same quality per fact, twice the facts"
    )
    vague = extract_from_doc(nlp("It might reach about 40 by then."))
    assert vague["extraction_quality"] < one["extraction_quality"]


def test_odd_unicode_never_raises(nlp: Language) -> None:
    text = "Revenue\u200b rose\u00a0to €\u202f5 billion 🚀 in 2024 — ½ of ∞; \ud7ff \x00 done."
    result = extract_from_doc(nlp(text))
    assert isinstance(result["facts"], list)
    for fact in result["facts"]:
        assert text[slice(*fact["value_span"])] in text


def test_a_share_of_a_group_is_about_the_group(nlp: Language) -> None:
    fact = only(facts_of(nlp, "About 45% of respondents said they use AI tools at work."), "45%")
    assert (fact["entity"], fact["attribute"]) == ("respondents", "share")
    assert fact["qualifier"] == "about" and fact["confidence"] == "Medium"


def test_an_appositive_change_belongs_to_the_value_before_it(nlp: Language) -> None:
    facts = facts_of(
        nlp,
        "Microsoft reported quarterly revenue of $65.6 billion, up 16%, and net income of $24.7 billion, up 11%.",
    )
    assert only(facts, "$65.6 billion")["numeric_value"] == 65.6e9, "exact, not 65599999999.99999"
    up16, up11 = only(facts, "16%"), only(facts, "11%")
    assert (up16["entity"], up16["attribute"], up16["value_kind"]) == (
        "Microsoft quarterly revenue",
        "growth",
        "growth",
    )
    assert up11["entity"] == "Microsoft net income"


def test_an_amount_of_change_is_not_the_level(nlp: Language) -> None:
    facts = facts_of(
        nlp, "Research and development expenses increased by $1.3 billion, or 14%, to $10.5 billion."
    )
    assert [(f["value"], f["attribute"]) for f in facts] == [
        ("$1.3 billion", "increase"),
        ("14%", "growth"),
        ("$10.5 billion", "value"),
    ]


def test_a_change_from_one_value_to_another_is_two_facts(nlp: Language) -> None:
    facts = facts_of(nlp, "Headcount grew from 4,000 to 5,500 over the year.")
    assert [(f["entity"], f["value"], f["comparison"]) for f in facts] == [
        ("Headcount", "4,000", "prior"),
        ("Headcount", "5,500", None),
    ]
    guidance = facts_of(nlp, "The company expects full-year revenue of $4.5 billion to $4.7 billion.")
    assert len(guidance) == 1 and guidance[0]["range"] == {"low": 4.5e9, "high": 4.7e9}, (
        "without a change verb: a range"
    )
    assert guidance[0]["entity"] == "full-year revenue" and guidance[0]["is_projection"] is True


def test_the_prior_value_takes_the_period_after_it(nlp: Language) -> None:
    facts = facts_of(nlp, "In H2 2023, the segment's EBITDA was $310m, up from $250m in H1 2023.")
    now, before = only(facts, "$310m"), only(facts, "$250m")
    assert now["period"]["key"] == "2023-H2", "the H1 2023 after 'up from' is the prior value's"
    assert before["period"]["key"] == "2023-H1" and before["entity"] == "segment EBITDA"


def test_a_line_label_covers_every_clause_and_a_period_between_label_and_value(nlp: Language) -> None:
    facts = facts_of(nlp, "Sales: Q1 2024 $2.1bn; Q2 2024 $2.4bn; Q3 2024 $2.6bn.")
    assert [(f["entity"], f["value"], f["period"]["key"]) for f in facts] == [
        ("Sales", "$2.1bn", "2024-Q1"),
        ("Sales", "$2.4bn", "2024-Q2"),
        ("Sales", "$2.6bn", "2024-Q3"),
    ]


def test_an_estimate_for_a_conjoined_verb_keeps_the_estimated_object(nlp: Language) -> None:
    facts = facts_of(
        nlp,
        "The report values the cybersecurity market at USD 190.4 billion in 2023 and forecasts USD 478.7 billion by 2030.",
    )
    assert [f["entity"] for f in facts] == ["cybersecurity market", "cybersecurity market"], "not 'report'"
    assert [f["is_projection"] for f in facts] == [False, True]


def test_a_labelled_plain_number_counts_the_label(nlp: Language) -> None:
    fact = only(facts_of(nlp, "Employees: 340"), "340")
    assert (fact["value_kind"], fact["unit"]) == ("count", "employees")


@pytest.mark.parametrize(
    "sentence",
    [
        "The effect was significant (p < 0.05, n = 1,234) as shown in Section 3.2 and Eq. (4).",
        "The meeting is at 10:30 on 12/05/2023 in Room 101.",
        "Smith et al. (2020) reported similar results [15, 16].",
        "ISO 9001 certification was achieved in 2019 by 3 of the 12 plants.",
        "Call us at 555-1234 or visit 221B Baker Street.",
    ],
)
def test_statistics_times_references_and_fractions_are_not_facts(nlp: Language, sentence: str) -> None:
    assert facts_of(nlp, sentence) == [], "none of these numbers is a fact about an entity"


def test_names_with_numbers_stay_whole(nlp: Language) -> None:
    facts = facts_of(nlp, "The S&P 500 fell 2.1% to 4,500 points.")
    assert {f["entity"] for f in facts} == {"S&P 500"}
    assert only(facts, "4,500 points")["unit"] == "points"
    assert (
        only(facts_of(nlp, "Windows 11 runs on over 500 million devices."), "500 million")["entity"]
        == "Windows 11"
    )


def test_a_pronoun_subject_resolves_to_the_clause_that_embeds_it(nlp: Language) -> None:
    facts = facts_of(nlp, "The company said it would cut 10,000 jobs, about 5% of its workforce.")
    jobs, share = only(facts, "10,000"), only(facts, "5%")
    assert (jobs["entity"], jobs["unit"]) == ("company", "jobs")
    assert (share["attribute"], share["value_kind"]) == ("share of workforce", "percentage")
    assert jobs["is_projection"] is True, "'would cut' has not happened yet"


def test_first_person_is_never_an_entity(nlp: Language) -> None:
    facts = facts_of(nlp, "We train with a batch size of 256 for 90 epochs.")
    # issue 9: a value owned only by "we" falls back to what it counts, at lower confidence
    assert [f["entity"] for f in facts] == ["batch size", "epochs"], (
        "'we' is not resolved to an earlier entity"
    )
    assert only(facts, "90")["confidence"] != "High"


def test_model_sizes_and_temperatures(nlp: Language) -> None:
    params = only(facts_of(nlp, "Our model has 7B parameters."), "7B")
    assert (params["numeric_value"], params["unit"]) == (7e9, "parameters"), "B after a count is billion"
    temp = only(facts_of(nlp, "Average temperatures rose by 1.1°C since 1900."), "1.1°C")
    assert temp["unit"] == "°C" and temp["numeric_value"] == 1.1


def test_a_month_and_day_without_a_year_is_a_date(nlp: Language) -> None:
    facts = facts_of(nlp, "Bitcoin hit a record high of $73,750 on March 14.")
    assert [f["value"] for f in facts] == ["$73,750"], "14 is the day of the month"
    assert facts[0]["period"]["type"] == "day" and facts[0]["period"]["start"] is None


def test_plural_product_names_are_counted(nlp: Language) -> None:
    facts = facts_of(
        nlp, "Apple shipped 50.1 million iPhones in Q4 2023, compared to 48.3 million in Q4 2022."
    )
    now, before = only(facts, "50.1 million"), only(facts, "48.3 million")
    assert (now["entity"], now["unit"], now["period"]["key"]) == ("Apple", "iPhones", "2023-Q4")
    assert (before["unit"], before["period"]["key"], before["comparison"]) == ("iPhones", "2022-Q4", "prior")


_PIECES = st.sampled_from(
    ["$", "€", "£", "US$", "5", "22.4", "1,200", "bn", "m", "million", "%", " percentage points", "Q3", "FY", "2024",
     " ", "\n", "|", ";", ":", "-", "to", "from", "between", "and", "Revenue", "rose", "the market", "(", ")", "é", "\u200b",
     "9" * 400]
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=40).map("".join))
def test_any_text_gives_well_formed_facts(nlp: Language, text: str) -> None:
    result = extract_from_doc(nlp(text))
    json.dumps(result, allow_nan=False)  # the result must be valid JSON: no inf, no nan
    assert result["metadata"]["total_facts"] == len(result["facts"])
    assert 0.0 <= result["extraction_quality"] <= 10.0
    for f in result["facts"]:
        start, end = f["value_span"]
        assert 0 <= start < end <= len(text)
        assert " ".join(text[start:end].split()) == f["value"], "value is the text at value_span"
        assert f["confidence"] in ("High", "Medium", "Low")
        assert f["value_type"] in ("number", "currency", "percentage", "date", "text")
        assert f["entity"].strip()


def test_a_value_that_is_its_own_subject_is_dropped(nlp: Language) -> None:
    facts = facts_of(
        nlp, "Its valuation hit A$1.5 billion, while HK$3.2bn went to Asia and S$500m to Singapore."
    )
    assert [f["value"] for f in facts] == ["A$1.5 billion"], "HK$3.2bn and S$500m are not the valuation"
    assert facts[0]["currency"] == "AUD"


def test_counts_and_percentages_in_words(nlp: Language) -> None:
    facts = facts_of(nlp, "The app has two million users and grew five percent.")
    assert [(f["value"], f["numeric_value"], f["value_kind"]) for f in facts] == [
        ("two million", 2e6, "count"),
        ("five percent", 5.0, "growth"),
    ]


def test_months_and_retailers_are_not_modal_verbs(nlp: Language) -> None:
    for sentence in ("In May 2024, revenue was $5 billion.", "Target Corp revenue was $107 billion in 2023."):
        (fact,) = facts_of(nlp, sentence)
        assert fact["is_projection"] is False and fact["confidence"] == "High", sentence


def test_a_past_target_year_is_history_not_a_projection(nlp: Language) -> None:
    (fact,) = facts_of(nlp, "Sales had reached $5bn by 2020.")
    assert fact["is_projection"] is False, "'by 2020' is in the past"


def test_comma_lists_of_labelled_values(nlp: Language) -> None:
    facts = facts_of(nlp, "Key figures: revenue $5.2bn, EBITDA margin 23%, headcount 12,400.")
    assert [(f["entity"], f["value"]) for f in facts] == [
        ("revenue", "$5.2bn"),
        ("EBITDA margin", "23%"),
        ("headcount", "12,400"),
    ]
    shares = facts_of(nlp, "Market share (2024): Apple 28%, Samsung 23%, Xiaomi 13%.")
    assert [(f["entity"], f["attribute"], f["value"], f["period"]["key"]) for f in shares] == [
        ("Apple", "market share", "28%", "2024"),
        ("Samsung", "market share", "23%", "2024"),
        ("Xiaomi", "market share", "13%", "2024"),
    ]


def test_a_named_line_label_owns_the_metric_and_later_values_continue_it(nlp: Language) -> None:
    facts = facts_of(nlp, "Tesla: revenue $96.8bn (2023), $81.5bn (2022).")
    assert [(f["entity"], f["value"], f["period"]["key"]) for f in facts] == [
        ("Tesla revenue", "$96.8bn", "2023"),
        ("Tesla revenue", "$81.5bn", "2022"),
    ]


def test_a_bullet_with_a_parenthesised_change(nlp: Language) -> None:
    facts = facts_of(nlp, "- Revenue: $5.2bn (+12% YoY)\n- Net income: $1.1bn\n- Users: 45M")
    assert [(f["entity"], f["attribute"], f["value"]) for f in facts] == [
        ("Revenue", "value", "$5.2bn"),
        ("Revenue", "growth", "12%"),
        ("Net income", "value", "$1.1bn"),
        ("Users", "value", "45M"),
    ]
    assert facts[1]["direction"] == "up" and facts[3]["numeric_value"] == 45e6


def test_a_percentage_is_never_the_prior_of_a_count(nlp: Language) -> None:
    facts = facts_of(
        nlp, "The trial enrolled 1,200 patients; 68% responded to treatment, versus 42% on placebo."
    )
    assert [f["value"] for f in facts] == ["1,200"], "68% is the subject of its clause; 42% compares with it"


def test_where_a_metric_is_measured_is_part_of_the_entity(nlp: Language) -> None:
    (fact,) = facts_of(
        nlp, "Operating margin at Wayne Enterprises widened to 39.5% in the third quarter of 2020."
    )
    assert fact["entity"] == "Operating margin at Wayne Enterprises" and fact["period"]["key"] == "2020-Q3"


def test_only_of_makes_a_noun_the_owner(nlp: Language) -> None:
    facts = facts_of(nlp, "The company employs about 34,100 people across 29 countries.")
    assert [(f["entity"], f["unit"]) for f in facts] == [("company", "people"), ("company", "countries")]


def test_a_change_verb_with_by_is_about_its_object(nlp: Language) -> None:
    fact = only(facts_of(nlp, "The drug reduced mortality by 25% in a trial of 5,000 patients."), "25%")
    assert (fact["entity"], fact["attribute"], fact["direction"]) == ("mortality", "decline", "down")


def test_a_duration_is_a_number_with_a_unit(nlp: Language) -> None:
    (fact,) = facts_of(nlp, "Life expectancy rose to 73.4 years in 2023.")
    assert (fact["entity"], fact["attribute"], fact["unit"], fact["value_kind"]) == (
        "Life expectancy",
        "duration",  # a time unit, and nothing else in the sentence names what is measured
        "years",
        "number",
    )
    assert fact["confidence"] == "High"


@pytest.mark.parametrize(
    ("text", "value", "attribute"),
    [
        ("Training took 3.5 days on eight GPUs.", "3.5 days", "duration"),
        ("The shipment weighed 2,204.62 pounds when it arrived.", "2,204.62 pounds", "mass"),
        ("The screen is 2 in. thick.", "2 in", "length"),
        ("The reactor produces 1,200 MW of power.", "1,200 MW", "power"),
        # the entity already names the measure: no "temperature" twice
        ("Winter temperatures in the region range from -18 °C to -34 °C.", "from -18 °C to -34 °C", "value"),
        # "a height of": the noun the value completes is the measure, and the entity
        ("The tower reaches a height of 330 kilometres.", "330 kilometres", "value"),
    ],
)
def test_a_quantity_is_named_by_its_unit_when_nothing_else_names_it(
    nlp: Language, text: str, value: str, attribute: str
) -> None:
    assert only(facts_of(nlp, text), value)["attribute"] == attribute


@pytest.mark.parametrize(
    ("text", "value", "entity", "attribute"),
    [
        ("Three patients withdrew from the study.", "Three", "patients", "count"),
        ("The 12 member states signed the treaty in 1992.", "12", "member states", "count"),
        # the counted noun is a complement of the subject: the subject's head owns the count
        (
            "Experiments on two machine translation tasks show these models to be superior.",
            "two",
            "Experiments",
            "machine translation tasks",
        ),
    ],
)
def test_a_number_that_counts_its_own_subject_is_a_count(
    nlp: Language, text: str, value: str, entity: str, attribute: str
) -> None:
    fact = only(facts_of(nlp, text), value)
    assert (fact["entity"], fact["attribute"]) == (entity, attribute)


def test_a_hyphenated_compound_is_the_counted_noun(nlp: Language) -> None:
    fact = only(facts_of(nlp, "Each layer has two sub-layers."), "two")
    assert (fact["entity"], fact["unit"]) == ("layer", "sub-layers")


def test_a_month_without_a_year_is_still_a_period(nlp: Language) -> None:
    facts = facts_of(nlp, "Inflation in the euro area fell to 2.4% in November 2023 from 2.9% in October.")
    assert [(f["value"], f["period"]["key"]) for f in facts] == [("2.4%", "2023-11"), ("2.9%", "M10")]
    assert facts[1]["comparison"] == "prior" and facts[1]["entity"] == "Inflation in euro area"


def test_markdown_tables_give_row_label_column_period_and_column_metric(nlp: Language) -> None:
    table = "| Metric | 2023 | 2024 |\n|---|---|---|\n| Revenue | $5.2bn | $6.1bn |\n| Employees | 12,000 | 13,500 |"
    facts = facts_of(nlp, table)
    assert [(f["entity"], f["value"], f["period"]["key"]) for f in facts] == [
        ("Revenue", "$5.2bn", "2023"),
        ("Revenue", "$6.1bn", "2024"),
        ("Employees", "12,000", "2023"),
        ("Employees", "13,500", "2024"),
    ]
    (apple,) = facts_of(nlp, "| Company | Revenue |\n| Apple | $383bn |")
    assert (apple["entity"], apple["attribute"], apple["numeric_value"]) == ("Apple", "revenue", 383e9)


def test_tab_separated_label_and_value(nlp: Language) -> None:
    facts = facts_of(nlp, "Revenue\t$5.2bn\nNet income\t$1.1bn")
    assert [(f["entity"], f["value"]) for f in facts] == [("Revenue", "$5.2bn"), ("Net income", "$1.1bn")]


def test_a_news_paragraph(nlp: Language) -> None:
    text = (
        "Alphabet reported third-quarter revenue of $88.3 billion, up 15% from a year earlier, as cloud sales "
        "jumped 35% to $11.4 billion. Its shares, which have gained 20% this year, rose 3% in after-hours trading."
    )
    facts = facts_of(nlp, text)
    assert [(f["entity"], f["attribute"], f["value"]) for f in facts] == [
        ("Alphabet revenue", "value", "$88.3 billion"),
        ("Alphabet revenue", "growth", "15%"),
        ("cloud sales", "growth", "35%"),
        ("cloud sales", "value", "$11.4 billion"),
        ("shares", "growth", "20%"),
        ("shares", "growth", "3%"),
    ]
    assert facts[0]["period"]["key"] == "Q3", "third-quarter is the period, not part of the entity"


def test_a_forecast_baseline_in_the_past_is_not_a_projection(nlp: Language) -> None:
    text = "The global semiconductor market is expected to grow from $527 billion in 2023 to $1 trillion by 2030."
    base, target = facts_of(nlp, text)
    assert (base["value"], base["is_projection"], base["period"]["key"]) == ("$527 billion", False, "2023")
    assert (target["value"], target["is_projection"], target["period"]["key"]) == (
        "$1 trillion",
        True,
        "2030",
    )


def test_a_share_of_a_metric_keeps_share_in_the_attribute(nlp: Language) -> None:
    (fact,) = facts_of(nlp, "Memory chips accounted for roughly 25% of sales.")
    assert (fact["entity"], fact["attribute"]) == ("Memory chips", "share of sales")


def test_a_future_word_inside_a_relative_clause_is_not_a_projection(nlp: Language) -> None:
    (fact,) = facts_of(nlp, "Revenue, which will be reported in detail next week, was $5bn.")
    assert fact["is_projection"] is False and fact["confidence"] == "High"


# --------------------------------------------------------------------------- issue 9: respectively, own-clause periods


def test_respectively_pairs_values_with_their_years_and_names_in_order(nlp: Language) -> None:
    doc = nlp(
        "Depreciation expense was $510 million, $487 million, and $442 million in fiscal 2019, 2018, and 2017, respectively."
    )
    facts = extract_from_doc(doc)["facts"]
    assert [(f["value"], f["period"]["year"]) for f in facts] == [
        ("$510 million", 2019),
        ("$487 million", 2018),
        ("$442 million", 2017),
    ]
    doc = nlp(
        "Revenue for Alpha, Beta and Gamma was $5.7 million, $3.8 million and $3.1 million, respectively."
    )
    facts = extract_from_doc(doc)["facts"]
    assert [(f["entity"], f["attribute"], f["numeric_value"]) for f in facts] == [
        ("Alpha", "revenue", 5.7e6),
        ("Beta", "revenue", 3.8e6),
        ("Gamma", "revenue", 3.1e6),
    ]


def test_each_value_takes_the_period_of_its_own_clause(nlp: Language) -> None:
    doc = nlp("Headcount rose from 3,331 employees at June 30, 2018 to 3,667 at June 30, 2019.")
    periods = {f["value"]: f["period"]["key"] for f in extract_from_doc(doc)["facts"]}
    assert periods == {"3,331": "2018-06-30", "3,667": "2019-06-30"}
    doc = nlp("The guarantee at 31 December 2019 totalled £13.0 million (2018: £12.4 million).")
    periods = {f["value"]: f["period"]["key"] for f in extract_from_doc(doc)["facts"]}
    assert periods == {"£13.0 million": "2019-12-31", "£12.4 million": "2018"}


def test_a_bracketed_conversion_shares_the_owner_of_its_value(nlp: Language) -> None:
    facts = extract_from_doc(nlp("The average weight is 10kg (25lbs)."))["facts"]
    assert [(f["entity"], f["numeric_value"], f["unit"]) for f in facts] == [
        ("average weight", 10.0, "kg"),
        ("average weight", 25.0, "lbs"),
    ]


def test_an_amount_of_something_is_about_that_something(nlp: Language) -> None:
    facts = extract_from_doc(nlp("As of December 31, 2019, we had $54.5 million of debt outstanding."))[
        "facts"
    ]
    assert [(f["entity"], f["numeric_value"], f["period"]["year"]) for f in facts] == [("debt", 54.5e6, 2019)]


@pytest.mark.parametrize(
    ("text", "value", "entity", "attribute"),
    [
        ("In February 2016, we granted 547,000 PSUs with certain targets.", "547,000", "PSUs", "count"),
        ("We recorded an $872 million charge which was a reversal.", "$872 million", "charge", "value"),
        (
            "We borrowed $72.3 million under our credit facilities during 2019.",
            "$72.3 million",
            "credit facilities",
            "debt",
        ),
        (
            "Of participants with GHQ symptoms, 47.4% also had depressive symptoms.",
            "47.4%",
            "participants",
            "share",
        ),
        ("Out of the 54 functions, 26 begin with the common prefix.", "26", "functions", "count"),
    ],
)
def test_an_ownerless_value_is_about_what_it_measures(
    nlp: Language, text: str, value: str, entity: str, attribute: str
) -> None:
    fact = only(facts_of(nlp, text), value)
    assert (fact["entity"], fact["attribute"]) == (entity, attribute)
    if fact["confidence_features"]["entity_anchor"] == "measured":
        assert fact["confidence"] != "High", "an owner found by fallback is never certain"


def test_a_conjoined_verb_after_a_false_sentence_break_keeps_the_subject(nlp: Language) -> None:
    facts = facts_of(nlp, "The screen is 2 in. thick and weighs 3 oz.")
    assert [(f["value"], f["entity"], f["unit"]) for f in facts] == [
        ("2 in", "screen", "in"),
        ("3 oz", "screen", "oz"),
    ]


def test_from_x_noun_to_y_carries_the_noun(nlp: Language) -> None:
    facts = facts_of(nlp, "Headcount fell from 3,331 employees at June 30, 2018 to 3,667 at June 30, 2019.")
    later = only(facts, "3,667")
    assert (later["value_kind"], later["unit"], later["period"]["year"]) == ("count", "employees", 2019)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Acme hired 45, 50 and 60 engineers.", {"45": "engineers", "50": "engineers", "60": "engineers"}),
        ("The team studied two marine cores.", {"two": "marine cores"}),
        ("Their experiment lasted for 84 days.", {"84 days": "days"}),
    ],
)
def test_counts_and_durations(nlp: Language, text: str, values: dict[str, str]) -> None:
    facts = facts_of(nlp, text)
    assert {f["value"]: f["unit"] for f in facts} == values


@pytest.mark.parametrize(
    "text",
    [
        "Our analysis focused on one of these clones, clone 23 (hSOX2-23).",
        "Pressure was read with an OMRON HEM 907 monitor.",
        "Revenue for the first nine months of 2019 rose sharply.",
    ],
)
def test_identifiers_and_time_windows_are_not_facts(nlp: Language, text: str) -> None:
    assert facts_of(nlp, text) == [], "a name with a number and a window of time measure nothing"


@pytest.mark.parametrize(
    ("text", "estimate", "entity", "interval", "bounds"),
    [
        (
            "Mortality was 12.3% (95% CI 10.1-14.5) in the treatment group.",
            "12.3%",
            "Mortality",
            "95% CI",
            "10.1-14.5",
        ),
        (
            "Vaccine efficacy was 94.1% (95% CI, 89.3 to 96.8%).",
            "94.1%",
            "Vaccine efficacy",
            "95% CI",
            "89.3 to 96.8%",
        ),
        ("Prevalence reached 7.5% (95% UI 6.9-8.2) in 2019.", "7.5%", "Prevalence", "95% UI", "6.9-8.2"),
    ],
)
def test_an_interval_belongs_to_its_estimate_and_its_level_is_no_change(
    nlp: Language, text: str, estimate: str, entity: str, interval: str, bounds: str
) -> None:
    facts = facts_of(nlp, text)
    assert only(facts, estimate)["entity"] == entity
    level = only(facts, "95%")
    assert (level["entity"], level["attribute"], level["value_kind"]) == (
        entity,
        f"{interval.split()[1]} level",
        "percentage",
    )
    bound = only(facts, bounds)
    assert (bound["entity"], bound["attribute"]) == (entity, interval)


@pytest.mark.parametrize(
    ("text", "value", "entity"),
    [
        ("In this work we employ _h_ = 8 parallel attention layers, or heads.", "8", "h"),
        ("We set the dropout rate P_drop = 0.1 for the base model.", "0.1", "dropout rate P_drop"),
        ("The base model uses d_model = 512 throughout.", "512", "d_model"),
        ("Net margin = 12% in the last quarter.", "12%", "Net margin"),
    ],
)
def test_the_left_side_of_an_equation_is_the_term_not_the_clause(
    nlp: Language, text: str, value: str, entity: str
) -> None:
    assert only(facts_of(nlp, text), value)["entity"] == entity


@pytest.mark.parametrize(
    ("text", "value", "entity"),
    [
        # the parser hangs the value on a noun inside the bracket after it
        ("The hazard ratio was 0.72 (95% confidence interval, 0.61 to 0.85).", "0.72", "hazard ratio"),
        # and the first end of "from X% to Y%" on the second one's "%"
        ("Accuracy improved from 76.5% to 81.2% after fine-tuning.", "76.5%", "Accuracy"),
    ],
)
def test_the_subject_owns_a_value_the_parser_attached_elsewhere(
    nlp: Language, text: str, value: str, entity: str
) -> None:
    fact = only(facts_of(nlp, text), value)
    assert (fact["entity"], fact["confidence_features"]["entity_anchor"]) == (entity, "subject")


def test_a_hyphen_inside_a_name_is_not_a_list_dash(nlp: Language) -> None:
    fact = only(facts_of(nlp, "BERT-large obtains 80.5% accuracy on GLUE."), "80.5%")
    assert fact["entity"].startswith("BERT-large") and fact["attribute"] == "accuracy"  # the whole name


@pytest.mark.parametrize(
    ("sentence", "today", "projected"),
    [
        # A target year at or after the request's year is still to come; before it, it has passed.
        ("Revenue of $5 billion by 2025 is the goal.", "2024-01-01", {"$5 billion": True}),
        ("Revenue of $5 billion by 2025 is the goal.", "2027-01-01", {"$5 billion": False}),
        # "grow from $527 billion in 2023": once 2023 has passed, the baseline is a reported figure.
        (
            "The market is forecast to grow from $527 billion in 2023 to $1 trillion.",
            "2024-01-01",
            {"$527 billion": False, "$1 trillion": True},
        ),
        (
            "The market is forecast to grow from $527 billion in 2023 to $1 trillion.",
            "2022-06-01",
            {"$527 billion": True, "$1 trillion": True},
        ),
    ],
)
def test_a_projection_is_judged_against_the_date_passed_in(
    nlp: Language, sentence: str, today: str, projected: dict[str, bool]
) -> None:
    # Issue 17: the rules never read the clock, so the same text gives the same facts in any year.
    from datetime import date

    found = extract_from_doc(nlp(sentence), today=date.fromisoformat(today))["facts"]
    assert {f["value"]: f["is_projection"] for f in found} == projected
