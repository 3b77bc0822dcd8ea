"""entity-extract: spaCy NER mapped to research entity types, merged aliases, and relations from the parse.

Type mapping (spaCy label -> our type; documented in the README):

- ``ORG``            -> ``organization`` when the name has an institutional word (University,
                        Agency, Ministry, ...), else ``company``; known companies are always ``company``
- ``PERSON``         -> ``person``
- ``GPE``, ``LOC``, ``FAC`` -> ``location``
- ``PRODUCT``        -> ``technology`` when it is in the technology lexicon, else ``product``
- ``EVENT``          -> ``event``
- technology terms the NER does not tag ("machine learning", "LLMs", "CRISPR") come from a lexicon.

The small English model mislabels proper names now and then (a start-up as a place, a company
as a person); where a relation fixes the role (people are not acquired, places do not acquire),
the role wins. Precision over recall: a sentence-initial capitalised word that is not a proper
noun is never an entity; negated, hedged ("may", "could"), conditional and planned ("plans to")
statements give no edge.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

__all__ = ["ENTITY_TYPES", "extract_entities", "normalise_entity_types", "prepare_text"]

_CO_FOUND = re.compile(r"\b([Cc])o-(found(?:ed|ing|s)?|founders?)\b")


def prepare_text(text: str) -> str:
    """The text the parser should see: same length, same offsets, but "co-founded" as one word.

    The small model splits "co-founded" into three tokens and loses the verb; "cofounded " parses
    as the verb. Evidence is always cut from the caller's own text, not from this one.
    """
    return _CO_FOUND.sub(lambda m: f"{m.group(1)}o{m.group(2)} ", text)


ENTITY_TYPES = ("company", "person", "technology", "location", "organization", "product", "event")

TYPE_SYNONYMS = {
    "companies": "company", "firm": "company", "firms": "company", "business": "company",
    "persons": "person", "people": "person", "individual": "person",
    "technologies": "technology", "tech": "technology",
    "locations": "location", "place": "location", "places": "location", "gpe": "location", "loc": "location",
    "organizations": "organization", "organisation": "organization", "organisations": "organization",
    "org": "organization", "orgs": "organization", "institution": "organization",
    "products": "product", "events": "event",
}  # fmt: skip

LABEL_TYPES = {
    "ORG": "company",
    "PERSON": "person",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
    "PRODUCT": "product",
    "EVENT": "event",
}

INSTITUTION_WORDS = {
    "university", "institute", "institution", "agency", "ministry", "department", "commission", "council",
    "foundation", "association", "society", "committee", "school", "college", "academy", "administration",
    "bureau", "office", "parliament", "congress", "senate", "court", "government", "organization",
    "organisation", "union", "nations", "fund", "laboratory", "laboratories", "lab", "centre", "center",
    "hospital", "authority", "federation", "consortium", "board", "service", "reserve", "police", "army",
    "navy", "force", "party", "church",
}  # fmt: skip
KNOWN_COMPANIES = {
    "microsoft", "google", "alphabet", "openai", "anthropic", "meta", "facebook", "amazon", "apple",
    "nvidia", "deepmind", "ibm", "intel", "amd", "oracle", "salesforce", "sap", "adobe", "cisco", "samsung",
    "sony", "tesla", "qualcomm", "arm", "tsmc", "siemens", "netflix", "uber", "airbnb", "stripe", "shopify",
    "alibaba", "tencent", "baidu", "huawei", "mistral", "cohere", "databricks", "snowflake", "hugging face",
    "red hat", "activision blizzard", "whole foods", "spacex", "xai", "bytedance", "foxconn", "xiaomi",
    "nokia", "ericsson", "twitter", "linkedin", "github", "rivian", "palantir", "broadcom", "micron",
    "asml", "accenture", "deloitte", "mckinsey", "gartner", "inflection", "stability ai", "scale ai",
    "perplexity", "cerner", "nuance", "vmware", "dell", "hp", "lenovo", "paypal", "visa", "mastercard",
    "goldman sachs", "jpmorgan", "morgan stanley",
}  # fmt: skip
KNOWN_ORGANIZATIONS = {
    "mit", "caltech", "stanford", "harvard", "oxford", "cambridge", "eth", "eth zurich", "epfl", "ucla",
    "berkeley", "uc berkeley", "princeton", "yale", "cmu", "nasa", "nih", "nsf", "darpa", "cern", "who",
    "un", "united nations", "eu", "european union", "imf", "oecd", "world bank", "fda", "sec", "ftc", "fcc",
    "ecb", "federal reserve", "fed", "nato", "unesco", "unicef", "wto", "iea", "ipcc", "nist", "ieee",
    "acm", "european commission", "congress", "parliament", "max planck", "fraunhofer", "inria", "cnrs",
    "csiro",
}  # fmt: skip
KNOWN_PRODUCTS = {
    "chatgpt", "iphone", "ipad", "windows", "azure", "copilot", "gemini", "claude", "llama", "android",
    "office", "aws", "bard", "alexa", "siri", "playstation", "xbox", "kindle", "pixel", "galaxy",
}  # fmt: skip
TECH_TERMS = (
    "artificial intelligence", "generative AI", "machine learning", "deep learning",
    "reinforcement learning", "large language models", "large language model", "LLMs", "LLM",
    "neural networks", "neural network", "computer vision", "natural language processing",
    "speech recognition", "quantum computing", "quantum computers", "blockchain", "cloud computing",
    "edge computing", "Internet of Things", "IoT", "augmented reality", "virtual reality", "robotics",
    "autonomous driving", "self-driving cars", "semiconductors", "semiconductor", "GPUs", "GPU", "TPUs",
    "TPU", "CRISPR", "mRNA", "lidar", "5G", "6G", "cryptocurrency", "diffusion models",
    "transformer models", "transformers", "lithium-ion batteries", "solid-state batteries", "gene therapy",
    "nuclear fusion", "fusion energy", "solar panels", "electric vehicles", "3D printing", "AI chips", "AI",
    "NLP", "GPT-4", "GPT-4o", "GPT-3", "GPT-5", "BERT", "RAG", "retrieval-augmented generation",
    "federated learning", "cybersecurity", "encryption", "microchips", "data centers", "foundation models",
    "chatbots",
)  # fmt: skip
_TECH_CANONICAL = {
    "large language model": "large language models",
    "llm": "LLMs",
    "llms": "LLMs",
    "neural network": "neural networks",
    "semiconductor": "semiconductors",
    "gpu": "GPUs",
    "gpus": "GPUs",
    "tpu": "TPUs",
    "tpus": "TPUs",
    "quantum computers": "quantum computing",
}
_ACRONYM_TERMS = {t for t in TECH_TERMS if any(c.isupper() for c in t) and " " not in t}
_TECH_RE = re.compile(
    r"(?<![\w-])("
    + "|".join(re.escape(t) for t in sorted(TECH_TERMS, key=len, reverse=True))
    + r")(?![\w-])",
    re.IGNORECASE,
)
KNOWN_PLACES = {
    "united states", "us", "u.s.", "usa", "america", "china", "india", "japan", "germany", "france",
    "united kingdom", "uk", "u.k.", "britain", "england", "scotland", "canada", "mexico", "brazil",
    "russia", "italy", "spain", "australia", "south korea", "korea", "north korea", "taiwan", "israel",
    "iran", "saudi arabia", "turkey", "egypt", "nigeria", "south africa", "kenya", "argentina", "chile",
    "indonesia", "vietnam", "thailand", "singapore", "malaysia", "philippines", "pakistan", "bangladesh",
    "netherlands", "belgium", "sweden", "norway", "denmark", "finland", "poland", "ukraine", "switzerland",
    "austria", "ireland", "portugal", "greece", "europe", "asia", "africa", "latin america", "new york",
    "london", "paris", "tokyo", "beijing", "shanghai", "berlin", "san francisco", "silicon valley",
    "seattle", "boston", "california", "texas", "washington", "hong kong", "shenzhen", "bangalore",
    "toronto", "sydney", "dubai", "zurich", "munich", "amsterdam", "seoul", "mumbai",
}  # fmt: skip
LEGAL_SUFFIXES = {
    "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited", "llc", "plc", "ag",
    "gmbh", "sa", "nv", "bv", "holdings", "group", "lp", "llp", "se",
}  # fmt: skip

# verb lemma -> (relation, how it attaches): "dobj" direct object, a preposition, or "founder"
VERB_RELATIONS: dict[str, tuple[str, frozenset[str]]] = {
    "acquire": ("acquires", frozenset({"dobj"})),
    "buy": ("acquires", frozenset({"dobj"})),
    "purchase": ("acquires", frozenset({"dobj"})),
    "take_over": ("acquires", frozenset({"dobj"})),
    "absorb": ("acquires", frozenset({"dobj"})),
    "invest": ("invests_in", frozenset({"in", "into"})),
    "fund": ("invests_in", frozenset({"dobj"})),
    "back": ("invests_in", frozenset({"dobj"})),
    "finance": ("invests_in", frozenset({"dobj"})),
    "partner": ("partners_with", frozenset({"with"})),
    "collaborate": ("partners_with", frozenset({"with"})),
    "work": ("partners_with", frozenset({"with"})),
    "ally": ("partners_with", frozenset({"with"})),
    "team": ("partners_with", frozenset({"with"})),
    "compete": ("competes_with", frozenset({"with", "against"})),
    "rival": ("competes_with", frozenset({"dobj"})),
    "merge": ("merges_with", frozenset({"with"})),
    "found": ("founded_by", frozenset({"dobj"})),
    "cofound": ("founded_by", frozenset({"dobj"})),
    "co-found": ("founded_by", frozenset({"dobj"})),
    "establish": ("founded_by", frozenset({"dobj"})),
    "develop": ("develops", frozenset({"dobj"})),
    "build": ("develops", frozenset({"dobj"})),
    "design": ("develops", frozenset({"dobj"})),
    "create": ("develops", frozenset({"dobj"})),
    "launch": ("launches", frozenset({"dobj"})),
    "release": ("launches", frozenset({"dobj"})),
    "unveil": ("launches", frozenset({"dobj"})),
    "introduce": ("launches", frozenset({"dobj"})),
    "sue": ("sues", frozenset({"dobj"})),
    "own": ("owns", frozenset({"dobj"})),
    "supply": ("supplies", frozenset({"dobj"})),
    "hire": ("hires", frozenset({"dobj"})),
    "lead": ("leads", frozenset({"dobj"})),
    "head": ("leads", frozenset({"dobj"})),
    "license": ("licenses", frozenset({"dobj"})),
    "use": ("uses", frozenset({"dobj"})),
    "adopt": ("uses", frozenset({"dobj"})),
    "deploy": ("uses", frozenset({"dobj"})),
}
SYMMETRIC = {"partners_with", "competes_with", "merges_with"}
PARTNERSHIP_VERBS = {
    "announce", "form", "sign", "enter", "forge", "strike", "establish", "launch", "expand", "extend",
    "deepen", "renew", "create", "have", "build", "seal",
}  # fmt: skip
# "YouTube is a subsidiary of Google", "Sam Altman, a cofounder of OpenAI": noun -> (relation, prepositions,
# whether the holder of the noun is the relation's target rather than its source)
ROLE_NOUNS: dict[str, tuple[str, frozenset[str], bool]] = {
    "subsidiary": ("owns", frozenset({"of"}), True),
    "unit": ("owns", frozenset({"of"}), True),
    "division": ("owns", frozenset({"of"}), True),
    "parent": ("owns", frozenset({"of"}), False),
    "owner": ("owns", frozenset({"of"}), False),
    "competitor": ("competes_with", frozenset({"of", "to"}), False),
    "rival": ("competes_with", frozenset({"of", "to"}), False),
    "investor": ("invests_in", frozenset({"in"}), False),
    "backer": ("invests_in", frozenset({"of"}), False),
    "founder": ("founded_by", frozenset({"of"}), True),
    "cofounder": ("founded_by", frozenset({"of"}), True),
    "partner": ("partners_with", frozenset({"of", "with"}), False),
    "acquirer": ("acquires", frozenset({"of"}), False),
    "developer": ("develops", frozenset({"of"}), False),
    "maker": ("develops", frozenset({"of"}), False),
}
STAKE_NOUNS = {"stake", "share", "interest", "holding", "position"}
# noun -> (relation, preposition introducing the target)
NOMINAL_RELATIONS = {
    "acquisition": ("acquires", "of"),
    "purchase": ("acquires", "of"),
    "takeover": ("acquires", "of"),
    "buyout": ("acquires", "of"),
    "investment": ("invests_in", "in"),
    "partnership": ("partners_with", "with"),
    "collaboration": ("partners_with", "with"),
    "alliance": ("partners_with", "with"),
    "merger": ("merges_with", "with"),
}
# "the proposed acquisition of ...", or a head verb that says it did not happen
NOMINAL_DOUBT = {
    "proposed", "planned", "potential", "possible", "rumored", "rumoured", "failed", "abandoned", "blocked",
    "attempted", "pending", "hostile", "expected", "mooted", "aborted", "canceled", "cancelled",
    "prospective",
}  # fmt: skip
NOMINAL_DOUBT_HEADS = {
    "block", "reject", "cancel", "abandon", "collapse", "fail", "scrap", "terminate", "halt", "oppose",
    "review", "investigate", "consider", "propose", "plan", "explore", "discuss", "announce", "seek",
    "prohibit", "challenge", "delay", "rumor", "deny", "weigh", "pursue", "probe",
}  # fmt: skip
# founded_by is stated from the company's side: "X founded Y" is Y founded_by X
REVERSED = {"founded_by"}
HEDGING_AUX = {"may", "might", "could", "would", "should", "can", "must"}
COMMITMENT_HEADS = {"agree", "complete", "finalize", "finalise", "close"}
DENIAL_HEADS = {"deny", "refute", "reject", "dispute"}
SPECULATIVE_HEADS = {
    "expect", "plan", "intend", "hope", "want", "seek", "consider", "aim", "try", "attempt", "propose",
    "speculate", "predict", "forecast", "anticipate", "rumor", "rumour", "wish", "explore", "threaten",
    "refuse", "decline", "fail", "deny", "doubt", "suggest", "hint", "discuss", "weigh", "mull",
}  # fmt: skip
CONDITIONAL_MARKS = {"if", "whether", "unless"}
HEARSAY_NOUNS = {
    "report", "rumor", "rumour", "speculation", "claim", "allegation", "suggestion", "talk", "hope", "idea",
    "possibility", "prospect", "fear", "plan", "proposal", "chance", "question", "doubt",
}  # fmt: skip
DOUBT_ADJECTIVES = {
    "false", "untrue", "wrong", "incorrect", "unlikely", "unclear", "possible", "uncertain", "doubtful",
}  # fmt: skip
NEGATIVE_DETS = {"no", "neither", "never"}

BASE_CONFIDENCE = {
    "active_dobj": 0.85,
    "active_prep": 0.8,
    "passive_agent": 0.8,
    "sold_to": 0.7,
    "reciprocal_subjects": 0.7,
    "agreed_to": 0.55,
    "nominal": 0.6,
    "role_noun": 0.7,
    "stake_in": 0.8,
}


def normalise_entity_types(raw: Sequence[str] | None) -> tuple[str, ...]:
    """Requested types, lower-cased and de-duplicated (None means all).

    Raises:
        ValueError: an unknown type; the message lists the known ones.
    """
    if raw is None:
        return ENTITY_TYPES
    out: list[str] = []
    unknown: list[str] = []
    for item in raw:
        name = item.strip().lower()
        name = TYPE_SYNONYMS.get(name, name)
        if name in ENTITY_TYPES:
            if name not in out:
                out.append(name)
        else:
            unknown.append(item)
    if unknown:
        raise ValueError(f"unknown entity type(s) {unknown}; expected any of {list(ENTITY_TYPES)}")
    if not out:
        raise ValueError(f"entity_types is empty; expected any of {list(ENTITY_TYPES)}")
    return tuple(out)


@dataclass
class _Mention:
    start: int  # token offsets
    end: int
    text: str
    type: str
    label: str
    char_start: int
    char_end: int
    from_ner: bool
    strong_type: bool = False  # decided by a gazetteer, not guessed
    group: int = -1


@dataclass
class _Group:
    mentions: list[_Mention] = field(default_factory=list)
    role_types: Counter[str] = field(default_factory=Counter)


def _strip_name(text: str) -> str:
    text = re.sub(r"(?i)^the\s+", "", text.strip())
    text = re.sub(r"[’']s$", "", text)
    abbreviated = re.search(r"\b(?:Corp|Inc|Ltd|Co|Bros|Jr|Sr|St)\.$", text) is not None
    text = text.strip(" ,;:-\"'()[]")
    return text if abbreviated else text.rstrip(".")


def _key(text: str) -> str:
    """Alias key: lower case, no punctuation, no legal suffix ("Microsoft Corp." -> "microsoft")."""
    words = re.sub(r"[^\w\s&-]", " ", text.lower()).split()
    while len(words) > 1 and words[-1] in LEGAL_SUFFIXES:
        words.pop()
    return " ".join(words)


COMPANY_WORDS = {
    "ai", "labs", "technologies", "systems", "software", "robotics", "therapeutics", "pharmaceuticals",
    "biosciences", "networks", "capital", "ventures", "motors", "semiconductor", "semiconductors",
    "computing", "airlines", "bank", "insurance", "electronics", "telecom", "automotive", "studios",
}  # fmt: skip


def _company_word(text: str) -> bool:
    """ "Mistral AI", "Scale AI", "Boston Dynamics Robotics": a multiword name ending in a business word."""
    words = text.split()
    return len(words) >= 2 and words[-1].lower() in COMPANY_WORDS and words[0][:1].isupper()


def _has_legal_suffix(text: str) -> bool:
    words = re.sub(r"[^\w\s&-]", " ", text.lower()).split()
    return len(words) > 1 and words[-1] in LEGAL_SUFFIXES


def _org_type(text: str) -> tuple[str, bool]:
    key = _key(text)
    if key in KNOWN_ORGANIZATIONS:
        return "organization", True
    if key in KNOWN_COMPANIES or _has_legal_suffix(text) or _company_word(text):
        return "company", True
    words = set(re.sub(r"[^\w\s]", " ", text.lower()).split())
    if words & INSTITUTION_WORDS:
        return "organization", True
    return "company", False


def _is_sentence_initial_common_word(span: Span) -> bool:
    """ "Despite", "Revenue", "Analysts" at the start of a sentence are capitalised words, not names."""
    first = span[0]
    if not first.is_sent_start:
        return False
    if len(span) == 1:
        return first.pos_ != "PROPN" or first.is_stop or first.text.lower() in {"today", "yesterday"}
    return first.pos_ not in {"PROPN", "NUM"} and first.is_stop


def _ner_mentions(doc: Doc) -> tuple[list[_Mention], list[_Mention]]:
    """NER mentions kept, and those dropped as sentence-initial common words (a relation may revive them)."""
    mentions: list[_Mention] = []
    dropped: list[_Mention] = []
    capitalised_inside = {t.text for t in doc if not t.is_sent_start and t.text[:1].isupper()}
    for ent in doc.ents:
        base = LABEL_TYPES.get(ent.label_)
        if base is None:
            continue
        span = ent
        while len(span) > 1 and (span[0].lower_ == "the" or span[0].is_punct):
            span = span[1:]
        while len(span) > 1 and (
            span[-1].tag_ == "POS"
            or (span[-1].is_punct and span[-1].text != ".")
            or (span[-1].is_stop and span[-1].pos_ in {"ADP", "DET", "CCONJ", "PART", "PRON"})
        ):
            span = span[:-1]
        text = _strip_name(span.text)
        if len(text) < 2 or not any(c.isupper() for c in text) or not any(c.isalpha() for c in text):
            continue
        key = _key(text)
        doubtful = _is_sentence_initial_common_word(span)
        if doubtful and (key in KNOWN_COMPANIES or key in KNOWN_PRODUCTS or text in capitalised_inside):
            doubtful = False  # "Slack ... Slack's shares": the name also appears mid-sentence
        strong = False
        etype = base
        if ent.label_ == "ORG" or key in KNOWN_COMPANIES or (ent.label_ != "PERSON" and _company_word(text)):
            etype, strong = _org_type(text)
        if key in KNOWN_PRODUCTS:
            etype, strong = "product", True
        if ent.label_ in {"GPE", "LOC"} and key in KNOWN_PLACES:
            strong = True
        if _TECH_RE.fullmatch(text):
            etype, strong = "technology", True  # "AI", "CRISPR": the lexicon beats an ORG guess
        mention = _Mention(
            span.start, span.end, text, etype, ent.label_, span.start_char, span.end_char, True, strong
        )
        (dropped if doubtful else mentions).append(mention)
    return mentions, dropped


def _tech_mentions(doc: Doc, taken: set[int]) -> list[_Mention]:
    out: list[_Mention] = []
    for match in _TECH_RE.finditer(doc.text):
        surface = match.group(0)
        if surface in _ACRONYM_TERMS or surface.upper() == surface:
            if surface not in _ACRONYM_TERMS:
                continue
        elif not any(surface.lower() == t.lower() for t in TECH_TERMS):
            continue
        span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if span is None or any(i in taken for i in range(span.start, span.end)):
            continue
        before = doc[span.start - 1] if span.start > 0 else None
        if (
            surface in _ACRONYM_TERMS
            and before is not None
            and before.pos_ == "PROPN"
            and before.text[:1].isupper()
        ):
            continue  # "Mistral AI", "Scale AI": part of a name, not the technology
        lowered = surface.lower()
        canonical = _TECH_CANONICAL.get(lowered)
        if canonical is None:
            canonical = next(t for t in TECH_TERMS if t.lower() == lowered)
        out.append(
            _Mention(
                span.start,
                span.end,
                canonical,
                "technology",
                "LEXICON",
                match.start(),
                match.end(),
                False,
                True,
            )
        )
    return out


def _propn_span(tok: Token) -> tuple[int, int] | None:
    """The proper-noun phrase headed by ``tok`` (its compound/flat PROPN modifiers), or None."""
    capitalised_name = (
        not tok.is_sent_start
        and not tok.is_stop
        and re.fullmatch(r"[A-Z][A-Za-z0-9&-]*\.?", tok.text) is not None
    )
    if tok.pos_ != "PROPN" and not (capitalised_name and tok.pos_ in {"NOUN", "ADJ", "ADV", "X"}):
        return None
    start = tok.i
    for left in reversed(list(tok.lefts)):
        if left.dep_ in {"compound", "flat", "nmod"} and left.pos_ == "PROPN" and left.i == start - 1:
            start = left.i
        else:
            break
    return start, tok.i + 1


class _Index:
    """Mentions of one document, grouped into entities by alias."""

    def __init__(self, doc: Doc, mentions: list[_Mention], doubtful: Sequence[_Mention] = ()) -> None:
        self.doc = doc
        self.doubtful = {i: m for m in doubtful for i in range(m.start, m.end)}
        self.mentions = mentions
        self.by_token: dict[int, _Mention] = {}
        for m in mentions:
            for i in range(m.start, m.end):
                self.by_token[i] = m
        self.groups: list[_Group] = []

    def mention_for(self, tok: Token) -> tuple[_Mention, bool] | None:
        """The mention covering ``tok``; an un-tagged proper noun becomes a new mention (flagged False)."""
        found = self.by_token.get(tok.i)
        if found is not None:
            return found, found.from_ner or found.strong_type
        revived = self.doubtful.pop(tok.i, None)
        if revived is not None:
            # "Slack was bought by Salesforce": a sentence-initial word the NER called a name, and a relation agrees
            revived.from_ner = False
            self.mentions.append(revived)
            for i in range(revived.start, revived.end):
                self.by_token[i] = revived
            return revived, False
        if tok.pos_ == "NOUN" and tok.dep_ == "appos" and tok.head.pos_ == "PROPN":
            # "Alphabet, Google's parent company, invested ...": the company is Alphabet
            return self.mention_for(tok.head)
        bounds = _propn_span(tok)
        if bounds is None:
            return None
        span = self.doc[bounds[0] : bounds[1]]
        if _is_sentence_initial_common_word(span) or any(i in self.by_token for i in range(*bounds)):
            return None
        text = _strip_name(span.text)
        if len(text) < 2:
            return None
        etype, strong = _org_type(text)
        if _key(text) in KNOWN_PRODUCTS:
            etype, strong = "product", True
        mention = _Mention(
            span.start, span.end, text, etype, "PROPN", span.start_char, span.end_char, False, strong
        )
        self.mentions.append(mention)
        for i in range(mention.start, mention.end):
            self.by_token[i] = mention
        return mention, False


def _group_mentions(index: _Index) -> None:
    """Merge aliases: legal suffixes, acronyms in parentheses, surnames of full names."""
    groups: dict[str, int] = {}
    ordered = sorted(index.mentions, key=lambda m: m.start)
    persons_by_last: dict[str, set[int]] = {}
    for m in ordered:
        key = _key(m.text)
        gid = groups.get(key)
        if gid is None:
            gid = len(index.groups)
            index.groups.append(_Group())
            groups[key] = gid
        m.group = gid
        index.groups[gid].mentions.append(m)
        words = key.split()
        if m.type == "person" and len(words) >= 2:
            persons_by_last.setdefault(words[-1], set()).add(gid)
    # "International Business Machines (IBM)": the acronym joins the long name
    text = index.doc.text
    for m in ordered:
        after = text[m.char_end : m.char_end + 12]
        acronym = re.match(r"\s*\(([A-Z][A-Za-z&]{1,9})\)", after)
        if acronym:
            initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", m.text) if w[0].isupper())
            target = groups.get(_key(acronym.group(1)))
            if target is not None and initials.upper() == acronym.group(1).upper().rstrip("S"):
                _merge(index, into=m.group, other=target)
    # "Nadella" after "Satya Nadella": a lone surname joins the only person with that surname
    for m in ordered:
        words = _key(m.text).split()
        if len(words) == 1 and m.type in {"person", "company"}:
            candidates = persons_by_last.get(words[0], set()) - {m.group}
            if len(candidates) == 1 and m.label in {"PERSON", "PROPN"}:
                _merge(index, into=next(iter(candidates)), other=m.group)


def _merge(index: _Index, *, into: int, other: int) -> None:
    if into == other:
        return
    target, source = index.groups[into], index.groups[other]
    if not source.mentions:
        return
    for m in source.mentions:
        m.group = into
    target.mentions.extend(source.mentions)
    target.role_types.update(source.role_types)
    source.mentions = []


@dataclass
class _Edge:
    source: int
    target: int
    relation: str
    confidence: float
    pattern: str
    sentence: Span
    modality: str = "asserted"


def _expand_conj(tok: Token) -> list[tuple[Token, bool]]:
    """``tok`` and the tokens conjoined with it ("A and B"); the flag says whether it came from a conjunction."""
    out = [(tok, False)]
    stack = [c for c in tok.children if c.dep_ == "conj"]
    while stack:
        nxt = stack.pop(0)
        out.append((nxt, True))
        stack.extend(c for c in nxt.children if c.dep_ == "conj")
    return out


def _is_negated(verb: Token) -> bool:
    """ "not", "n't", "never", "no longer"."""
    for c in verb.children:
        if c.dep_ == "neg" or (c.lower_ in {"never", "not", "n't"} and c.dep_ == "advmod"):
            return True
        if c.lower_ == "longer" and any(g.lower_ == "no" for g in c.children):
            return True
    return False


def _clause_doubted(clause: Token) -> bool:
    """A clause under "reports that ...", "it is false that ...", "rumours that ...": not asserted."""
    head = clause.head
    if clause.dep_ in {"acl", "ccomp", "relcl"} and head.lemma_.lower() in HEARSAY_NOUNS:
        return True
    if clause.dep_ == "ccomp":
        return any(c.dep_ == "acomp" and c.lower_ in DOUBT_ADJECTIVES for c in head.children)
    return False


def _hedged(verb: Token) -> bool:
    return any(c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in HEDGING_AUX for c in verb.children)


def _future(verb: Token) -> bool:
    return any(c.dep_ == "aux" and c.lower_ in {"will", "'ll", "shall"} for c in verb.children)


def _verb_context(verb: Token) -> tuple[Token, float, str | None] | None:
    """The verb whose subject and polarity apply, a confidence adjustment and a modality; None to skip.

    Walks up coordination ("acquired X and invested in Y" share a subject and a "not") and one
    level of "agreed to"; anything planned, hedged, denied or conditional gives None.
    """
    adjust = 0.0
    modality: str | None = None
    cur = verb
    while True:
        if _is_negated(cur) or _hedged(cur):
            return None
        if any(c.dep_ == "mark" and c.lower_ in CONDITIONAL_MARKS for c in cur.children):
            return None
        if cur.dep_ == "ccomp" and (cur.head.lemma_ in DENIAL_HEADS or _is_negated(cur.head)):
            return None
        if _clause_doubted(cur):
            return None
        if cur.dep_ in {"xcomp", "ccomp", "advcl"} and cur.head.lemma_ in SPECULATIVE_HEADS:
            return None
        if _future(cur):
            adjust -= 0.15
            modality = "future"
        has_subject = any(c.dep_ in {"nsubj", "nsubjpass"} for c in cur.children)
        if has_subject:
            return cur, adjust, modality
        if cur.dep_ == "conj" and cur.head.pos_ in {"VERB", "AUX"}:
            cur = cur.head
            adjust -= 0.05
            continue
        if cur.dep_ == "xcomp" and cur.head.lemma_ in COMMITMENT_HEADS:
            cur = cur.head
            modality = "agreed"
            adjust -= 0.3
            continue
        if cur.dep_ in {"relcl", "acl"}:
            return cur, adjust - 0.05, modality
        return None


def _subjects(holder: Token, verb: Token, deps: set[str]) -> list[tuple[Token, bool]]:
    subs: list[tuple[Token, bool]] = []
    for c in holder.children:
        if c.dep_ in deps:
            if c.tag_ in {"WDT", "WP"} and holder.dep_ == "relcl":
                subs.extend(_expand_conj(holder.head))
            elif not any(d.lower_ in NEGATIVE_DETS for d in c.children if d.dep_ == "det"):
                subs.extend(_expand_conj(c))
    if not subs and holder.dep_ in {"relcl", "acl"}:
        # "OpenAI, which was founded by ...", "DeepMind, founded by ...": the modified noun
        subs.extend(_expand_conj(holder.head))
    return subs


def _prep_objects(verb: Token, preps: Iterable[str]) -> list[tuple[Token, bool]]:
    allowed = set(preps)
    objs: list[tuple[Token, bool]] = []
    for prep in verb.children:
        if prep.dep_ == "prep" and prep.lower_ in allowed:
            for pobj in prep.children:
                if pobj.dep_ == "pobj":
                    objs.extend(_expand_conj(pobj))
    return objs


def _dobjs(verb: Token) -> list[tuple[Token, bool]]:
    objs: list[tuple[Token, bool]] = []
    for c in verb.children:
        if c.dep_ != "dobj":
            continue
        if any(d.lower_ in NEGATIVE_DETS and d.dep_ in {"det", "preconj"} for d in c.children):
            continue  # "acquired no companies", "acquired neither Tesla nor Netflix"
        objs.extend(_expand_conj(c))
    return objs


def _lemma(verb: Token) -> str:
    lemma = verb.lemma_.lower()
    if verb.lower_.startswith("cofound"):
        return "cofound"
    if lemma == "take" and any(c.dep_ == "prt" and c.lower_ == "over" for c in verb.children):
        return "take_over"
    if lemma == "found" and verb.lower_.startswith("co"):
        return "cofound"
    if verb.i >= 2 and verb.doc[verb.i - 1].text == "-" and verb.doc[verb.i - 2].lower_ == "co":
        return "cofound"
    return lemma


def _relations(index: _Index, sent: Span) -> list[_Edge]:
    edges: list[_Edge] = []
    if sent.text.rstrip().endswith("?"):
        return edges
    for verb in sent:
        if verb.pos_ == "NOUN" and verb.lemma_.lower() in NOMINAL_RELATIONS:
            edges.extend(_nominal(index, verb, sent))
            continue
        if verb.pos_ == "NOUN" and verb.dep_ in {"attr", "appos"} and verb.lemma_.lower() in ROLE_NOUNS:
            edges.extend(_role_noun(index, verb, sent))
            continue
        if verb.pos_ not in {"VERB", "NOUN", "AUX"}:
            continue
        spec = VERB_RELATIONS.get(_lemma(verb))
        if spec is None and verb.lemma_.lower() != "sell":
            continue
        if verb.pos_ == "NOUN" and verb.dep_ != "ROOT":
            continue
        context = _verb_context(verb)
        if context is None:
            continue
        holder, adjust, modality = context
        passive = (
            any(c.dep_ in {"nsubjpass", "auxpass"} for c in verb.children)
            or (holder is not verb and any(c.dep_ == "nsubjpass" for c in holder.children))
            or (verb.dep_ == "acl" and verb.tag_ == "VBN" and any(c.dep_ == "agent" for c in verb.children))
        )
        if verb.lemma_.lower() == "sell":
            edges.extend(_sold_to(index, verb, holder, sent, adjust))
            continue
        assert spec is not None
        relation, attach = spec
        pairs: list[tuple[Token, bool, Token, bool, str]] = []
        if passive:
            patients = _subjects(holder, verb, {"nsubjpass"})
            agents: list[tuple[Token, bool]] = []
            for c in verb.children:
                if c.dep_ == "agent":
                    for pobj in c.children:
                        if pobj.dep_ == "pobj":
                            agents.extend(_expand_conj(pobj))
            if "dobj" not in attach:
                # "OpenAI was invested in by Microsoft" is rare; prepositional passives give no edge
                continue
            for a, ac in agents:
                for p, pc in patients:
                    pairs.append((a, ac, p, pc, "passive_agent"))
        else:
            subjects = _subjects(holder, verb, {"nsubj"})
            objects: list[tuple[Token, bool]] = []
            pattern = "active_dobj"
            if "dobj" in attach:
                objects = _dobjs(verb)
            preps = attach - {"dobj"}
            if preps:
                objects += _prep_objects(verb, preps)
                # "invested $1 billion in OpenAI": the preposition hangs on the amount
                for dobj in (c for c in verb.children if c.dep_ == "dobj"):
                    objects += _prep_objects(dobj, preps)
                pattern = "active_prep" if not objects or "dobj" not in attach else pattern
            if relation == "acquires":
                stakes = [c for c in verb.children if c.dep_ == "dobj" and c.lemma_.lower() in STAKE_NOUNS]
                if stakes:
                    # "bought a 10% stake in Rivian" is an investment, not an acquisition
                    relation, pattern = "invests_in", "stake_in"
                    objects = [o for st in stakes for o in _prep_objects(st, ["in"])]
            if not objects and relation in SYMMETRIC and len(subjects) >= 2:
                first, rest = subjects[0], subjects[1:]
                for other, _ in rest:
                    pairs.append((first[0], False, other, False, "reciprocal_subjects"))
            for s, sc in subjects:
                for o, oc in objects:
                    pairs.append((s, sc, o, oc, pattern))
        for s, sc, o, oc, pattern in pairs:
            edge = _edge(index, s, o, relation, pattern, sent, adjust - 0.05 * (sc + oc), modality)
            if edge is not None:
                edges.append(edge)
    return edges


def _nominal(index: _Index, noun: Token, sent: Span) -> list[_Edge]:
    """ "Amazon's acquisition of MGM", "the acquisition of Slack by Salesforce": stated as done, or no edge."""
    relation, prep = NOMINAL_RELATIONS[noun.lemma_.lower()]
    if any(c.dep_ in {"amod", "compound"} and c.lower_ in NOMINAL_DOUBT for c in noun.children):
        return []
    head = noun.head
    verb_subjects: list[tuple[Token, bool]] = []
    if noun.dep_ in {"nsubj", "nsubjpass", "dobj", "pobj"}:
        verb = head if noun.dep_ != "pobj" else head.head
        partnering = relation in {"partners_with", "merges_with"} and verb.lemma_.lower() in PARTNERSHIP_VERBS
        if not partnering and verb.lemma_.lower() in NOMINAL_DOUBT_HEADS:
            return []
        if _is_negated(verb) or _hedged(verb):
            return []
        context = _verb_context(verb) if verb.pos_ in {"VERB", "AUX"} else None
        if context is None and verb.pos_ in {"VERB", "AUX"}:
            return []
        if partnering and context is not None and noun.dep_ in {"dobj", "pobj"}:
            # "Nvidia formed a partnership with Foxconn", "Microsoft and OpenAI announced a partnership"
            verb_subjects = _subjects(context[0], verb, {"nsubj"})
    if verb_subjects:
        targets = _prep_objects(noun, [prep])
        out: list[_Edge] = []
        if targets:
            pairs = [(s, sc, t, tc) for s, sc in verb_subjects for t, tc in targets]
        else:
            pairs = [(verb_subjects[0][0], False, o, False) for o, _ in verb_subjects[1:]]
        for a, ac, t, tc in pairs:
            edge = _edge(index, a, t, relation, "nominal", sent, -0.05 * (ac + tc), None)
            if edge is not None:
                out.append(edge)
        return out
    agents = [c for c in noun.children if c.dep_ == "poss"]
    agents += [
        p
        for c in noun.children
        if c.dep_ == "prep" and c.lower_ == "by"
        for p in c.children
        if p.dep_ == "pobj"
    ]
    targets = _prep_objects(noun, [prep])
    found: list[_Edge] = []
    for agent in agents:
        for a, ac in _expand_conj(agent):
            for t, tc in targets:
                edge = _edge(index, a, t, relation, "nominal", sent, -0.05 * (ac + tc), None)
                if edge is not None:
                    found.append(edge)
    return found


def _role_noun(index: _Index, noun: Token, sent: Span) -> list[_Edge]:
    """ "YouTube is a subsidiary of Google" (copula) and "Sam Altman, a cofounder of OpenAI" (appositive)."""
    relation, preps, holder_is_target = ROLE_NOUNS[noun.lemma_.lower()]
    if any(
        c.dep_ in {"amod", "compound"} and c.lower_ in NOMINAL_DOUBT | {"former", "ex", "would-be"}
        for c in noun.children
    ):
        return []
    holders: list[tuple[Token, bool]] = []
    if noun.dep_ == "attr" and noun.head.pos_ in {"AUX", "VERB"} and noun.head.lemma_ == "be":
        copula = noun.head
        if _verb_context(copula) is None:
            return []
        holders = [s for c in copula.children if c.dep_ == "nsubj" for s in _expand_conj(c)]
    elif noun.dep_ == "appos":
        holders = [(noun.head, False)]
    if not holders:
        return []
    others = _prep_objects(noun, preps)
    out: list[_Edge] = []
    for h, hc in holders:
        for o, oc in others:
            src, dst = (o, h) if holder_is_target else (h, o)
            if relation in REVERSED:
                src, dst = dst, src  # _edge turns founded_by around again
            edge = _edge(index, src, dst, relation, "role_noun", sent, -0.05 * (hc + oc), None)
            if edge is not None:
                out.append(edge)
    return out


def _sold_to(index: _Index, verb: Token, holder: Token, sent: Span, adjust: float) -> list[_Edge]:
    """ "X sold Y to Z" is Z acquires Y."""
    out: list[_Edge] = []
    if any(c.dep_ in {"nsubjpass", "auxpass"} for c in verb.children):
        return out
    for buyer, bc in _prep_objects(verb, ["to"]):
        for item, ic in _dobjs(verb):
            edge = _edge(index, buyer, item, "acquires", "sold_to", sent, adjust - 0.05 * (bc + ic), None)
            if edge is not None:
                out.append(edge)
    return out


ROLE_TYPES = {
    # relation -> (source role type, target role type); None keeps the NER guess
    "acquires": ("company", "company"),
    "invests_in": (None, None),
    "partners_with": (None, None),
    "competes_with": (None, None),
    "merges_with": ("company", "company"),
    "founded_by": ("company", "person"),
    "develops": (None, None),
    "launches": (None, None),
}


def _edge(
    index: _Index,
    s: Token,
    o: Token,
    relation: str,
    pattern: str,
    sent: Span,
    adjust: float,
    modality: str | None,
) -> _Edge | None:
    src = index.mention_for(s)
    dst = index.mention_for(o)
    if src is None or dst is None:
        return None
    (src_m, src_tagged), (dst_m, dst_tagged) = src, dst
    if relation in REVERSED:
        src_m, dst_m = dst_m, src_m
        src_tagged, dst_tagged = dst_tagged, src_tagged
    confidence = BASE_CONFIDENCE[pattern] + adjust - 0.1 * ((not src_tagged) + (not dst_tagged))
    if modality == "agreed":
        confidence = min(confidence, BASE_CONFIDENCE["agreed_to"])
    roles = ROLE_TYPES.get(relation, (None, None))
    for m, role in ((src_m, roles[0]), (dst_m, roles[1])):
        if role is not None and not m.strong_type:
            m.type = _role_type(m, role)
    if relation in {"partners_with", "competes_with"} and not _company_pair(src_m, dst_m):
        return None  # colleagues and rivals between people are not company relations
    edge = _Edge(
        -1, -1, relation, round(max(0.3, min(0.95, confidence)), 2), pattern, sent, modality or "asserted"
    )
    edge.source, edge.target = id(src_m), id(dst_m)
    return edge


def _company_pair(a: _Mention, b: _Mention) -> bool:
    """Both ends can be firms: a lone-word PERSON facing a company is the NER's mistake ("Moderna")."""
    types = {a.type, b.type}
    if "person" not in types:
        return True
    if types == {"person"}:
        return False
    person = a if a.type == "person" else b
    if person.strong_type or person.end - person.start != 1:
        return False
    person.type = "company"
    return True


def _role_type(m: _Mention, role: str) -> str:
    """Reconcile the NER label with the role a relation gives a mention."""
    if role == "company":
        if m.type in {"person", "location"} and _key(m.text) not in KNOWN_PLACES:
            return (
                "company" if m.type == "location" or m.label != "PERSON" or m.end - m.start != 2 else m.type
            )
        return m.type if m.type in {"company", "organization", "product"} else "company"
    if role == "person":
        words = m.text.split()
        looks_like_name = 2 <= len(words) <= 3 and all(w[:1].isupper() for w in words)
        if m.type in {"company", "location"} and looks_like_name and not _has_legal_suffix(m.text):
            return "person" if _key(m.text) not in KNOWN_COMPANIES else m.type
        return m.type
    return m.type


def _description(doc: Doc, original: str, mentions: list[_Mention]) -> str | None:
    """The first appositive noun phrase about the entity ("OpenAI, a San Francisco start-up, ...")."""
    for m in sorted(mentions, key=lambda x: x.start):
        head = doc[m.end - 1]
        for child in head.children:
            if child.dep_ == "appos" and child.pos_ == "NOUN" and child.i >= m.end:
                tokens = [t for t in child.subtree if not (t.is_punct and t.text in {",", ";", "("})]
                if not tokens or len(tokens) > 12:
                    continue
                text = original[tokens[0].idx : tokens[-1].idx + len(tokens[-1].text)].strip(" ,;()")
                if text:
                    return text
    return None


def _canonical(mentions: list[_Mention], etype: str) -> str:
    texts = [m.text for m in mentions]
    if etype == "person":
        return max(texts, key=lambda t: (len(t.split()), texts.count(t)))
    plain = [t for t in texts if not _has_legal_suffix(t)]
    pool = plain or texts
    counts = Counter(pool)
    first_seen = {t: i for i, t in reversed(list(enumerate(pool)))}
    return max(counts, key=lambda t: (counts[t], -first_seen[t]))


def extract_entities(
    doc: Doc,
    entity_types: Sequence[str] | None = None,
    extract_relations: bool = True,
    source_text: str | None = None,
) -> dict[str, Any]:
    """Entities of the requested types, with merged aliases, and (optionally) relation edges between them.

    ``doc`` is the parse of ``prepare_text(source_text)``; evidence is cut from ``source_text``.
    """
    original = source_text if source_text is not None and len(source_text) == len(doc.text) else doc.text
    started = time.perf_counter()
    wanted = normalise_entity_types(entity_types)
    mentions, doubtful = _ner_mentions(doc)
    taken = {i for m in mentions for i in range(m.start, m.end)}
    mentions += _tech_mentions(doc, taken)
    index = _Index(doc, mentions, doubtful)
    raw_edges: list[_Edge] = []
    if extract_relations:
        for sent in doc.sents:
            raw_edges.extend(_relations(index, sent))
    _group_mentions(index)

    by_id = {id(m): m for m in index.mentions}
    entities: list[dict[str, Any]] = []
    group_names: dict[int, str] = {}
    group_types: dict[int, str] = {}
    for gid, group in enumerate(index.groups):
        if not group.mentions:
            continue
        strong = [m.type for m in group.mentions if m.strong_type]
        votes = Counter(strong or [m.type for m in group.mentions])
        etype = votes.most_common(1)[0][0]
        name = _canonical(group.mentions, etype)
        group_names[gid], group_types[gid] = name, etype
        if etype not in wanted:
            continue
        aliases = sorted({m.text for m in group.mentions} - {name})
        ner_share = sum(m.from_ner or m.strong_type for m in group.mentions) / len(group.mentions)
        entities.append(
            {
                "name": name,
                "type": etype,
                "aliases": aliases,
                "description": _description(doc, original, group.mentions),
                "mentions": len(group.mentions),
                "confidence": round(
                    0.6 + 0.3 * ner_share + (0.05 if any(m.strong_type for m in group.mentions) else 0), 2
                ),
                "spacy_labels": sorted({m.label for m in group.mentions}),
                "offsets": [
                    [m.char_start, m.char_end] for m in sorted(group.mentions, key=lambda m: m.start)
                ][:20],
            }
        )

    edges: list[dict[str, Any]] = []
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for e in raw_edges:
        src, dst = by_id[e.source], by_id[e.target]
        if src.group == dst.group:
            continue
        if group_types.get(src.group) not in wanted or group_types.get(dst.group) not in wanted:
            continue
        s_name, t_name = group_names[src.group], group_names[dst.group]
        # a symmetric relation keeps the sentence's direction but is one edge whichever way it is stated
        key = (
            (min(s_name, t_name), e.relation, max(s_name, t_name))
            if e.relation in SYMMETRIC
            else (s_name, e.relation, t_name)
        )
        existing = seen.get(key)
        if existing is not None:
            existing["confidence"] = max(existing["confidence"], e.confidence)
            existing["occurrences"] += 1
            continue
        raw = original[e.sentence.start_char : e.sentence.end_char]
        start = e.sentence.start_char + (len(raw) - len(raw.lstrip()))
        evidence = raw.strip()
        end = start + len(evidence)
        item = {
            "source": s_name,
            "target": t_name,
            "relation": e.relation,
            "confidence": e.confidence,
            "evidence": evidence,
            "evidence_start": start,
            "evidence_end": end,
            "pattern": e.pattern,
            "modality": e.modality,
            "occurrences": 1,
        }
        seen[key] = item
        edges.append(item)
    entities.sort(key=lambda x: min(o[0] for o in x["offsets"]))
    return {
        "entities": entities,
        "edges": edges,
        "metadata": {
            "total_entities": len(entities),
            "total_relationships": len(edges),
            "entity_types": list(wanted),
            "relations_extracted": extract_relations,
            "processing_time_ms": round((time.perf_counter() - started) * 1000, 2),
        },
    }
