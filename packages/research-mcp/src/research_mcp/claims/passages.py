"""A source text cut into passages with their offsets, and the passages nearest a claim.

A passage is one sentence, or two adjacent sentences read together (evidence is often split
across a sentence boundary). Words are compared by a light stem (``increases``, ``increased``,
``increasing`` meet at ``increas``) and weighted by how rare they are in this source, so a claim's
subject words count more than words every sentence has. The index is built once per text and
reused for every claim judged against it (``index_for``); the per-claim work is a dictionary
look-up per claim word, so twenty claims over a 2 MB page cost little more than one.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

__all__ = [
    "Passage",
    "SourceIndex",
    "content_stems",
    "index_for",
    "stem",
    "tokens",
]

WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
# A word is a run of letters and digits: ASCII punctuation (and the usual Unicode quotes and dashes)
# becomes a space, byte for byte, so offsets do not move and a 2 MB page is cut in a few milliseconds.
_PUNCT = bytes(range(33, 48)) + bytes(range(58, 65)) + bytes(range(91, 97)) + bytes(range(123, 127))
PUNCT_TABLE = bytes.maketrans(_PUNCT, b" " * len(_PUNCT))
UNICODE_PUNCT = "“”‘’–—…•·«»′″"
# A sentence ends at . ! ? (and a closing quote or bracket) before a space and a capital, digit or
# opening mark, or at a blank line; "e.g." / "et al." / "Fig." / "vs." do not end one.
SENTENCE_END_RE = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])|\n\s*\n")
NO_BREAK = re.compile(
    r"(?i)(?:\b(?:e\.g|i\.e|et al|fig|figs|vs|approx|no|dr|mr|mrs|ms|prof|st|inc|ltd|co|jr|sr|ref|eq|vol|cf)\.|\b[A-Z]\.)$"
)
STOP: frozenset[str] = frozenset(
    json.loads(resources.files("research_mcp").joinpath("data", "claim_stop_words.json").read_text("utf-8"))[
        "words"
    ]
)
# Kept out of STOP on purpose: negations and comparison words decide a verdict (judge.py).
SUFFIXES = ("ations", "ation", "ings", "ing", "edly", "ies", "ied", "ed", "es", "ly", "s", "e")
MAX_INDEXES = 8
MAX_PASSAGE_CHARS = 1_200


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    """A light stem: lower case, one common English suffix off (never below four letters; a plural's s
    down to three: "days" is "day")."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    for suf in SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            if suf == "s" and w.endswith(("ss", "us", "is")):
                break  # "virus", "analysis", "class" are not plurals
            w = w[: -len(suf)] + ("y" if suf in ("ies", "ied") else "")
            return w
    if len(w) >= 4 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]  # a short plural: "days", "rats", "mice" stays
    return w


_STEMS: dict[str, str] = {}


def _content_stem(word: str) -> str:
    """The stem of a lower-case word, or "" for a stop word (memoised: a page repeats its words)."""
    found = _STEMS.get(word)
    if found is None:
        if len(_STEMS) > 500_000:
            _STEMS.clear()
        found = _STEMS[word] = "" if word in STOP else stem(word)
    return found


def tokens(text: str) -> list[tuple[str, int, int]]:
    """Each word of ``text`` as (word, start, end)."""
    return [(m.group(0), m.start(), m.end()) for m in WORD_RE.finditer(text)]


def plain_words(text: str) -> str:
    """``text`` in lower case with punctuation blanked, the same length as ``text`` when lower() keeps it."""
    low = text.lower()
    for ch in UNICODE_PUNCT:
        if ch in low:
            low = low.replace(ch, " ")
    return low.encode("utf-8", "surrogatepass").translate(PUNCT_TABLE).decode("utf-8", "surrogatepass")


def content_stems(text: str) -> list[str]:
    """The stems of ``text``'s words that carry content (not stop words), in order, without repeats."""
    out: dict[str, None] = {}
    for w in plain_words(text).split():
        s = _content_stem(w)
        if s:
            out[s] = None
    return list(out)


@dataclass(frozen=True, slots=True)
class Passage:
    """``text[start:end]`` of the source, with its content stems."""

    start: int
    end: int
    stems: frozenset[str]


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``; whitespace around it is left out."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for m in SENTENCE_END_RE.finditer(text):
        if NO_BREAK.search(text[max(pos, m.start() - 8) : m.start()]) and "\n" not in m.group(0):
            continue
        spans.append((pos, m.start()))
        pos = m.end()
    spans.append((pos, len(text)))
    out = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append((a, b))
    return out


def _long_pieces(a: int, b: int, text: str) -> Iterable[tuple[int, int]]:
    """A sentence longer than MAX_PASSAGE_CHARS (a table row, a list) cut at commas or spaces."""
    while b - a > MAX_PASSAGE_CHARS:
        cut = max(text.rfind(";", a, a + MAX_PASSAGE_CHARS), text.rfind(",", a, a + MAX_PASSAGE_CHARS))
        if cut <= a + MAX_PASSAGE_CHARS // 3:
            cut = text.rfind(" ", a, a + MAX_PASSAGE_CHARS)
        if cut <= a:
            cut = a + MAX_PASSAGE_CHARS
        yield a, cut + 1
        a = cut + 1
        while a < b and text[a].isspace():
            a += 1
    if b > a:
        yield a, b


@dataclass
class SourceIndex:
    """The sentences of one source text, their stems, and which sentences hold each stem."""

    text: str
    sha256: str
    sentences: list[Passage]
    _postings: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def build(cls, text: str, sha256: str | None = None) -> SourceIndex:
        low = plain_words(text)
        same = len(low) == len(
            text
        )  # a few characters change length in lower case: then sentence by sentence
        sentences: list[Passage] = []
        postings: dict[str, list[int]] = {}
        for w in set(low.split()) - _STEMS.keys():  # every new word stemmed once, then looked up in C
            _content_stem(w)
        lookup = _STEMS.get
        for a0, b0 in split_sentences(text):
            for a, b in _long_pieces(a0, b0, text):
                words = set((low[a:b] if same else plain_words(text[a:b])).split())
                stems = frozenset(filter(None, map(lookup, words)))
                for st in stems:
                    postings.setdefault(st, []).append(len(sentences))
                sentences.append(Passage(a, b, stems))
        sha = sha256 or hashlib.sha256(text.encode("utf-8")).hexdigest()
        return cls(text=text, sha256=sha, sentences=sentences, _postings=postings)

    def postings(self, s: str) -> list[int]:
        """The sentences that hold stem ``s`` (in order)."""
        return self._postings.get(s, [])

    def idf(self, s: str) -> float:
        """Rarer in this source weighs more; a word the source lacks weighs most."""
        n = len(self.sentences) or 1
        df = len(self.postings(s))
        return math.log(1.0 + (n + 1) / (df + 0.5))

    def candidates(self, claim_stems: list[str], limit: int = 12) -> list[tuple[float, Passage]]:
        """The passages (a sentence, or it and its neighbour) that hold most of the claim's weight.

        Score: the share of the claim's idf weight the passage holds (0..1); a pair of sentences
        must hold more than its better half, else the half is kept.
        """
        weights = {s: self.idf(s) for s in claim_stems}
        total = sum(weights.values()) or 1.0
        hits: dict[int, float] = {}
        for s, w in weights.items():
            for i in self.postings(s):
                hits[i] = hits.get(i, 0.0) + w
        if not hits:
            return []
        best = sorted(hits, key=lambda i: -hits[i])[: limit * 2]
        out: dict[tuple[int, int], float] = {}
        for i in best:
            out[(i, i)] = hits[i] / total
            for j in (i - 1, i + 1):
                if 0 <= j < len(self.sentences):
                    lo, hi = min(i, j), max(i, j)
                    both = self.sentences[lo].stems | self.sentences[hi].stems
                    score = sum(w for s, w in weights.items() if s in both) / total
                    if score > out[(i, i)] + 0.1:
                        out[(lo, hi)] = score - 0.05  # a pair pays a little for its length
        ranked = sorted(out.items(), key=lambda kv: (-kv[1], kv[0][1] - kv[0][0], kv[0][0]))
        passages: list[tuple[float, Passage]] = []
        for (lo, hi), score in ranked[:limit]:
            a, b = self.sentences[lo], self.sentences[hi]
            passages.append((score, Passage(a.start, b.end, a.stems | b.stems)))
        return passages

    def sentence_at(self, pos: int) -> Passage:
        """The sentence that holds character ``pos``."""
        starts = [p.start for p in self.sentences]
        i = max(0, bisect.bisect_right(starts, pos) - 1)
        return self.sentences[i]


_INDEXES: OrderedDict[str, SourceIndex] = OrderedDict()


def index_for(text: str) -> SourceIndex:
    """The index of ``text``, built once and kept for the last few texts (a batch reuses a page)."""
    found = _INDEXES.get(text)
    if found is not None:
        _INDEXES.move_to_end(text)
        return found
    built = SourceIndex.build(text)
    _INDEXES[text] = built
    while len(_INDEXES) > MAX_INDEXES:
        _INDEXES.popitem(last=False)
    return built
