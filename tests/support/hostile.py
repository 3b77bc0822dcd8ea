"""Hostile inputs for the hardening tests: what a language model might make up, and worse.

Kept as data so the fuzz tests, the fault tests and ``make figures`` draw from one list.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

NASTY_STRINGS: list[str] = [
    "",
    " ",
    "\n\t\r",
    "\x00",
    "a\x00b",
    "‮gnp.exe‬",  # RTL override
    "مرحبا بالعالم",  # Arabic (RTL)
    "e\u0301\u0301\u0301\u0301",  # stacked combining marks
    "Z̸̡̢̛̗̘̙̜̝̞̟̠̀́̂̃̄̅̆̇̈̉̊̋̌̍̎̏̐̑̒̓",  # "zalgo"
    "\ufeff\u200b\u200d",  # BOM, zero-width
    "👩‍👩‍👧‍👦" * 50,
    "../../etc/passwd",
    "..\\..\\windows\\win.ini",
    "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/etc/passwd",
    "1706.03762/../../x",
    "1706.03762v5/..",
    "hep-th/../../9901001",
    "arxiv:../1706.03762",
    "file:///etc/passwd",
    "http://127.0.0.1:1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "gopher://localhost:70/",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "ftp://example.com/x",
    "https://",
    "http://exa mple.com",
    "' OR 1=1 --",
    '"; DROP TABLE papers; --',
    "ti:(((((((((((",
    'abs:"unterminated',
    "submittedDate:[2023 TO",
    "AND OR ANDNOT",
    "{{7*7}}",
    "$(rm -rf /)",
    "`id`",
    "-1",
    "NaN",
    "1e309",
    "9" * 400,
]


def huge_string(size: int = 200_000) -> str:
    return ("lorem ipsum $3.2bn " * (size // 19 + 1))[:size]


def deep_json(depth: int = 200) -> Any:
    value: Any = "bottom"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


EDGE_NUMBERS: list[Any] = [
    0,
    -1,
    1,
    2**31,
    -(2**31),
    2**63,
    -(2**63),
    2**64 + 1,
    1e308,
    -1e308,
    0.1,
    -0.0,
    1e-320,
]

scalars = st.one_of(
    st.sampled_from(NASTY_STRINGS),
    st.text(max_size=64),
    st.sampled_from(EDGE_NUMBERS),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
)

json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=20,
)


def arguments_for(
    schema: dict[str, Any], plausible: dict[str, st.SearchStrategy[Any]]
) -> st.SearchStrategy[Any]:
    """Arguments for a tool: each declared property drawn from plausible or hostile values, some dropped,
    and some unknown keys added. (Non-object arguments are sent raw by the JSON-RPC tests.)"""
    properties: dict[str, Any] = schema.get("properties", {})

    def value_for(name: str) -> st.SearchStrategy[Any]:
        options = [json_values, st.just(deep_json()), st.just(huge_string())]
        if name in plausible:
            options = [plausible[name], plausible[name], *options]
        return st.one_of(*options)

    objects = st.fixed_dictionaries(
        {},
        optional={name: value_for(name) for name in properties}
        | {"unexpected_field": json_values, "__proto__": json_values},
    )
    return st.one_of(objects, st.just({}))
