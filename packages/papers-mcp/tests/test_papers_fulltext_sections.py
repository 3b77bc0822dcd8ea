"""The splitter on small hand-written pages shaped like the fixture papers' hard cases.

Fast (no PDF conversion): each test builds the per-page markdown the layout engine produces for
one structure (quoted in a comment from the fixture's conversion) and checks the part each
paragraph must land in. The real PDFs are covered by test_papers_fulltext_papers.py.
"""

from __future__ import annotations

from papers_mcp.sections import (
    ConvertedDocument,
    Sections,
    TocEntry,
    clean_pages,
    split_document,
    unaccounted_words,
)

ABSTRACT = "## **Abstract**\n\nWe study how papers are split into parts."
INTRO = "## **1 Introduction**\n\nSplitting papers is an old problem with many pitfalls for parsers."
PROSE = (
    "This paragraph is ordinary body text that runs long enough to look like prose to the splitter, "
    "with several clauses, no citation years and no list markers, exactly like a column of a paper."
)


def split(*pages: str, toc: tuple[TocEntry, ...] = ()) -> Sections:
    return split_document(ConvertedDocument(pages_md=pages, toc=toc, pages=len(pages)))


def test_heading_led_references_then_lettered_appendix() -> None:
    # 1512.03385v1: "## **References**" ... then "## **A. Object Detection Baselines**" with no word Appendix.
    parts = split(
        f"# Title\n\n{ABSTRACT}\n\n{INTRO}",
        "## **References**\n\n- [1] Y. Bengio. Learning long-term dependencies. IEEE TNN, 1994.\n\n"
        "- [2] C. M. Bishop. Neural networks for pattern recognition. 1995.",
        "## **A. Object Detection Baselines**\n\nIn this section we introduce our detection method.",
    )
    assert "We study how papers" in parts.front
    assert parts.body.startswith("## **1 Introduction**")
    assert "[2] C. M. Bishop" in parts.references and "Object Detection" not in parts.references
    assert parts.appendix.startswith("## **A. Object Detection Baselines**")


def test_revtex_appendix_before_a_reference_list_without_heading() -> None:
    # 0801.0012v2 / 1704.01689v1: "## APPENDIX A: ..." and then "- [1] S. Tomonaga, Prog. Theor. Phys. 1, 27 (1946)."
    parts = split(
        f"# Title\n\n{ABSTRACT}\n\n## I. INTRODUCTION\n\n{PROSE}\n\n## Acknowledgments\n\nWe thank a colleague.",
        "## APPENDIX A: CTP PROPAGATOR\n\nLet us consider free particles.\n\n"
        "- [1] S. Tomonaga, Prog. Theor. Phys. 1, 27 (1946).\n\n"
        "- [2] J. Schwinger, V. Weisskopf, Phys. Rev. 73, 1272A (1948).\n\n"
        "- [3] L. V. Keldysh, Zh. Eksp. Teor. Fiz. 47, 1515 (1964).",
    )
    assert "We thank a colleague" in parts.body and "APPENDIX" not in parts.body
    assert parts.appendix.startswith("## APPENDIX A") and "Tomonaga" not in parts.appendix
    assert parts.references.startswith("- [1] S. Tomonaga") and "Keldysh" in parts.references


def test_column_text_read_into_the_reference_list_goes_back_to_the_body() -> None:
    # 1111.2011v2 p8: refs 1-11 (left column, bottom), then the right column's discussion and
    # acknowledgments, then refs 12-20.
    parts = split(
        f"# Title\n\n{ABSTRACT}\n\n## **I. INTRODUCTION**\n\n{PROSE}",
        "## **V. DISCUSSION**\n\nWe have presented a treatment.\n\n"
        "- 1 D. C. Johnston, Adv. Phys. **59** , 803 (2010).\n\n"
        "- 2 D. J´erome and H. J. Schulz, Adv. Phys. **31** , 299 (1982).\n\n"
        "- 3 A. Georges, G. Kotliar, Rev. Mod. Phys. **68** , 13 (1996).\n\n"
        f"{PROSE.replace('This paragraph', 'That paragraph')}\n\n"
        "## **ACKNOWLEDGMENTS**\n\nWe would like to thank Predrag Nikolic for helpful discussions and support.\n\n"
        "- 12 R. Burioni, D. Cassi, and C. Destri, Phys. Rev. Lett. **85** , 1496 (2000).",
        toc=(TocEntry(1, "Title", 1), TocEntry(2, "I Introduction", 1), TocEntry(2, " References", 2)),
    )
    assert "That paragraph is ordinary body text" in parts.body
    assert "Predrag Nikolic" in parts.body
    assert "D. C. Johnston" in parts.references and "R. Burioni" in parts.references
    assert "That paragraph" not in parts.references and parts.appendix == ""
    # Detached TeX accents are rejoined and the space after bold is dropped.
    assert "D. Jérome" in parts.references and "**31**, 299" in parts.references


def test_table_deferred_after_the_references_stays_in_the_body() -> None:
    # 1001.0012v2 p11: "TABLE 1", its title, then a markdown table, after "### REFERENCES".
    parts = split(
        f"# Title\n\n{ABSTRACT}\n\n## 1. INTRODUCTION\n\n{PROSE}",
        "### REFERENCES\n\nAgol, E., Cowan, N. B., & Knutson, H. A. 2010, ApJ, 721, 1861\n\n"
        "Seager, S., & Deming, D. 2009, ApJ, 703, 1884",
        "TABLE 1\n\nSecondary Eclipses of Exoplanets\n\n|Planet|T [K]|\n|---|---|\n|CoRoT-1b|2424(84)|",
    )
    assert "Secondary Eclipses of Exoplanets" in parts.body and "CoRoT-1b" in parts.body
    assert "Seager, S., & Deming" in parts.references and "TABLE 1" not in parts.references
    assert parts.appendix == ""


def test_bibliography_read_as_a_table_becomes_list_items() -> None:
    # 1311.2542v3 p48: "|[EW13]|Armin Eftekhari and Michael B Wakin. ...|" rows.
    parts = split(
        f"# Title\n\n{ABSTRACT}\n\n{INTRO}",
        "# References\n\n- [AC09] Nir Ailon and Bernard Chazelle. The Fast JL Transform. SIAM J. Comput., 2009.",
        "|[EW13]|Armin Eftekhari and Michael B Wakin. New analysis. CoRR, 2013.|\n|---|---|\n"
        "|[Fig76]|T. Figiel. On the moduli of convexity. Studia Math., 1976.|\n"
        "|[FR13]|Simon Foucart and Holger Rauhut. Compressive Sensing. Birkhäuser, 2013.|",
        "# Appendix A. Tools from probability theory\n\nWe collect some useful tools.",
    )
    assert "- [Fig76] T. Figiel. On the moduli of convexity." in parts.references
    assert "[EW13]" not in parts.body and "[EW13]" not in parts.appendix
    assert parts.appendix.startswith("# Appendix A.")


def test_outline_finds_the_body_past_a_printed_table_of_contents() -> None:
    # 1311.2542v3 p1 prints "Contents ... References 45 ... Appendix A. 50"; the outline says "1. Introduction" is p2.
    parts = split(
        "# TITLE\n\nAbstract. Let us begin.\n\nContents\n\n1. Introduction 2\n\nReferences 45\n\nAppendix A. Tools 50",
        f"# 1. Introduction\n\n{PROSE}",
        "# References\n\n- [AC09] Nir Ailon and Bernard Chazelle. The Fast JL Transform. SIAM J. Comput., 2009.",
        toc=(TocEntry(1, "1. Introduction", 2), TocEntry(1, "References", 3)),
    )
    assert "Contents" in parts.front and "Appendix A. Tools 50" in parts.front
    assert parts.body.startswith("# 1. Introduction")
    assert parts.references.startswith("# References")


def test_running_heads_page_numbers_and_the_arxiv_stamp_are_removed() -> None:
    pages = [
        "arXiv:1001.0012v2 [astro-ph.EP] 20 Dec 2010\n\n# THE TITLE\n\nThe ﬁrst page.",
        "2 Cowan & Agol\n\nSecond page text.",
        "Albedo on Hot Exoplanets 3\n\nThird page text.",
        "4 Cowan & Agol\n\nFourth page text.",
        "Albedo on Hot Exoplanets 5\n\nFifth page text.\n\n5",
    ]
    cleaned = ["\n".join(blocks) for blocks in clean_pages(pages)]
    assert cleaned[0] == "# THE TITLE\nThe first page.", "stamp removed, ligature folded"
    assert cleaned[1:] == ["Second page text.", "Third page text.", "Fourth page text.", "Fifth page text."]


# --- structures handled by principle (issue 13); each case also checks that no word is lost -----------

LONG = (
    "The measured distributions agree with the prediction within the quoted uncertainties over the whole "
    "range, and no significant deviation is seen in any of the channels studied here. "
)
REFS = (
    "- [1] F. Englert and R. Brout, Phys. Rev. Lett. 13 (1964) 321.\n\n"
    "- [2] P. W. Higgs, Phys. Lett. 12 (1964) 132.\n\n"
    "- [3] G. S. Guralnik, C. R. Hagen and T. W. B. Kibble, Phys. Rev. Lett. 13 (1964) 585."
)


def split_checked(*pages: str, toc: tuple[TocEntry, ...] = ()) -> Sections:
    document = ConvertedDocument(pages_md=pages, toc=toc, pages=len(pages))
    parts = split_document(document)
    missing, extra = unaccounted_words(document, parts)
    assert not missing and not extra, (missing, extra)
    return parts


def test_an_unheaded_introduction_after_the_abstract_and_keywords_is_body() -> None:
    # AMS and letter styles: "Abstract. ..." then MSC/keywords lines, then the introduction without
    # a heading of its own, then "1. Preliminaries".
    parts = split_checked(
        "# On Tilings\n\nA. Author\n\nAbstract. We count tilings of regions by lozenges and dominoes.\n\n"
        "2010 Mathematics Subject Classification. 05B45.\n\nKey words: tilings, lozenges.\n\n"
        f"Tilings have a long history. {LONG}",
        f"## 1. Preliminaries\n\n{PROSE}",
    )
    assert "Tilings have a long history" in parts.body and "Tilings have a long history" not in parts.front
    assert "We count tilings" in parts.front and "Subject Classification" in parts.front
    assert parts.body.startswith("Tilings have a long history")


def test_headings_in_the_text_win_over_an_outline_of_the_appendices_only() -> None:
    # CERN letters: the outline lists only "A The ATLAS Collaboration"; the letter itself has no
    # section headings. The letter is body, its references are references, the author list appendix.
    parts = split_checked(
        "# Combined Measurement\n\nThe ATLAS and CMS Collaborations\n\n## Abstract\n\n"
        "A measurement of the mass is presented.\n\nSubmitted to Physical Review Letters",
        f"The study of symmetry breaking is a goal of the LHC. {LONG}\n\n{PROSE}\n\n"
        "## Acknowledgments\n\nWe thank CERN for the operation of the LHC.",
        f"## References\n\n{REFS}",
        "## A The ATLAS Collaboration\n\nG. Aad, B. Abbott, J. Abdallah, O. Abdinov, R. Aben",
        toc=(TocEntry(1, "A The ATLAS Collaboration", 4),),
    )
    assert parts.body.startswith("The study of symmetry breaking") and "We thank CERN" in parts.body
    assert "A measurement of the mass" in parts.front
    assert "F. Englert" in parts.references and "G. Aad" not in parts.references
    assert parts.appendix.startswith("## A The ATLAS Collaboration") and "G. Aad" in parts.appendix


def test_a_running_head_that_repeats_the_references_title_does_not_end_the_list() -> None:
    parts = split_checked(
        f"# Title\n\n{ABSTRACT}\n\n{INTRO}\n\n{PROSE}",
        f"## References\n\n{REFS}",
        "## References\n\n- [4] T. W. B. Kibble, Phys. Rev. 155 (1967) 1554.\n\n"
        "- [5] ATLAS Collaboration, Phys. Lett. B 716 (2012) 1.",
        "## Appendix A. Proofs\n\nWe prove the lemma.",
    )
    assert "T. W. B. Kibble, Phys. Rev. 155" in parts.references and "ATLAS Collaboration" in parts.references
    assert parts.appendix.startswith("## Appendix A. Proofs") and "Kibble" not in parts.appendix


def test_reference_lists_under_other_titles_or_none() -> None:
    for title in ("Bibliography", "Literature Cited", "Works Cited", "LITERATURE CITED", "Bibliografia"):
        parts = split_checked(f"# Title\n\n{ABSTRACT}\n\n{INTRO}", f"## {title}\n\n{REFS}")
        assert "P. W. Higgs" in parts.references and "P. W. Higgs" not in parts.body, title
    # No title at all, author-year entries (AASTeX, MNRAS): a run of reference-shaped entries.
    parts = split_checked(
        f"# Title\n\n{ABSTRACT}\n\n{INTRO}\n\n{PROSE}",
        "Agol, E., Cowan, N. B., & Knutson, H. A. 2010, ApJ, 721, 1861\n\n"
        "Boslough, M., Brown, P., & Harris, A. W. 2015, in Aerospace Conference, 1-12\n\n"
        "Brown, P., Assink, J. D., Astiz, L., et al. 2013, Nature, 503, 238\n\n"
        "Seager, S., & Deming, D. 2009, ApJ, 703, 1884",
    )
    assert parts.references.startswith("Agol, E.") and "Seager, S." in parts.references
    assert "Agol" not in parts.body


def test_statements_stay_in_the_body_and_checklists_and_biographies_are_appendix() -> None:
    # ACL: "7 Limitations" and "Ethics Statement" before the references; NeurIPS: the checklist
    # after them (its "2. Limitations" item included); IEEE journals: biographies after them.
    parts = split_checked(
        f"# Title\n\n{ABSTRACT}\n\n{INTRO}",
        "## 6 Conclusion\n\nWe conclude.\n\n## 7 Limitations\n\nOur method needs labels.\n\n"
        "## Ethics Statement\n\nNo personal data was used.",
        f"## References\n\n{REFS}",
        "## Acknowledgments\n\nWe thank the reviewers.\n\n# NeurIPS Paper Checklist\n\n1. Claims\n\n"
        "Question: Do the main claims reflect the contributions?\n\n## 2. Limitations\n\n"
        "Answer: [Yes] Justification: see Section 7.",
        f"**Ann Author** received the Ph.D. degree from MIT in 2010. {LONG}",
    )
    for phrase in ("Our method needs labels", "No personal data was used", "We thank the reviewers"):
        assert phrase in parts.body, phrase
    assert parts.appendix.startswith("# NeurIPS Paper Checklist")
    assert "Answer: [Yes]" in parts.appendix and "received the Ph.D. degree" in parts.appendix


def test_a_supplementary_part_with_its_own_contents_after_the_references_is_appendix() -> None:
    parts = split_checked(
        f"# Title\n\n{ABSTRACT}\n\n{INTRO}",
        f"## References\n\n{REFS}",
        "# Supplementary Material\n\n## Contents\n\nA Proofs 14\n\nB Experimental details 17\n\n"
        "## A Proofs\n\nWe prove Theorem 1.",
    )
    assert parts.appendix.startswith("# Supplementary Material") and "We prove Theorem 1" in parts.appendix
    assert "Supplementary" not in parts.references


def test_a_thesis_preface_and_contents_are_front_and_the_body_starts_at_chapter_one() -> None:
    parts = split_checked(
        "# A Study of Double Diffraction\n\nMaster's dissertation\n\n## Preface\n\n"
        f"This document summarises a year of work. {LONG}",
        "## Contents\n\n1 Introduction 5\n\n2 Theory 9\n\nBibliography 40",
        f"# 1 Introduction\n\nDiffraction is a key process. {LONG}",
        f"# Bibliography\n\n{REFS}",
    )
    assert "This document summarises" in parts.front and "2 Theory 9" in parts.front
    assert parts.body.startswith("# 1 Introduction") and "F. Englert" in parts.references


def test_an_annotated_bibliography_keeps_its_comments_and_addresses_after_it_are_front() -> None:
    comment = (
        "The authors consider the problem of tiling a region with horizontal and vertical bars, and show that "
        "deciding whether such a tiling exists is hard in general."
    )
    parts = split_checked(
        f"# Tilings\n\n{INTRO}\n\n{PROSE}",
        "## References\n\n"
        + "\n\n".join(
            f"[{n}] D. Beauquier and M. Nivat. Tiling the plane. Comput. Geom. {n} (1995), 1-25.\n\n"
            f"{comment} ({n})"
            for n in range(1, 5)
        ),
        "Department of Mathematics, MIT, Cambridge, MA, USA, rstan@math.mit.edu",
    )
    assert parts.references.count("The authors consider") == 4 and "The authors consider" not in parts.body
    assert parts.front.endswith("rstan@math.mit.edu") and parts.appendix == ""


def test_lettered_appendix_before_the_references_is_appendix() -> None:
    # Issue 18: "A Alternative Prompts for ..." after the numbered sections, with no word Appendix,
    # printed BEFORE the references. No fixture PDF has this order (1512.03385v1 and 1810.04805v2
    # letter theirs after the list), so the page is written in the engine's markdown shape.
    parts = split(
        f"# Title\n\n{ABSTRACT}\n\n{INTRO}\n\n## **2 Method**\n\n{PROSE}",
        "## **A Alternative Prompts for the Judge**\n\nWe list the prompts we tried first.\n\n"
        "### **A.1 Zero-shot prompt**\n\nThe zero-shot prompt reads as follows.\n\n"
        "## **B Further Results**\n\nThe remaining tables.",
        "## **References**\n\n- [1] Y. Bengio. Learning long-term dependencies. IEEE TNN, 1994.\n\n"
        "- [2] C. M. Bishop. Neural networks for pattern recognition. 1995.",
    )
    assert "## **2 Method**" in parts.body and "Alternative Prompts" not in parts.body
    assert parts.appendix.startswith("## **A Alternative Prompts for the Judge**")
    assert "## **B Further Results**" in parts.appendix and "Zero-shot prompt" in parts.appendix
    assert parts.references.startswith("## **References**")


def test_a_lettered_subsection_under_roman_sections_stays_in_the_body() -> None:
    # IEEE and REVTeX number sections "I.", "II." and letter their subsections "A.", "B.".
    parts = split(
        f"# Title\n\n{ABSTRACT}\n\n## **I. INTRODUCTION**\n\n{PROSE}",
        f"## **II. METHOD**\n\n### **A. Dataset**\n\n{PROSE}",
        "## **References**\n\n- [1] Y. Bengio. Learning long-term dependencies. IEEE TNN, 1994.\n\n"
        "- [2] C. M. Bishop. Neural networks for pattern recognition. 1995.",
    )
    assert "### **A. Dataset**" in parts.body and parts.appendix == ""


def test_a_pdf_table_with_a_spanning_header_is_written_by_the_table_rule() -> None:
    # pymupdf4llm's grid for a header "EN.QA" over "F1 Score | Tokens": the spanning text in one
    # cell, an empty cell beside it, the sub-headers in the next row (2409.01666v1 Table 1's cells).
    table = (
        "|Method|EN.QA||EN.MC||\n|---|---|---|---|---|\n||F1 Score|Tokens|Acc.|Tokens|\n"
        "|Long-context LLM w/o RAG|||||\n|Llama3.1-70B|34.26|117K|71.62|117K|"
    )
    parts = split(f"# Title\n\n{ABSTRACT}\n\n{INTRO}\n\nTable 1: Comparisons.\n\n{table}")
    assert (
        "Table 1: Comparisons.\n\n| Method | EN.QA F1 Score | EN.QA Tokens | EN.MC Acc. | EN.MC Tokens |\n"
        "| --- | --- | --- | --- | --- |\n| Long-context LLM w/o RAG |  |  |  |  |\n"
        "| Llama3.1-70B | 34.26 | 117K | 71.62 | 117K |"
    ) in parts.body


def test_an_underscore_drawn_as_a_rule_is_an_underscore_again() -> None:
    # Issue 18: on an unseen paper the converter wrote the monospace identifier TARGET_ID, whose
    # underscore the PDF draws as a rule, as "TARGET ~~I~~ D". The observed output is the input
    # here (no fixture PDF draws its underscores that way); a real strikethrough of words stays.
    page = "Each row has a `TARGET ~~I~~ D` field.\n\nThe draft said ~~we tried this~~ here."
    (blocks,) = clean_pages([page])
    assert blocks[0] == "Each row has a `TARGET_ID` field."
    assert blocks[1] == "The draft said ~~we tried this~~ here."
