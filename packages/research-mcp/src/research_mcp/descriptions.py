"""Tool text, kept together: every description and parameter text research-mcp publishes.

Descriptions are product text: every client sends them to its model on every request, so they are
short, in seed 004's words (each begins with the seed's own sentence, ``tests/test_research_descriptions.py``),
and say what comes back. Parameter texts with ``{max_text_chars:,}``-style fields are filled from the
settings when the server is built.
"""

__all__ = [
    "BATCH_DESCRIPTIONS",
    "CACHE_CLEAR",
    "CACHE_STATS",
    "CITATION_VALIDATE",
    "CONFLICT_DETECT",
    "ENTITY_EXTRACT",
    "FACT_EXTRACT",
    "INSTRUCTIONS",
    "ITEMS_PARAM",
    "OPTIONS_PARAM",
    "SOURCE_RATE",
]

INSTRUCTIONS = """\
Research data tools. Typical flow for a report: fact-extract each source text (numbers with \
entity, attribute, period and confidence), entity-extract for who/what and relations \
(acquires, invests_in, partners_with, founded_by, ...), source-rate each source URL (A-E), \
citation-validate the report's citations, then conflict-detect over the facts gathered from \
different sources. For more than a few inputs use the batch-* variant (one call, shared cache, \
per-item errors). Results are cached (cache-stats, cache-clear). Errors read \
"Error: <CODE>: <message>"; VALIDATION_ERROR means fix the arguments and retry.\
"""

FACT_EXTRACT = """\
Extract atomic facts from text with source attribution (numbers, money, percentages, dates).
Input: text (required), source_url, source_metadata {title, author, date}.
Output: facts [{entity, attribute, value, value_type, confidence (High/Medium/Low), source {url, title}, \
numeric_value, period, sentence, metric and dataset for a paper's results (tables and prose), found_by, ...}], \
extraction_quality (0-10), metadata {total_facts, processing_time_ms}.\
"""
ENTITY_EXTRACT = """\
Extract named entities and relationships from text.
Input: text (required), entity_types (any of company, person, technology, location, organization, \
product, event, method, dataset, metric, task; default all), extract_relations (default true).
Output: entities [{name, type, aliases, description, mentions, confidence}], edges [{source, target, \
relation (acquires, invests_in, partners_with, competes_with, founded_by, develops, evaluated_on, \
outperforms, uses, ...), confidence, \
evidence (the sentence), evidence_start, evidence_end}], metadata {total_entities, total_relationships}. \
Negated, hedged or planned statements give no edge.\
"""
CITATION_VALIDATE = """\
Validate citations for completeness and quality: completeness (claim, author, date, title, url), validity \
(impossible dates, malformed URLs/DOIs, a title that is only a URL), and each URL's source rated A-E.
Input: citations [{claim (required), author, date, title, url, doi, source_text}], verify_urls (fetch each \
URL: status, redirects; look each DOI up at Crossref/doi.org: registered, retracted, corrected, and whether \
the title, author and year are the registered ones), check_accuracy (read the page, or source_text when \
given, and judge the claim: verdict supported|contradicted|not_found|unverifiable, up to 3 evidence passages \
with offsets, the claim's numbers compared by value).
Output: total_citations, complete_citations, quality_distribution {A..E}, issues [{citation_index, \
field, issue, severity, detail}], valid_citations, citations [per-citation details].\
"""
SOURCE_RATE = """\
Rate source quality on A-E scale, from the source's registered domain: A peer-reviewed/academic/government \
(.edu, .ac.uk, .gov, nature.com...), B preprints, industry reports, official company sites, C established \
news, D blogs/personal/user-generated sites, E unknown, bare IPs and look-alike domains.
Input: source_url (required), source_type (academic|industry|news|blog|official; informs, never overrides), metadata.
Output: quality_rating, justification, credibility_indicators, domain, category, confidence.\
"""
CONFLICT_DETECT = """\
Detect conflicts between facts from different sources (same entity and attribute, different values).
Input: facts [{entity, attribute, value, value_type, source}] (fact-extract's facts work as they are), \
tolerance {numerical_threshold} (default 0.1 = 10%).
Output: total_conflicts, conflicts [{entity, attribute, type, severity, values, sources, \
difference_percentage, possible_explanation}], severity_summary {critical, moderate, minor}.\
"""
CACHE_STATS = """\
Get cache statistics for all tool caches.
Output: factCache, entityCache, citationCache, sourceRatingCache, conflictCache, each {size, hits, misses, \
hitRate, maxSize, ttlSeconds}.\
"""
CACHE_CLEAR = 'Clear all tool caches. Output: {"success": true, "message": "All caches cleared"}.'

BATCH_DESCRIPTIONS = {
    "fact-extract": "Process multiple texts for fact extraction. items: [{text, source_url?, source_metadata?} or a "
    "string]; options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, data "
    "(fact-extract output), error, processingTimeMs, cacheHit}], summary {total, successful, failed, "
    "totalTimeMs, avgTimeMs, cacheHitRate}}. A bad item fails only itself.",
    "entity-extract": "Extract entities from multiple texts. items: [{text, entity_types?, extract_relations?} or a "
    "string]; options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, data "
    "(entity-extract output), error, processingTimeMs, cacheHit}], summary}. A bad item fails only itself.",
    "citation-validate": "Validate multiple citations. items: [{citations, verify_urls?, check_accuracy?} or one "
    "citation object]; options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, "
    "data (citation-validate output), error, processingTimeMs, cacheHit}], summary}.",
    "source-rate": "Rate multiple sources A-E. items: [{source_url, source_type?, metadata?} or a URL string]; "
    "options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, data "
    "(source-rate output), error, processingTimeMs, cacheHit}], summary}.",
    "conflict-detect": "Detect conflicts in multiple fact sets. items: [{facts, tolerance?} or a list of facts]; "
    "options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, data "
    "(conflict-detect output), error, processingTimeMs, cacheHit}], summary}.",
}
"""The batch-* tool of each core tool: its description."""

ITEMS_PARAM = "The inputs, one per item (see the tool description)."
OPTIONS_PARAM = "maxConcurrency (1-64, default 5), useCache (default true), stopOnError (default false)."
