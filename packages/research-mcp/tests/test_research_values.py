"""Regex value and period parsing on sentences written for these tests; expected values read by eye."""

from __future__ import annotations

import pytest
from research_mcp.values import find_periods, find_values, parse_value_string


@pytest.mark.parametrize(
    ("raw", "kind", "number", "currency", "scale"),
    [
        ("$22.4 billion", "currency", 22.4e9, "USD", "billion"),
        ("US$150m", "currency", 150e6, "USD", "million"),
        ("£3.2m", "currency", 3.2e6, "GBP", "million"),
        ("€450k", "currency", 450e3, "EUR", "thousand"),
        ("¥5.35 trillion", "currency", 5.35e12, "JPY", "trillion"),
        ("EUR 3.2bn", "currency", 3.2e9, "EUR", "billion"),
        ("3 billion USD", "currency", 3e9, "USD", "billion"),
        ("5 million euros", "currency", 5e6, "EUR", "million"),
        ("$1.5tn", "currency", 1.5e12, "USD", "trillion"),
        ("$3.2T", "currency", 3.2e12, "USD", "trillion"),
        ("$14.5B", "currency", 14.5e9, "USD", "billion"),
        ("C$2.1 billion", "currency", 2.1e9, "CAD", "billion"),
        ("RMB 100 billion", "currency", 100e9, "CNY", "billion"),
        ("-$3.2 million", "currency", -3.2e6, "USD", "million"),
        ("Rs 5 crore", "currency", 5e7, "INR", "crore"),
        ("22.4billion", "number", 22.4e9, None, "billion"),
        ("22,400 million", "number", 22.4e9, None, "million"),
        ("22.4 mn", "number", 22.4e6, None, "million"),
        ("1,234,567", "number", 1234567.0, None, None),
        ("12 percent", "percentage", 12.0, None, None),
        ("7.5 per cent", "percentage", 7.5, None, None),
        ("-12.5%", "percentage", -12.5, None, None),
        ("−3.4%", "percentage", -3.4, None, None),
        ("4 percentage points", "percentage_points", 4.0, None, None),
        ("150 basis points", "percentage_points", 1.5, None, None),
        ("25bps", "percentage_points", 0.25, None, None),
        ("$0", "currency", 0.0, "USD", None),
        ("0%", "percentage", 0.0, None, None),
    ],
)
def test_a_value_string_parses_to_its_number_currency_and_scale(
    raw: str, kind: str, number: float, currency: str | None, scale: str | None
) -> None:
    v = parse_value_string(raw)
    assert v is not None, f"{raw!r} is one value"
    assert (v.kind, v.currency, v.scale) == (kind, currency, scale), f"{raw!r} read by eye"
    assert v.numeric_value == pytest.approx(number), f"{raw!r} is {number}"


def test_the_four_spellings_of_the_seed_number_are_the_same_number() -> None:
    numbers = [parse_value_string(s) for s in ("$22.4 billion", "22.4billion", "22,400 million", "US$22.4bn")]
    assert all(v is not None for v in numbers)
    assert {round(v.numeric_value) for v in numbers if v} == {22_400_000_000}, (
        "22.4 billion in every spelling"
    )


def test_a_scale_letter_after_a_currency_is_never_a_metre() -> None:
    v = parse_value_string("£3.2m")
    assert v is not None and v.scale == "million" and v.unit == "GBP", "£3.2m is 3.2 million pounds"
    spaced = find_values("The track is 100 m long.")
    assert [x.numeric_value for x in spaced] == [100.0], "100 m without a currency is not 100 million"


def test_a_year_standing_alone_is_a_date_not_a_value() -> None:
    text = "In 2023 the company hired 1,200 people."
    periods = find_periods(text)
    assert [p.key for p in periods] == ["2023"]
    values = find_values(text, exclude=[p.span for p in periods])
    assert [v.text for v in values] == ["1,200"], "only the head count is a value"


def test_labels_identifiers_and_references_are_not_values() -> None:
    text = "GPT-4 beat the baseline in Table 2 [12], see Section 4."
    assert find_values(text) == [], "GPT-4, Table 2, [12] and Section 4 carry no quantity"


@pytest.mark.parametrize(
    ("text", "low", "high", "kind"),
    [
        ("Estimates range from $10 billion to $12 billion.", 10e9, 12e9, "currency"),
        ("Growth of between 5% and 7% is expected.", 5.0, 7.0, "percentage"),
        ("A cost of $10-12 billion.", 10e9, 12e9, "currency"),
        ("A rate of 10–12%.", 10.0, 12.0, "percentage"),
        ("It will cost $5bn-$6bn.", 5e9, 6e9, "currency"),
        ("Growth of 5%-7% a year.", 5.0, 7.0, "percentage"),
        ("Estimates range from -5% to -3%.", -5.0, -3.0, "percentage"),
        ("Between 5 and 7 million units.", 5e6, 7e6, "number"),
    ],
)
def test_ranges_keep_both_ends_and_share_the_scale(text: str, low: float, high: float, kind: str) -> None:
    values = find_values(text)
    assert len(values) == 1, f"one range in {text!r}"
    v = values[0]
    assert v.kind == kind
    assert (v.low, v.high) == (pytest.approx(low), pytest.approx(high)), (
        "the low end takes the high end's scale"
    )


def test_several_values_in_one_line_are_all_found() -> None:
    text = "Revenue: $5.2M | Net income: $1.1M | Margin: 21%"
    assert [v.text for v in find_values(text)] == ["$5.2M", "$1.1M", "21%"]


@pytest.mark.parametrize(
    ("text", "type_", "key", "start", "end"),
    [
        ("Q3 2024", "quarter", "2024-Q3", "2024-07-01", "2024-09-30"),
        ("3Q24", "quarter", "2024-Q3", "2024-07-01", "2024-09-30"),
        ("the fourth quarter of 2023", "quarter", "2023-Q4", "2023-10-01", "2023-12-31"),
        ("H1 2023", "half", "2023-H1", "2023-01-01", "2023-06-30"),
        ("second half of 2022", "half", "2022-H2", "2022-07-01", "2022-12-31"),
        ("FY2024", "fiscal_year", "FY2024", None, None),
        ("FY24", "fiscal_year", "FY2024", None, None),
        ("fiscal 2023", "fiscal_year", "FY2023", None, None),
        ("Q3 FY2025", "fiscal_quarter", "FY2025-Q3", None, None),
        ("March 2024", "month", "2024-03", "2024-03-01", "2024-03-31"),
        ("February 2024", "month", "2024-02", "2024-02-01", "2024-02-29"),
        ("June 30, 2024", "day", "2024-06-30", "2024-06-30", "2024-06-30"),
        ("5 March 2024", "day", "2024-03-05", "2024-03-05", "2024-03-05"),
        ("2024-03-05", "day", "2024-03-05", "2024-03-05", "2024-03-05"),
        ("2024", "year", "2024", "2024-01-01", "2024-12-31"),
        ("2020-2025", "year_range", "2020-2025", "2020-01-01", "2025-12-31"),
    ],
)
def test_periods_keep_their_precision(
    text: str, type_: str, key: str, start: str | None, end: str | None
) -> None:
    periods = find_periods(f"Sales were flat in {text}.")
    assert len(periods) == 1, f"one period in {text!r}"
    p = periods[0]
    assert (p.type, p.key, p.start, p.end) == (type_, key, start, end), f"{text!r} read by eye"


def test_as_of_dates_and_targets_are_marked() -> None:
    periods = find_periods("As of December 31, 2023 it had 5 stores and plans 20 by 2030.")
    assert [(p.key, p.as_of, p.target) for p in periods] == [
        ("2023-12-31", True, False),
        ("2030", False, True),
    ]


def test_text_that_is_not_one_number_does_not_parse() -> None:
    assert parse_value_string("Paris") is None
    assert parse_value_string("") is None
    assert parse_value_string("between 3 and 4 and 5 and 6") is None, "two numbers are not one value"


def test_a_period_inside_a_value_string_is_kept_aside() -> None:
    v = parse_value_string("€1.2 billion (2023)")
    assert v is not None and v.numeric_value == pytest.approx(1.2e9) and v.currency == "EUR"
    period = v.extras.get("period")
    assert period is not None and period.key == "2023"


@pytest.mark.parametrize(
    ("text", "kind", "number"),
    [
        ("two million users", "number", 2e6),
        ("five percent", "percentage", 5.0),
        ("twenty-five per cent", "percentage", 25.0),
        ("a billion dollars", "currency", 1e9),
        ("three hundred thousand people", "number", 3e5),
        ("zero percent", "percentage", 0.0),
    ],
)
def test_amounts_in_words(text: str, kind: str, number: float) -> None:
    values = find_values(text)
    assert len(values) == 1 and values[0].kind == kind
    assert values[0].numeric_value == pytest.approx(number), f"{text!r} read by eye"


def test_number_words_alone_are_not_values() -> None:
    assert find_values("It is one of the two largest firms.") == [], "no scale, no percent: not an amount"


def test_quarter_written_with_of_and_apostrophe() -> None:
    keys = [p.key for p in find_periods("Revenue was up in Q3'24 and down in Q3 of 2023.")]
    assert keys == ["2024-Q3", "2023-Q3"]


# --------------------------------------------------------------------------- issue 9: units vs currencies, signs, ranges
# Shapes from issue 9 (and quantulum3's test sentences, MIT); expected readings are the issue's.


def _one(text: str) -> list[tuple[str, float, str | None, str | None]]:
    periods = find_periods(text)
    return [
        (v.text, v.numeric_value, v.currency, v.unit)
        for v in find_values(text, exclude=[p.span for p in periods])
    ]


def test_pounds_of_weight_are_not_sterling_but_pounds_spent_are() -> None:
    assert _one("The cargo weighed 2,204.62 pounds.") == [("2,204.62 pounds", 2204.62, None, "lb")]
    assert _one("I spent 20 million pounds on this!") == [("20 million pounds", 20e6, "GBP", "GBP")]
    assert _one("It costs 40 pounds a ticket.")[0][2] == "GBP"
    assert _one("A 16 oz steak and 3 ounces of salt") == [
        ("16 oz", 16.0, None, "oz"),
        ("3 ounces", 3.0, None, "oz"),
    ]


def test_lower_case_and_signed_currency_forms_keep_their_currency() -> None:
    found = _one("It raised us$150 million, and its rival hk$10 billion; the loss was -15€ ($-99.99).")
    assert [(t, c) for t, _, c, _ in found] == [
        ("us$150 million", "USD"),
        ("hk$10 billion", "HKD"),
        ("-15€", "EUR"),
        ("$-99.99", "USD"),
    ]
    assert [v for _, v, _, _ in found][2:] == [-15.0, -99.99]


def test_inches_only_where_a_length_reads_that_way() -> None:
    assert _one("The length of my pencil is 2 in.") == [("2 in", 2.0, None, "in")]
    assert _one("The door is 3 in thick.") == [("3 in", 3.0, None, "in")]
    assert [u for *_, u in _one("Roughly 3 in 10 people agreed.")] == [None, None]


def test_a_range_with_units_is_one_value_in_either_order() -> None:
    (v,) = find_values("Temperatures ranged from -18 °C to -34 °C overnight.")
    assert (v.low, v.high, v.unit) == (-34.0, -18.0, "°C")
    (w,) = find_values("They were given between 44 and 50 mg ethanol.")
    assert (w.low, w.high, w.unit) == (44.0, 50.0, "mg")
    assert len(find_values("They were changed from 44 ml to 50 mg ethanol.")) == 2  # two units: not a range


def test_a_value_and_its_bracketed_conversion_are_both_found() -> None:
    assert _one("The average weight is 10kg (25lbs).") == [
        ("10kg", 10.0, None, "kg"),
        ("25lbs", 25.0, None, "lbs"),
    ]
    assert _one("It orbits 1,500,000 kilometres (930,000 mi) away.") == [
        ("1,500,000 kilometres", 1.5e6, None, "km"),
        ("930,000 mi", 930000.0, None, "mi"),
    ]


def test_a_scale_letter_is_still_never_a_unit() -> None:
    assert _one("Revenue was £3.2m and 5 m users signed up.") == [
        ("£3.2m", 3.2e6, "GBP", "GBP"),
        ("5", 5.0, None, None),
    ]
    assert _one("The shark is 5 m long.") == [("5 m", 5.0, None, "m")]


def test_continental_number_forms_are_read_next_to_a_currency_only() -> None:
    # forms from price-parser's test strings (BSD-3): decimal commas, dot and space groups
    assert _one("The price is 48,96 €.") == [("48,96 €", 48.96, "EUR", "EUR")]
    assert _one("The price is € 2.109,00.") == [("€ 2.109,00", 2109.0, "EUR", "EUR")]
    assert _one("The price is Rp 1.550.000.") == [("Rp 1.550.000", 1550000.0, "IDR", "IDR")]
    assert _one("It was valued at 10 000 dollars and 75 000 руб.") == [
        ("10 000 dollars", 10000.0, "USD", "USD"),
        ("75 000 руб.", 75000.0, "RUB", "RUB"),
    ]
    # no currency: English reading, nothing guessed
    assert _one("Of 1,234 firms, 1,5 said so") == [("1,234", 1234.0, None, None)]
    assert _one("Revenue was $1,234.5 million.") == [("$1,234.5 million", 1234.5e6, "USD", "USD")]


def test_a_length_with_a_power_is_an_area_or_a_volume() -> None:
    # quantulum3's test sentence (MIT): "Italy covers an area of 301,338 km2 (116,347 sq mi)."
    assert _one("Italy covers an area of 301,338 km2 (116,347 sq mi).") == [
        ("301,338 km2", 301338.0, None, "km2"),
        ("116,347 sq mi", 116347.0, None, "sq mi"),
    ]
    assert _one("a volume of 4km^3 and 3 cm³") == [("4km^3", 4.0, None, "km^3"), ("3 cm³", 3.0, None, "cm³")]


def _read(text: str, **kwargs: bool) -> list[tuple[str, float, str | None]]:
    return [(v.text, round(v.numeric_value, 9), v.unit) for v in find_values(text, **kwargs)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("They kept running for 3 years, 2 months", [("3 years", 3.0, "years"), ("2 months", 2.0, "months")]),
        ("a two-year maintenance period", [("two-year", 2.0, "year")]),
        ("a 64-year-old male", [("64-year", 64.0, "year")]),
        ("the dinosaurs lived 66 Ma ago", [("66 Ma", 66.0, "Ma")]),
        ("the mean diameter was 0.296 μm.", [("0.296 μm", 0.296, "μm")]),
        ("supplemented with 2 mM glutamine", [("2 mM", 2.0, "mM")]),
        ("50 μg/ml uridine", [("50 μg/ml", 50.0, "μg/ml")]),
        ("This car only uses 10 l/km.", [("10 l/km", 10.0, "l/km")]),
        ("at 5 km per hour", [("5 km per hour", 5.0, "km per hour")]),
        ("a deposition velocity of 0.02 cm s−1", [("0.02 cm s−1", 0.02, "cm s−1")]),
        ("it falls at 9.8 m/s2", [("9.8 m/s2", 9.8, "m/s2")]),
        ("4 km squared", [("4 km squared", 4.0, "sq km")]),
        ("The door is 2 1/2 in thick", [("2 1/2 in", 2.5, "in")]),
        ("a 1/4 inch gap", [("1/4 inch", 0.25, "in")]),
        ("add ½ tbsp of salt", [("½ tbsp", 0.5, "tbsp")]),
        ('uses finest 9" plates', [('9"', 9.0, "in")]),
        ("a significance level of .05", [(".05", 0.05, None)]),
        ("χM∼5×10−4 emu", [("5×10−4", 0.0005, None)]),
        ("a radius of 3.2 × 10^6 km", [("3.2 × 10^6 km", 3.2e6, "km")]),
    ],
)
def test_units_durations_fractions_and_notation(
    text: str, expected: list[tuple[str, float, str | None]]
) -> None:
    assert _read(text) == expected, "read by eye"


@pytest.mark.parametrize(
    "text",
    [
        "Revenue for the first nine months of 2019",  # a time window names a period
        "in the three months ended March 31",
        "over the past 5 years",
        "as shown in Figures 3K and 3L",  # labels, also in a list
        "uptake of [11C]PK11195",  # an isotope
        "(Kounaves et al., 2010b)",  # a citation key, not 2010 billion
        "on a scale where 1 = agree",  # a code being defined
        "MACS J1149.5+6663",  # an identifier
        "on 3/4/2020, open 24/7",  # dates and ratios are not fractions
    ],
)
def test_windows_labels_codes_and_identifiers_are_not_values(text: str) -> None:
    values = find_values(text, exclude=[p.span for p in find_periods(text)])
    assert [v for v in values if not v.year_like] == [], text


def test_a_closing_quote_is_not_an_inch_mark() -> None:
    assert [v.unit for v in find_values('he said "call me at 9" and left')] == [None]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("They were given 45 and 50 mg ethanol.", [("45", 45.0, "mg"), ("50 mg", 50.0, "mg")]),
        ("soils incubated for 9 or 4.8 months", [("9", 9.0, "months"), ("4.8 months", 4.8, "months")]),
        ("sites 3, 4 or 5 km apart", [("3", 3.0, "km"), ("4", 4.0, "km"), ("5 km", 5.0, "km")]),
        ("shares rose 5 and 7%", [("5", 5.0, "%"), ("7%", 7.0, "%")]),
        ("odds ratio 2.30, 95% CI", [("2.30", 2.3, None), ("95%", 95.0, "%")]),  # a comma alone is no list
    ],
)
def test_a_unit_stated_once_applies_to_each_listed_number(
    text: str, expected: list[tuple[str, float, str | None]]
) -> None:
    assert _read(text) == expected, "read by eye"


@pytest.mark.parametrize(
    ("raw", "number", "currency"),
    [
        ("269 Kč", 269.0, "CZK"),
        ("SGD$4.90", 4.9, "SGD"),
        ("CHF 1'049.95", 1049.95, "CHF"),
        ("5 or 6 Kč", 5.0, "CZK"),
    ],
)
def test_currencies_after_the_number_and_swiss_apostrophes(raw: str, number: float, currency: str) -> None:
    v = find_values(raw)[0]
    assert (v.numeric_value, v.currency) == (number, currency)


def test_spelled_counts_only_when_asked() -> None:
    text = "We used three indicators and two-thirds of one sample."
    assert find_values(text) == []
    (three,) = find_values(text, spelled_counts=True)
    assert (three.text, three.numeric_value, three.extras.get("spelled")) == ("three", 3.0, True)


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("between January and March 2020", ["2020-01", "2020-03"]),
        ("January, February and March 2020", ["2020-01", "2020-02", "2020-03"]),
        ("from April to June 2023", ["2023-04", "2023-06"]),
        ("in Q1 and Q2 2022", ["2022-Q1", "2022-Q2"]),
        ("from 1 March to 30 June 2020", ["2020-03-01", "2020-06-30"]),
        ("from December to February 2021", ["2020-12", "2021-02"]),  # a range runs forward in time
        ("In March, sales rose; in 2020 they fell", ["M03", "2020"]),  # not one series: no year given
        ("Q4 and FY2022", ["Q4", "FY2022"]),  # a fiscal year does not date a calendar quarter
    ],
)
def test_a_period_without_its_year_takes_the_year_of_its_series(text: str, keys: list[str]) -> None:
    assert [p.key for p in find_periods(text)] == keys


def test_every_scale_word_of_the_data_file_is_read() -> None:
    # Issue 17: the pattern is built from scales.json, so a word added there is matched (it once lived in
    # a regex of its own beside the file). Abbreviations listed as case-sensitive match only as written.
    import re

    from research_mcp.values import amounts, lexicon

    pattern = re.compile(amounts._scale_source())
    exact = lexicon.SCALE_CASE_SENSITIVE
    for word in lexicon.SCALE_WORDS:
        forms = [e for e in exact if e.lower() == word] or [word, word.upper(), word.title()]
        for form in forms:
            assert pattern.fullmatch(form), form
    assert pattern.fullmatch("mm") is None, "millimetres"
    assert pattern.fullmatch("t") is None, "tonnes"
