"""Regenerate ``src/research_mcp/data/currencies.json`` from CLDR (via babel) and ISO 4217 (via pycountry).

Usage: ``python scripts/make_currencies.py`` with babel and pycountry installed (``uv run --with babel
--with pycountry``). Not run at build or run time: the JSON is committed and shipped, so research-mcp
depends on neither library. CLDR gives each currency's English symbol (``HK$``, ``CA$``, ``₹``) and
display names (``Hong Kong dollars``); pycountry keeps the codes to those in use today; a short list of
forms common in English news that CLDR's ``en`` locale does not carry (``C$``, ``S$``, ``Rs``,
``dollars`` alone) is kept below, marked as ours.
"""

from __future__ import annotations

import json
from pathlib import Path

import babel
import pycountry
from babel.numbers import get_currency_name, get_currency_symbol

# ISO codes that are English words: a capitalised "TOP 10" or "ALL 5" is not money.
WORD_CODES = {"ALL", "TOP", "CUP", "BOB", "MOP", "SOS", "PEN", "GEL", "AMD", "BAM", "CVE"}
# Forms seen in English text that CLDR's "en" symbols lack (ours; same licence as the package).
EXTRA_SYMBOLS = {
    "US$": "USD", "U.S.$": "USD", "USD$": "USD", "AU$": "AUD", "C$": "CAD", "CAD$": "CAD", "S$": "SGD",
    "RMB": "CNY", "Rs.": "INR", "Rs": "INR", "₽": "RUB", "₺": "TRY", "₴": "UAH", "zł": "PLN", "Kč": "CZK",
    "₦": "NGN", "฿": "THB", "₱": "PHP", "RM": "MYR", "Ft": "HUF", "руб.": "RUB", "руб": "RUB", "грн.": "UAH",
    "грн": "UAH", "lei": "RON", "Lei": "RON", "Rp": "IDR", "Р": "RUB",
}  # fmt: skip
EXTRA_NAMES = {
    "dollars": "USD", "dollar": "USD", "u.s. dollars": "USD", "us dollars": "USD", "pounds sterling": "GBP",
    "pounds": "GBP", "pound": "GBP", "sterling": "GBP", "yuan": "CNY", "renminbi": "CNY", "rupees": "INR",
    "rupee": "INR", "won": "KRW", "francs": "CHF", "yen": "JPY", "euro": "EUR", "euros": "EUR",
}  # fmt: skip


def main() -> None:
    codes = sorted(
        c.alpha_3
        for c in pycountry.currencies
        if c.alpha_3 not in WORD_CODES and not c.alpha_3.startswith("X")
    )
    symbols: dict[str, str] = {}
    names: dict[str, str] = {}
    for code in codes:
        sym = get_currency_symbol(code, "en")
        if sym != code and sym not in symbols:
            symbols[sym] = code
        for count in (1, 2):
            name = get_currency_name(code, count=count, locale="en").lower()
            names.setdefault(name, code)
    for sym, code in EXTRA_SYMBOLS.items():
        symbols.setdefault(sym, code)
    for name, code in EXTRA_NAMES.items():
        names.setdefault(name, code)
    doc = {
        "source": f"Unicode CLDR English currency symbols and names via babel {babel.__version__}; ISO 4217 codes "
        f"in use via pycountry {pycountry.__version__ if hasattr(pycountry, '__version__') else ''}; extra English "
        "forms from research-mcp (scripts/make_currencies.py)",
        "licence": "CLDR: Unicode License v3; ISO 4217 list via pycountry: LGPL-2.1 data; extras: MIT",
        "codes": codes,
        "symbols": dict(sorted(symbols.items())),
        "names": dict(sorted(names.items())),
    }
    out = Path(__file__).resolve().parents[1] / "src/research_mcp/data/currencies.json"
    out.write_text(json.dumps(doc, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(codes)} codes, {len(symbols)} symbols, {len(names)} names -> {out}")


if __name__ == "__main__":
    main()
