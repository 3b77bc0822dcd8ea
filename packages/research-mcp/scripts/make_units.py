"""Regenerate ``src/research_mcp/data/units.json`` from quantulum3's unit table (MIT licence).

Usage: ``python scripts/make_units.py path/to/quantulum3/units.json``. Not run at build or run time:
the JSON it writes is committed and shipped in the package. It keeps the physical units people
write after a number in prose (lengths, masses, volumes, temperatures, energy, power, data...),
expands the SI prefixes quantulum3 lists for a unit (``metre`` + ``k`` -> ``kilometre``/``km``),
and leaves out what reads as plain English or clashes with our rules: single-letter symbols that
are scales (``k m M b B T``), prime marks, and unit words that are everyday nouns (``quarter``,
``span``, ``drop``, ``point``, ``dots``). Time units are in (``3 years``, ``66 Ma``, ``5 min``):
whether a time word is a duration or a time window is decided where it is read (``values.units``).
Units of the dimensions added later never take a symbol an earlier unit has (``C`` stays Celsius,
not coulomb), and every ``µ`` symbol is also written with the Greek ``μ`` that scientific text uses.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

KEEP = {
    "length", "mass", "volume", "temperature", "area", "speed", "energy", "power", "data storage",
    "data transfer rate", "frequency", "pressure", "force", "acceleration", "electric potential",
    "current", "volumetric flow", "radiation absorbed dose", "sound level", "density",
}  # fmt: skip
# Dimensions added in a second pass (science and engineering text); their symbols yield to the ones above.
KEEP_LATER = {
    "time", "angle", "charge", "amount of substance", "instance frequency", "mass flow", "typographical element",
    "electrical resistance", "torque", "luminous flux", "illuminance", "radioactivity",
}  # fmt: skip
DROP_NAMES = {"quarter", "span", "drop", "ell", "cubit", "twip", "barn", "bar", "cup", "shake", "steradian",
              "stere", "peck", "league", "point", "dime", "quintal", "bushel", "hartree", "barye", "rutherford",
              "faraday", "minute of arc", "second of arc", "statcoulomb", "lustrum", "statohm"}  # fmt: skip
DROP_WORDS = {
    "dots",
    "pel",
    "pels",
    "annum",
    "annums",
    "degree",
    "degrees",
    "µs",
}  # everyday words ("degrees" is read by amounts.py)
# Prefixes that make sense for a unit whose quantulum3 list is wider ("Pa" is pascal, not a peta-annum).
PREFIXES_OF = {"year": {"k", "M", "G"}}
DROP_SYMBOLS = {
    "k",
    "m",
    "M",
    "b",
    "B",
    "T",
    "'",
    '"',
    "″",
    "”",
    "′",
    "a",
    "y",
    "p",
    "q",
    "u",
    "st",
    "t",
    "P",
}
PREFIXES = {"k": "kilo", "M": "mega", "G": "giga", "T": "tera", "m": "milli", "µ": "micro", "n": "nano",
            "c": "centi"}  # fmt: skip
# Ours (same licence as the package): units quantulum3 lacks or that we keep as symbols only. Time *words*
# stay out (fact-extract reads "3 years" as a duration noun); their symbols are unambiguous after a number.
EXTRA_UNITS = [
    {"name": "megawatt hour", "symbol": "MWh", "dimension": "energy", "words": ["megawatt hour", "megawatt hours", "megawatt-hour", "megawatt-hours"], "symbols": ["MWh"]},
    {"name": "gigawatt hour", "symbol": "GWh", "dimension": "energy", "words": ["gigawatt hour", "gigawatt hours", "gigawatt-hour", "gigawatt-hours"], "symbols": ["GWh"]},
    {"name": "terawatt hour", "symbol": "TWh", "dimension": "energy", "words": ["terawatt hour", "terawatt hours", "terawatt-hour", "terawatt-hours"], "symbols": ["TWh"]},
    {"name": "hour", "symbol": "h", "dimension": "time", "words": [], "symbols": ["h", "hr", "hrs"]},
    {"name": "minute", "symbol": "min", "dimension": "time", "words": [], "symbols": ["min", "mins"]},
    {"name": "second", "symbol": "s", "dimension": "time", "words": [], "symbols": ["s", "sec", "secs"]},
    {"name": "millisecond", "symbol": "ms", "dimension": "time", "words": ["millisecond", "milliseconds"], "symbols": ["ms"]},
    {"name": "microsecond", "symbol": "µs", "dimension": "time", "words": ["microsecond", "microseconds"], "symbols": ["µs", "μs"]},
    {"name": "nanosecond", "symbol": "ns", "dimension": "time", "words": ["nanosecond", "nanoseconds"], "symbols": ["ns"]},
    {"name": "watt hour", "symbol": "Wh", "dimension": "energy", "words": ["watt hour", "watt hours", "watt-hour", "watt-hours"], "symbols": ["Wh"]},
    {"name": "decade", "symbol": "decades", "dimension": "time", "words": ["decade", "decades"], "symbols": []},
    {"name": "kilodalton", "symbol": "kDa", "dimension": "mass", "words": ["kilodalton", "kilodaltons"], "symbols": ["kDa"]},
    {"name": "millimole", "symbol": "mmol", "dimension": "amount of substance", "words": ["millimole", "millimoles"], "symbols": ["mmol"]},
    {"name": "micromole", "symbol": "µmol", "dimension": "amount of substance", "words": ["micromole", "micromoles"], "symbols": ["µmol"]},
    {"name": "nanomole", "symbol": "nmol", "dimension": "amount of substance", "words": ["nanomole", "nanomoles"], "symbols": ["nmol"]},
    {"name": "millimolar", "symbol": "mM", "dimension": "concentration", "words": ["millimolar"], "symbols": ["mM"]},
    {"name": "micromolar", "symbol": "µM", "dimension": "concentration", "words": ["micromolar"], "symbols": ["µM"]},
    {"name": "nanomolar", "symbol": "nM", "dimension": "concentration", "words": ["nanomolar"], "symbols": ["nM"]},
]  # fmt: skip
# Symbols quantulum3 lacks for a unit it has (geological time: "66 Ma", "170 ka", "12 kyr").
EXTRA_SYMBOLS = {"kiloyear": ["kyr"], "megayear": ["Myr"], "gigayear": ["Gyr"], "week": ["wk", "wks"], "year": ["yrs"],
                 "day": ["d"], "minute": ["mins"], "second": ["secs"], "microsecond": ["µs"]}  # fmt: skip
PLURAL_IRREGULAR = {
    "foot": "feet",
    "inch": "inches",
    "henry": "henries",
    "century": "centuries",
    "millennium": "millennia",
}


def plural(word: str) -> str:
    if word[:1].isupper() or word.split()[0].endswith("s"):
        return word  # "Celsius", "kgs": no plural
    if word in PLURAL_IRREGULAR:
        return PLURAL_IRREGULAR[word]
    head, _, tail = word.partition(" per ")
    first, sep, rest = head.partition(" ")
    if first.startswith("degree"):
        head = "degrees" + (sep + rest if sep else "")
    elif head.endswith(("s", "x", "ch", "sh")):
        head += "es"
    else:
        head += "s"
    return head + (" per " + tail if tail else "")


def _entries(name: str, u: dict[str, Any], table: dict[str, Any]) -> list[dict[str, Any]]:
    """The unit itself and its SI-prefixed forms (``metre`` + ``k`` -> ``kilometre``/``km``)."""
    words = sorted({w for s in [name, *u.get("surfaces", [])] for w in (s, plural(s))} - {""} - DROP_WORDS)
    symbols = [s for s in u.get("symbols", []) if s not in DROP_SYMBOLS]
    symbol = (u.get("symbols") or [name])[0]  # reported even where too ambiguous to match ("m")
    out = [{"name": name, "symbol": symbol, "dimension": u["entity"], "words": words, "symbols": symbols}]
    for p in u.get("prefixes", []) or []:
        if p not in PREFIXES or not u.get("symbols") or p not in PREFIXES_OF.get(name, PREFIXES):
            continue
        base = u["symbols"][0]
        pname = PREFIXES[p] + name
        if pname in table:
            continue  # quantulum3 lists it on its own
        pwords = {PREFIXES[p] + w for w in [name, *u.get("surfaces", [])] if " " not in w}
        out.append({"name": pname, "symbol": p + base, "dimension": u["entity"],
                    "words": sorted(pwords | {plural(w) for w in pwords}), "symbols": [p + base]})  # fmt: skip
    return out


def main(src: Path, out: Path) -> None:
    table = json.loads(src.read_text(encoding="utf-8"))
    first: list[dict[str, Any]] = []
    later: list[dict[str, Any]] = []
    for name, u in table.items():
        if name in DROP_NAMES:
            continue
        if u.get("entity") in KEEP:
            first += _entries(name, u, table)
        elif u.get("entity") in KEEP_LATER:
            later += _entries(name, u, table)
    known = {u["name"] for u in first + later}
    later += [u for u in EXTRA_UNITS if u["name"] not in known]
    claimed = {s for u in first for s in u["symbols"]} | {w for u in first for w in u["words"]}
    for u in later:  # "C" stays Celsius, "Pa" pascal: a later dimension never takes a symbol or word
        u["symbols"] = [s for s in u["symbols"] if s not in claimed]
        u["words"] = [w for w in u["words"] if w not in claimed]
    units = first + later
    for u in units:
        u["symbols"] = list(dict.fromkeys([*u["symbols"], *EXTRA_SYMBOLS.get(u["name"], [])]))
        greek = [s.replace("µ", "μ") for s in u["symbols"] if "µ" in s]  # micro sign and Greek mu
        u["symbols"] = list(dict.fromkeys([*u["symbols"], *greek]))
    doc = {
        "source": "quantulum3 units.json (github.com/nielstron/quantulum3, quantulum3/units.json), filtered "
        "and prefix-expanded by packages/research-mcp/scripts/make_units.py",
        "licence": "MIT (c) 2016 Marco Lagi, nielstron, sohrabtowfighi, grhawk, Rodrigo Castro",
        "units": sorted(units, key=lambda x: x["name"]),
    }
    out.write_text(json.dumps(doc, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(units)} units -> {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(__file__).resolve().parents[1] / "src/research_mcp/data/units.json")
