"""Scientific names: the gazetteer (SciREX's annotated names), metric spellings, and the words that type a name.

The gazetteer (``entity/data/science_names.tsv``) holds the method, dataset, metric and task names that
SciREX's annotators labelled in at least two training papers (built by
``tests/eval/data/science/build.py``; the papers the evaluation scores are kept out of it). It is read
once, on first use, so a server that never reads a paper does not pay for it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

__all__ = [
    "DATASET_HEADS",
    "METHOD_HEADS",
    "TASK_HEADS",
    "canonical_metric",
    "dataset_key",
    "gazetteer",
    "known_metric",
    "lookup",
    "method_key",
    "metric_in",
    "result_key",
    "task_in",
]

# the last word of a name that says what it names ("Residual Networks", "Penn Treebank", "Machine Translation")
METHOD_HEADS = frozenset(
    [
        "network",
        "networks",
        "net",
        "nets",
        "model",
        "models",
        "transformer",
        "transformers",
        "attention",
        "encoder",
        "encoders",
        "decoder",
        "decoders",
        "algorithm",
        "algorithms",
        "architecture",
        "layer",
        "layers",
        "normalization",
        "normalisation",
        "embedding",
        "embeddings",
        "mechanism",
        "optimizer",
        "optimiser",
        "regression",
        "classifier",
        "machine",
        "machines",
        "autoencoder",
        "autoencoders",
        "lstm",
        "lstms",
        "rnn",
        "cnn",
        "gan",
        "gans",
        "method",
        "framework",
        "parser",
        "tagger",
        "search",
        "descent",
        "dropout",
        "pooling",
        "unit",
        "units",
        "kernel",
        "forest",
        "tree",
        "trees",
        "module",
        "block",
        "blocks",
        "head",
        "heads",
        "memory",
    ]
)
DATASET_HEADS = frozenset(
    [
        "dataset",
        "datasets",
        "corpus",
        "corpora",
        "benchmark",
        "benchmarks",
        "treebank",
        "challenge",
        "suite",
        "collection",
        "database",
    ]
)
TASK_HEADS = frozenset(
    [
        "translation",
        "classification",
        "recognition",
        "detection",
        "segmentation",
        "parsing",
        "answering",
        "tagging",
        "labeling",
        "labelling",
        "retrieval",
        "summarization",
        "summarisation",
        "generation",
        "captioning",
        "inference",
        "estimation",
        "tracking",
        "prediction",
        "completion",
        "resolution",
        "extraction",
        "linking",
        "understanding",
        "reasoning",
        "modeling",
        "modelling",
    ]
)


@lru_cache(maxsize=1)
def gazetteer() -> tuple[dict[str, str], dict[str, str]]:
    """(names with a capital or digit, exact spelling -> type; lower-case phrases -> type)."""
    exact: dict[str, str] = {}
    lower: dict[str, str] = {}
    raw = (
        resources.files("research_mcp.entity").joinpath("data/science_names.tsv").read_text(encoding="utf-8")
    )
    for line in raw.splitlines():
        if not line or line.startswith("#"):
            continue
        name, etype, _n = line.split("\t")
        if re.search(r"[A-Z0-9]", name):
            exact.setdefault(name, etype)
        else:
            lower.setdefault(name, etype)
    for alias, canonical in _metrics().items():
        if re.search(r"[A-Za-z]{2}", alias) and len(alias) > 2:
            lower.setdefault(alias, "metric")
        exact.setdefault(canonical, "metric")
    return exact, lower


def lookup(name: str) -> str | None:
    """The scientific type of ``name`` in the gazetteer, or None."""
    exact, lower = gazetteer()
    found = exact.get(name)
    if found is None and name.islower():
        found = lower.get(name)
    return found


@lru_cache(maxsize=1)
def _metrics() -> dict[str, str]:
    raw = resources.files("research_mcp.science").joinpath("data/metrics.tsv").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for line in raw.splitlines():
        if line and not line.startswith("#"):
            alias, canonical = line.split("\t")
            out[alias] = canonical
    return out


_SCORE_WORDS = re.compile(
    r"\b(?:scores?|metric|values?|\(%\)|%)\s*$|^\s*(?:mean|avg\.?|average)\s+", re.IGNORECASE
)


def canonical_metric(name: str | None) -> str | None:
    """One spelling per metric ("BLEU score" -> "BLEU", "Acc." -> "accuracy"); unknown names come back trimmed."""
    if not name:
        return None
    text = re.sub(r"[*_`]", "", name).strip(" :.()")
    key = re.sub(r"\s+", " ", text.lower()).replace("–", "-")
    table = _metrics()
    for candidate in (key, key.rstrip("."), _SCORE_WORDS.sub("", key).strip(), key.replace(" ", "-")):
        if candidate in table:
            return table[candidate]
    return text or None


def metric_in(header: str) -> tuple[str | None, str]:
    """The metric a column header names and the rest of the header ("EN.QA F1 Score" -> ("F1", "EN.QA"))."""
    words = header.split()
    for size in range(min(4, len(words)), 0, -1):
        for start in (len(words) - size, 0):
            piece = " ".join(words[start : start + size])
            canonical = known_metric(piece)
            if canonical is not None:
                rest = " ".join(words[:start] + words[start + size :]).strip(" ,;:-()")
                return canonical, rest
    return None, header


# Settings of a run, not measures of its result (SciREX's annotators sometimes typed them Metric).
_SETTINGS = re.compile(
    r"^(?:learning rates?|batch sizes?|dropout(?: rates?)?|weight decay|momentum|epochs?|warm-?up(?: steps)?|"
    r"beam sizes?|hidden sizes?|steps|training steps|parameters|params)$"
)


def known_metric(piece: str) -> str | None:
    """``piece``'s metric name when it names one (the spellings table, then the gazetteer), else None."""
    key = re.sub(r"[*_`]", "", piece).strip(" :()").lower()
    if _SETTINGS.match(key):
        return None
    table = _metrics()
    for candidate in (key, key.rstrip("."), _SCORE_WORDS.sub("", key).strip()):
        if candidate in table:
            return table[candidate]
    exact, lower = gazetteer()
    clean = re.sub(r"[*_`]", "", piece).strip(" :()")
    if exact.get(clean) == "metric" or lower.get(key) == "metric":
        return clean
    return None


_LANGUAGES = {
    "en": "english", "de": "german", "fr": "french", "ro": "romanian", "cs": "czech", "ru": "russian",
    "zh": "chinese", "ja": "japanese", "es": "spanish", "it": "italian", "fi": "finnish", "tr": "turkish",
}  # fmt: skip
_GENERIC_METHOD_WORDS = frozenset(
    ["the", "a", "an", "our", "model", "models", "method", "approach", "system", "proposed"]
)


def dataset_key(name: str | None) -> str:
    """One key per dataset spelling: a language pair by its languages ("EN-DE", "English-to-German",
    "WMT 2014 English-German" -> "english-german"), else the words in lower case."""
    if not name:
        return ""
    words = re.findall(r"[a-z0-9.]+", name.lower().replace("-", " "))
    langs = [_LANGUAGES.get(w, w) for w in words if w in _LANGUAGES or w in _LANGUAGES.values()]
    if len(langs) == 2:
        return "-".join(langs)
    return " ".join(w for w in words if w not in {"the", "dataset", "benchmark", "task", "test", "set"})


def method_key(name: str) -> str:
    """One key per method spelling: its words without generic ones, in any order ("big Transformer" and
    "Transformer (big)" are one method)."""
    words = re.findall(r"[a-z0-9][a-z0-9.\-]*", name.lower())
    return " ".join(sorted({w for w in words if w not in _GENERIC_METHOD_WORDS}))


def result_key(entity: str, metric: str, dataset: str | None) -> str:
    """The grouping key of a result: method, metric and dataset, each normalised."""
    return f"{method_key(entity)} | {canonical_metric(metric)} | {dataset_key(dataset)}"


def task_in(text: str | None) -> str | None:
    """The longest task the gazetteer knows in ``text`` (a caption, a sentence), or None."""
    if not text:
        return None
    exact, lower = gazetteer()
    words = re.findall(r"[A-Za-z0-9][\w\-]*", text)
    best: str | None = None
    for i in range(len(words)):
        for j in range(min(len(words), i + 5), i, -1):
            piece = " ".join(words[i:j])
            if (exact.get(piece) or lower.get(piece.lower())) == "task" and (
                best is None or len(piece) > len(best)
            ):
                best = piece
                break
    if best is None:  # "English constituency parsing": words before a task's head noun
        heads = "|".join(sorted(TASK_HEADS))
        m = re.search(rf"\b((?:[A-Za-z][\w\-]*\s+){{1,2}}(?:{heads}))\b", text)
        if m:
            kept = [w for w in m.group(1).split() if w.lower() not in _STOP_WORDS]
            best = " ".join(kept) if len(kept) > 1 else None
    return best


_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "of",
        "on",
        "in",
        "for",
        "and",
        "or",
        "with",
        "by",
        "from",
        "well",
        "is",
        "are",
        "be",
        "as",
        "at",
        "this",
        "that",
        "our",
        "we",
    ]
)
