"""Regenerate ``src/research_mcp/data/units.json`` from quantulum3's unit table (MIT licence).

Usage: ``python scripts/make_units.py path/to/quantulum3/units.json``. Not run at build or run time:
the JSON it writes is committed and shipped in the package. It keeps the physical units people
write after a number in prose (lengths, masses, volumes, temperatures, energy, power, data...),
expands the SI prefixes quantulum3 lists for a unit (``metre`` + ``k`` -> ``kilometre``/``km``),
and leaves out what reads as plain English or clashes with our rules: time words (a duration is
handled by fact-extract's count nouns), single-letter symbols that are scales (``k m M b B T``),
prime marks, and unit words that are everyday nouns (``quarter``, ``span``, ``drop``, ``point``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

KEEP = {
    "length", "mass", "volume", "temperature", "area", "speed", "energy", "power", "data storage",
    "data transfer rate", "frequency", "pressure", "force", "acceleration", "electric potential",
    "current", "volumetric flow", "radiation absorbed dose", "sound level", "density",
}  # fmt: skip
DROP_NAMES = {"quarter", "span", "drop", "ell", "cubit", "twip", "barn", "inverse femtobarn", "bar", "cup",
              "stere", "peck", "league", "point", "dime", "quintal", "bushel", "hartree", "barye"}  # fmt: skip
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
]  # fmt: skip
PLURAL_IRREGULAR = {"foot": "feet", "inch": "inches", "henry": "henries"}


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


def main(src: Path, out: Path) -> None:
    table = json.loads(src.read_text(encoding="utf-8"))
    units = []
    for name, u in table.items():
        if u.get("entity") not in KEEP or name in DROP_NAMES:
            continue
        words = sorted({w for s in [name, *u.get("surfaces", [])] for w in (s, plural(s))} - {""})
        symbols = [s for s in u.get("symbols", []) if s not in DROP_SYMBOLS]
        symbol = (u.get("symbols") or [name])[0]  # reported even where too ambiguous to match ("m")
        units.append(
            {"name": name, "symbol": symbol, "dimension": u["entity"], "words": words, "symbols": symbols}
        )
        for p in u.get("prefixes", []) or []:
            if p not in PREFIXES or not u.get("symbols"):
                continue
            base = u["symbols"][0]
            pname = PREFIXES[p] + name
            if pname in table:
                continue  # quantulum3 lists it on its own
            pwords = {PREFIXES[p] + w for w in [name, *u.get("surfaces", [])] if " " not in w}
            units.append({"name": pname, "symbol": p + base, "dimension": u["entity"],
                          "words": sorted(pwords | {plural(w) for w in pwords}), "symbols": [p + base]})  # fmt: skip
    known = {u["name"] for u in units}
    units += [u for u in EXTRA_UNITS if u["name"] not in known]
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
