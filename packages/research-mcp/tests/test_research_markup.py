"""mask_markup: a paper's math, citation markers and cross-references are not prose; money is."""

from __future__ import annotations

import pytest
from research_mcp.markup import mask_markup


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        (
            "with $\\delta Q$ representing the flux and $T$ the temperature",
            ["\\delta", "$T$"],
            ["representing"],
        ),
        ("the relation\n\n$$\\delta Q=TdS,$$ (1)\n\napplied to horizons", ["TdS", "(1)"], ["applied to"]),
        ("first in $1+1$ dimensions, then the $3+1$ case", ["1+1", "3+1"], ["dimensions"]),
        ("a rate of $10^{-3}$ and the number $3$", ["10^", "$3$"], ["a rate of"]),
        ("the interplay [23, 24, 25] and a result [3–5]", ["23", "24", "3–5"], ["the interplay"]),
        (
            "black holes [Hayward:2005gi; 1968qtr..conf...87B; Bozza_2002].",
            ["Hayward", "Bozza"],
            ["black holes"],
        ),
        (
            "as argued (Luo et al., 2022) and by Smith et al. (2021)",
            ["Luo", "2022", "Smith", "2021"],
            ["as argued"],
        ),
        (
            "paraphrasing (Dolan and Brockett, 2005; Rajpurkar et al., 2016a), which",
            ["Dolan", "2016a"],
            ["which"],
        ),
        (
            "## **1 Introduction**\n\n**3.1** **Pre-training BERT**",
            ["## **1", "3.1"],
            ["Introduction**", "**Pre-training"],
        ),
        ("shown in Fig. 3, Eq. (5) and Eqs. eq:5, eq:6", ["Fig. 3", "(5)", "eq:5", "eq:6"], ["shown in"]),
        ("as in Section VI and Appendix A, see Table 2", ["Section VI", "Appendix A", "Table 2"], ["as in"]),
        ("intro\n## III.2 Timelike geodesics\ntext", ["##", "III.2"], ["Timelike geodesics"]),
        # A listing as papers-mcp writes it (2311.12871's ar5iv page): code, not prose.
        (
            "as follows.\n\n```python\ndef refined_em(pred, gts):\n    return True  # case 1\n```\n\nIn a nutshell",
            ["```", "refined_em", "return True", "case 1"],
            ["as follows.", "In a nutshell"],
        ),
    ],
)
def test_markup_is_blanked_and_the_rest_stays_in_place(text: str, gone: list[str], kept: list[str]) -> None:
    masked = mask_markup(text)
    assert len(masked) == len(text) and masked.count("\n") == text.count("\n")
    assert all(g not in masked for g in gone), masked
    assert all(k in masked and masked.index(k) == text.index(k) for k in kept), masked


@pytest.mark.parametrize(
    "text",
    [
        "Revenue rose from $5 million to $10 million, and $3.2bn in 2023.",
        "It costs $5 and $10 respectively; US$150 million was raised.",
        "Values lie in the range [0.5, 1.0] and the pair [x, y] is ordered.",
        "Apple (founded 1976) and Fig trees; see the Figure.",
        "Revenue (FY 2023) rose, sales (March 2020) fell, Q3 (2021) too; net income (2023): $5M.",
        "2019 Revenue grew\n1. The first step",
    ],
)
def test_money_ranges_and_prose_are_left_alone(text: str) -> None:
    assert mask_markup(text) == text


def test_a_symbol_set_to_a_number_stays_readable() -> None:
    assert mask_markup("we employ $h=8$ heads") == "we employ  h=8  heads"
