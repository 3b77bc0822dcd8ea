"""Acronym definitions: a short form defined beside its long form joins the long form's entity.

A definition has one of the shapes writers use: "Long Form (LF)", "LF (Long Form)", "Long Form,
or LF," and "Long Form (the "LF")". Whether the short form abbreviates the long one is decided by
Schwartz and Hearst's algorithm (A Simple Algorithm for Identifying Abbreviation Definitions in
Biomedical Text, PSB 2003): every character of the short form, right to left, is found in the long
form, the first at the start of a word, and the match uses the long form's first word. Once
defined, the short form is the long form's alias everywhere in the text: its later bare uses join
the same entity (tagged or not by the NER) and take the long form's type.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .index import merge
from .names import key

if TYPE_CHECKING:
    from .index import Index
    from .mentions import Mention

__all__ = ["abbreviates", "join_acronyms"]

_SHORT = r"[A-Z][A-Za-z0-9&.\-]{0,9}"
_OPEN_QUOTE = r"[\"“‘']?"
_CLOSE_QUOTE = r"[\"”’']?"
# after a long form: " (LF)", " (the "LF")", ", or LF," / " (or LF)"
_AFTER_LONG = re.compile(
    rf"\s*(?:\(\s*(?:or\s+)?(?:the\s+)?{_OPEN_QUOTE}(?P<paren>{_SHORT}){_CLOSE_QUOTE}\s*\)"
    rf"|,?\s+or\s+(?P<or>{_SHORT})(?=\s*[,;)]))"
)
# after a short form: " (Long Form)"
_PAREN = re.compile(r"\s*\(\s*([^()]{3,120}?)\s*\)")
_LEAD_THE = re.compile(r"(?i)^the\s+")


def _is_acronym(short: str) -> bool:
    """ "OMS", "SNB", "S&P", "ETFs", "GmbH"-like forms: two or more capitals and no spaces."""
    return sum(c.isupper() for c in short) >= 2 and len(short) <= 10 and not short.isdigit()


def abbreviates(short: str, long: str) -> bool:
    """Whether ``short`` abbreviates all of ``long`` (Schwartz and Hearst, with its first word used)."""
    forms = [short[:-1]] if short.endswith("s") and len(short) > 2 else []
    return any(_matches(form, _LEAD_THE.sub("", long.strip())) for form in [short, *forms])


def _matches(short: str, long: str) -> bool:
    chars = [c.lower() for c in short if c.isalnum()]
    if len(chars) < 2 or not long or len(long.split()) > 2 * len(chars) + 2:
        return False
    s_index, l_index = len(chars) - 1, len(long) - 1
    while s_index >= 0:
        c = chars[s_index]
        while l_index >= 0 and (
            long[l_index].lower() != c or (s_index == 0 and l_index > 0 and long[l_index - 1].isalnum())
        ):
            l_index -= 1
        if l_index < 0:
            return False
        l_index -= 1
        s_index -= 1
    return l_index + 1 < len(long.split()[0])


def _mention_ending_at(index: Index, char: int) -> Mention | None:
    for m in index.mentions:
        if m.char_end == char:
            return m
    return None


def _mention_at(index: Index, start: int, end: int) -> Mention | None:
    for m in index.mentions:
        if m.char_start == start and m.char_end == end:
            return m
    return None


def _new_mention(index: Index, start: int, end: int, like: Mention) -> Mention | None:
    """A mention over ``text[start:end]`` (untagged by the NER), typed like ``like``; None if taken."""
    from .mentions import Mention

    span = index.doc.char_span(start, end, alignment_mode="contract")
    if span is None or len(span) == 0 or any(i in index.by_token for i in range(span.start, span.end)):
        return None
    mention = Mention(
        span.start, span.end, span.text, like.type, like.label, start, end, False, like.strong_type
    )
    index.add(mention, new_group=True)
    return mention


def _revive(index: Index, mention: Mention) -> None:
    for i in range(mention.start, mention.end):
        index.doubtful.pop(i, None)
    index.add(mention, new_group=True)


def _definitions(index: Index) -> list[tuple[Mention, str, int, int]]:
    """(long-form mention, short form, start, end of the short form) for every definition in the text."""
    text = index.text
    found: list[tuple[Mention, str, int, int]] = []
    held = {id(m): m for m in index.doubtful.values()}
    for m in sorted([*index.mentions, *held.values()], key=lambda x: x.start):
        after = _AFTER_LONG.match(text, m.char_end)
        if after is not None:
            group = "paren" if after.group("paren") else "or"
            short = after.group(group)
            defines = abbreviates(short, m.text) and (
                _is_acronym(short) or (group == "paren" and " " not in short and len(short) >= 3)
            )  # "(Eavca)", "(Flex)": a written-out short name counts inside parentheses
            if defines or (group == "paren" and _names_part(short, m.text)):
                if id(m) in held:
                    _revive(index, m)  # "American Express (AXP)": a definition is a sign of a name
                found.append((m, short, after.start(group), after.end(group)))
                continue
        if id(m) in held:
            continue
        paren = _PAREN.match(text, m.char_end)
        if paren is not None and _is_acronym(m.text) and " " not in m.text:
            long_text = paren.group(1)
            if abbreviates(m.text, long_text) and long_text[:1].isupper():
                long = _mention_at(index, paren.start(1), paren.end(1)) or _mention_ending_at(
                    index, paren.end(1)
                )
                if long is None:
                    long = _new_mention(index, paren.start(1), paren.end(1), m)
                if long is not None and long is not m:
                    found.append((long, m.text, m.char_start, m.char_end))
    return found


def _names_part(short: str, long: str) -> bool:
    """ "Silicon Valley Bank ("Bank")": a defined short name made of the long name's own words."""
    words = short.split()
    return (
        bool(words)
        and len(words) < len(long.split())
        and set(w.lower() for w in words) <= set(w.lower() for w in long.split())
    )


def join_acronyms(index: Index, groups: dict[str, int]) -> None:
    """Each defined short form, and every later bare use of it, joins its long form's entity."""
    text = index.text
    for long, short, start, end in _definitions(index):
        if long.type == "person":
            continue
        target = groups.get(key(short))
        if target is None:
            made = _mention_at(index, start, end) or _new_mention(index, start, end, long)
            if made is None:
                continue
            target = made.group
            groups[key(short)] = target
        if not _is_acronym(short):
            merge(index, into=long.group, other=target)
            continue
        # later bare uses the NER did not tag
        for use in re.finditer(rf"(?<![\w&.-]){re.escape(short)}(?![\w&-])", text):
            if _mention_at(index, use.start(), use.end()) is None:
                made = _new_mention(index, use.start(), use.end(), long)
                if made is not None:
                    merge(index, into=target, other=made.group)
        for m in index.groups[target].mentions:
            m.type, m.strong_type = long.type, long.strong_type or m.strong_type
        merge(index, into=long.group, other=target)
