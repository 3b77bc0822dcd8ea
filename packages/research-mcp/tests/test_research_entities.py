"""entity-extract logic on the real spaCy model, with sentences written for these tests.

Each expectation is what the sentence says to a reader (who acquired whom, who founded
what), not what the code happened to return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from research_mcp.entities import ENTITY_TYPES, extract_entities, normalise_entity_types, prepare_text

if TYPE_CHECKING:
    from spacy.language import Language


def run(nlp: Language, text: str, types: list[str] | None = None, relations: bool = True) -> dict[str, Any]:
    return extract_entities(nlp(text), types, relations)


def edges(result: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(e["source"], e["relation"], e["target"]) for e in result["edges"]}


def names(result: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e["type"] for e in result["entities"]}


def test_seed_example_active_prepositional_object(nlp: Language) -> None:
    result = run(nlp, "Microsoft invested in OpenAI.")
    assert edges(result) == {("Microsoft", "invests_in", "OpenAI")}
    assert names(result) == {"Microsoft": "company", "OpenAI": "company"}
    assert result["metadata"]["total_entities"] == 2 and result["metadata"]["total_relationships"] == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Activision Blizzard was acquired by Microsoft in 2023.",
            ("Microsoft", "acquires", "Activision Blizzard"),
        ),
        ("Slack was bought by Salesforce for $27.7 billion.", ("Salesforce", "acquires", "Slack")),
        ("DeepMind was founded by Demis Hassabis.", ("DeepMind", "founded_by", "Demis Hassabis")),
        ("Anthropic was funded by Amazon.", ("Amazon", "invests_in", "Anthropic")),
    ],
)
def test_passive_voice_is_read_as_the_active_statement(
    nlp: Language, text: str, expected: tuple[str, str, str]
) -> None:
    result = run(nlp, text)
    assert expected in edges(result), f"{text!r} states {expected}"
    edge = next(e for e in result["edges"] if (e["source"], e["relation"], e["target"]) == expected)
    assert edge["pattern"] == "passive_agent"


@pytest.mark.parametrize(
    "text",
    [
        "Apple did not acquire Tesla.",
        "IBM never bought Salesforce.",
        "Google didn't invest in Uber.",
        "Oracle has not partnered with SAP.",
        "Samsung denied that it acquired Harman.",
        "Analysts expect Intel to acquire AMD.",
        "Meta plans to buy Snap.",
        "Nvidia may acquire Arm.",
        "If Apple buys Disney, prices will rise.",
        "Did Amazon acquire Netflix?",
    ],
)
def test_negated_hedged_planned_and_conditional_statements_give_no_edge(nlp: Language, text: str) -> None:
    assert run(nlp, text)["edges"] == [], f"{text!r} does not state that the relation holds"


def test_negation_of_one_clause_does_not_cancel_the_other(nlp: Language) -> None:
    result = run(nlp, "IBM never bought Red Hat, and Oracle acquired Cerner.")
    assert edges(result) == {("Oracle", "acquires", "Cerner")}


def test_conjoined_subjects_give_one_edge_each(nlp: Language) -> None:
    result = run(nlp, "Google and Amazon invested in Anthropic.")
    assert edges(result) == {("Google", "invests_in", "Anthropic"), ("Amazon", "invests_in", "Anthropic")}


def test_conjoined_objects_and_agents_give_one_edge_each(nlp: Language) -> None:
    founders = run(nlp, "DeepMind was founded by Demis Hassabis and Shane Legg.")
    assert {("DeepMind", "founded_by", "Demis Hassabis"), ("DeepMind", "founded_by", "Shane Legg")} <= edges(
        founders
    )
    assert names(founders)["Shane Legg"] == "person"


def test_conjoined_verbs_share_the_subject(nlp: Language) -> None:
    result = run(nlp, "Amazon acquired Whole Foods and invested in Rivian.")
    assert edges(result) == {("Amazon", "acquires", "Whole Foods"), ("Amazon", "invests_in", "Rivian")}


def test_sold_to_is_an_acquisition_by_the_buyer(nlp: Language) -> None:
    assert ("Geely", "acquires", "Polestar") in edges(run(nlp, "Volvo sold Polestar to Geely."))


def test_relative_clause_subject_is_its_antecedent(nlp: Language) -> None:
    result = run(nlp, "OpenAI, which was founded by Sam Altman, develops ChatGPT.")
    assert {("OpenAI", "founded_by", "Sam Altman"), ("OpenAI", "develops", "ChatGPT")} <= edges(result)


def test_evidence_is_the_sentence_with_offsets(nlp: Language) -> None:
    text = "Revenue rose sharply. Microsoft invested in OpenAI in 2019."
    edge = run(nlp, text)["edges"][0]
    assert edge["evidence"] == "Microsoft invested in OpenAI in 2019."
    assert text[edge["evidence_start"] : edge["evidence_end"]] == edge["evidence"]
    assert 0 < edge["confidence"] <= 1


def test_aliases_are_merged(nlp: Language) -> None:
    text = (
        "Microsoft Corp. reported strong results. Analysts said Microsoft would keep investing. "
        "Satya Nadella leads the company. Nadella spoke in Seattle."
    )
    result = names(run(nlp, text))
    entities = {e["name"]: e for e in run(nlp, text)["entities"]}
    assert entities["Microsoft"]["aliases"] == ["Microsoft Corp."]
    assert entities["Satya Nadella"]["aliases"] == ["Nadella"] and result["Satya Nadella"] == "person"
    assert result["Seattle"] == "location"


def test_acronym_in_parentheses_is_an_alias(nlp: Language) -> None:
    entities = {
        e["name"]: e
        for e in run(nlp, "International Business Machines (IBM) builds quantum computers.")["entities"]
    }
    assert "IBM" in entities["International Business Machines"]["aliases"]


def test_sentence_initial_capitalised_words_are_not_entities(nlp: Language) -> None:
    text = "Despite the slowdown, Nvidia grew. Revenue doubled. Analysts cheered. However, Intel fell."
    result = names(run(nlp, text))
    assert {"Despite", "Revenue", "Analysts", "However"}.isdisjoint(result), result
    assert {"Nvidia", "Intel"} <= set(result)


def test_types_are_mapped_and_filtered(nlp: Language) -> None:
    text = (
        "Stanford University and Google DeepMind use machine learning. "
        "Apple released the iPhone in California during the Olympics."
    )
    everything = names(run(nlp, text))
    assert everything.get("Stanford University") == "organization"
    assert everything.get("machine learning") == "technology"
    assert everything.get("California") == "location"
    only = run(nlp, text, ["technology"])
    assert {e["type"] for e in only["entities"]} == {"technology"}
    assert only["metadata"]["entity_types"] == ["technology"]


def test_relations_can_be_switched_off(nlp: Language) -> None:
    result = run(nlp, "Microsoft invested in OpenAI.", relations=False)
    assert result["edges"] == [] and result["metadata"]["total_relationships"] == 0


def test_entity_types_are_validated() -> None:
    assert normalise_entity_types(None) == ENTITY_TYPES
    assert normalise_entity_types(["Company", "person", "company"]) == ("company", "person")
    assert normalise_entity_types(["companies", "people", "organisation"]) == (
        "company",
        "person",
        "organization",
    )
    with pytest.raises(ValueError, match="unknown entity type"):
        normalise_entity_types(["spaceships"])
    with pytest.raises(ValueError, match="empty"):
        normalise_entity_types([])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Twitter was taken over by Elon Musk.", ("Elon Musk", "acquires", "Twitter")),
        ("Amazon's acquisition of MGM closed in 2022.", ("Amazon", "acquires", "MGM")),
        ("Amazon bought a 10% stake in Rivian.", ("Amazon", "invests_in", "Rivian")),
        ("In 2019, Microsoft invested $1 billion in OpenAI.", ("Microsoft", "invests_in", "OpenAI")),
        ("Alphabet, Google's parent company, invested in SpaceX.", ("Alphabet", "invests_in", "SpaceX")),
        (
            "DeepMind, founded by Demis Hassabis, builds AI systems.",
            ("DeepMind", "founded_by", "Demis Hassabis"),
        ),
    ],
)
def test_phrasal_nominal_stake_and_appositive_patterns(
    nlp: Language, text: str, expected: tuple[str, str, str]
) -> None:
    assert expected in edges(run(nlp, text)), f"{text!r} states {expected}"


@pytest.mark.parametrize(
    "text",
    [
        "Regulators blocked Nvidia's acquisition of Arm.",
        "The proposed acquisition of Arm by Nvidia was abandoned.",
        "Amazon did not buy a stake in Rivian.",
    ],
)
def test_blocked_or_proposed_deals_give_no_edge(nlp: Language, text: str) -> None:
    assert run(nlp, text)["edges"] == [], f"{text!r} does not say the deal happened"


def test_co_founded_is_read_and_evidence_keeps_the_original_text(nlp: Language) -> None:
    text = "Google was co-founded by Larry Page and Sergey Brin."
    result = extract_entities(nlp(prepare_text(text)), None, True, source_text=text)
    assert {("Google", "founded_by", "Larry Page"), ("Google", "founded_by", "Sergey Brin")} <= edges(result)
    assert result["edges"][0]["evidence"] == text
    assert len(prepare_text(text)) == len(text)


def test_partnerships_are_between_firms_not_colleagues(nlp: Language) -> None:
    assert run(nlp, "Maria works with Tom at Acme Corp.")["edges"] == [], "two people working together"
    result = run(nlp, "Moderna partnered with Merck on a cancer vaccine. Merck partnered with Moderna again.")
    assert edges(result) == {("Moderna", "partners_with", "Merck")}, (
        "one symmetric edge, in the first sentence's direction"
    )
    assert result["edges"][0]["occurrences"] == 2
    assert names(result)["Moderna"] == "company"


def test_known_institutions_are_organizations(nlp: Language) -> None:
    result = names(run(nlp, "Researchers at MIT and NASA built a probe with Boeing."))
    assert result.get("MIT") == "organization" and result.get("NASA") == "organization"


@pytest.mark.parametrize(
    "text",
    [
        "Amazon no longer partners with Nvidia.",
        "Apple acquired neither Tesla nor Netflix.",
        "It is false that Google acquired Yelp.",
        "Reports that Apple acquired Disney were denied.",
        "Microsoft refused to acquire Yahoo.",
        "Oracle won't buy TikTok.",
        "Meta hasn't acquired Snap.",
        "Neither Google nor Amazon acquired Slack.",
    ],
)
def test_more_negations_and_hearsay_give_no_edge(nlp: Language, text: str) -> None:
    assert run(nlp, text)["edges"] == [], f"{text!r} does not state that the relation holds"


def test_backed_by_is_an_investment(nlp: Language) -> None:
    assert ("Google", "invests_in", "Anthropic") in edges(run(nlp, "Anthropic was backed by Google."))


def test_appositive_becomes_the_description(nlp: Language) -> None:
    entities = {
        e["name"]: e for e in run(nlp, "OpenAI, a San Francisco start-up, released GPT-4.")["entities"]
    }
    assert entities["OpenAI"]["description"] == "a San Francisco start-up"
    assert run(nlp, "Microsoft invested in OpenAI.")["entities"][0]["description"] is None


def test_business_words_and_known_bodies_set_the_type(nlp: Language) -> None:
    result = names(run(nlp, "Microsoft invested in Mistral AI. The World Bank lent money to Kenya."))
    assert result.get("Mistral AI") == "company" and "AI" not in result, "'AI' here is part of a company name"
    assert result.get("World Bank") == "organization"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("YouTube is a subsidiary of Google.", ("Google", "owns", "YouTube")),
        ("Sam Altman, a co-founder of OpenAI, spoke.", ("OpenAI", "founded_by", "Sam Altman")),
        ("AMD is a rival of Intel.", ("AMD", "competes_with", "Intel")),
        ("Nvidia formed a partnership with Foxconn.", ("Nvidia", "partners_with", "Foxconn")),
        ("Microsoft and OpenAI announced a partnership.", ("Microsoft", "partners_with", "OpenAI")),
    ],
)
def test_copula_appositive_and_partnership_nouns(
    nlp: Language, text: str, expected: tuple[str, str, str]
) -> None:
    result = extract_entities(nlp(prepare_text(text)), None, True, source_text=text)
    assert expected in edges(result), f"{text!r} states {expected}"


@pytest.mark.parametrize(
    "text", ["Instagram is not a subsidiary of Apple.", "Apple and Google did not announce a partnership."]
)
def test_negated_role_nouns_give_no_edge(nlp: Language, text: str) -> None:
    assert run(nlp, text)["edges"] == []


def _entity(result: dict[str, Any], name: str) -> dict[str, Any]:
    found = [e for e in result["entities"] if e["name"] == name or name in e["aliases"]]
    assert len(found) == 1, f"{name!r} in {[(e['name'], e['aliases']) for e in result['entities']]}"
    return found[0]


@pytest.mark.parametrize(
    "text",
    [
        "The rules were drafted by the Organisation for Maritime Safety (OMS), which meets in London. "
        "OMS said it would review them.",
        "OMS (Organisation for Maritime Safety) said on Monday that it would review the rules. OMS meets in London.",
        "The Organisation for Maritime Safety, or OMS, drafted the rules. OMS meets in London.",
    ],
)
def test_an_acronym_defined_in_any_shape_joins_its_long_form_with_its_later_uses(
    nlp: Language, text: str
) -> None:
    result = run(nlp, prepare_text(text), relations=False)
    entity = _entity(result, "OMS")
    assert "Organisation for Maritime Safety" in {entity["name"], *entity["aliases"]}
    assert entity["type"] == "organization"
    assert entity["mentions"] == 3  # the long form, the definition and the later bare use
    assert [e["name"] for e in result["entities"]].count("OMS") == 1


def test_names_after_a_plural_descriptor_are_each_a_name_of_its_type(nlp: Language) -> None:
    people = names(run(nlp, "Analysts Kestrel and Vantage expect the shares to rise.", relations=False))
    assert people == {"Kestrel": "person", "Vantage": "person"}
    firms = names(run(nlp, "The losses hit insurers Hannover Re and Swiss Re hardest.", relations=False))
    assert firms == {"Hannover Re": "company", "Swiss Re": "company"}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Shares of Zurich Re fell after the insurer reported losses.", "Zurich Re"),
        ("Hannover Re and Swiss Re raised prices.", "Hannover Re"),
        ("Hannover Re and Swiss Re raised prices.", "Swiss Re"),
        ("Acme Cos said net income rose.", "Acme Cos"),
        ("Passengers of Malaysia Airlines were rebooked.", "Malaysia Airlines"),
    ],
)
def test_a_place_or_name_closed_by_a_legal_form_or_business_word_is_a_company(
    nlp: Language, text: str, name: str
) -> None:
    found = names(run(nlp, text, relations=False))
    assert found.get(name) == "company", found
    assert not any(other != name and other in name for other in found), (
        f"a piece of {name!r} kept apart: {found}"
    )


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("The Swiss National Bank kept its rates unchanged.", "Swiss National Bank"),
        ("The Bank of Japan bought more bonds.", "Bank of Japan"),
        ("The Reserve Bank of India cut rates.", "Reserve Bank of India"),
        (
            "The Ohio Department of Natural Resources approved the plan.",
            "Ohio Department of Natural Resources",
        ),
    ],
)
def test_central_banks_and_public_bodies_are_organizations(nlp: Language, text: str, name: str) -> None:
    assert names(run(nlp, text, relations=False)).get(name) == "organization"


def test_commercial_banks_named_after_a_place_stay_companies(nlp: Language) -> None:
    found = names(run(nlp, "Bank of America and Bank of China reported profits.", relations=False))
    assert found.get("Bank of America") == "company" and found.get("Bank of China") == "company", found


def test_defined_terms_are_not_companies(nlp: Language) -> None:
    text = "On each Funding Date, the Lender will specify the Loan Supplement for each Equipment Advance."
    found = names(run(nlp, text, relations=False))
    assert not {"Funding Date", "Loan Supplement", "Equipment Advance"} & set(found), found


# The author list of 1706.03762 as arXiv lists it (../shared/fixtures/arxiv/metadata.json).
TRANSFORMER_AUTHORS = [
    "Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit",
    "Llion Jones", "Aidan N. Gomez", "Łukasz Kaiser", "Illia Polosukhin",
]  # fmt: skip


def test_an_author_list_is_a_list_of_persons(nlp: Language) -> None:
    text = ", ".join(TRANSFORMER_AUTHORS[:-1]) + " and " + TRANSFORMER_AUTHORS[-1] + " wrote the paper."
    assert names(run(nlp, text)) == dict.fromkeys(TRANSFORMER_AUTHORS, "person")


def test_a_list_member_keeps_its_given_name(nlp: Language) -> None:
    found = names(run(nlp, "We thank Kiri Wagstaff, Ilya Sutskever and Yoshua Bengio for comments."))
    assert found == dict.fromkeys(["Kiri Wagstaff", "Ilya Sutskever", "Yoshua Bengio"], "person")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a list of places: a member the gazetteer knows is a place, whatever the model guessed
        (
            "Delegates from Paris, New York, Buenos Aires and Cape Town attended.",
            dict.fromkeys(["Paris", "New York", "Buenos Aires", "Cape Town"], "location"),
        ),
        # places only (no other kind to outnumber): nothing to change, nothing to break
        ("Paris, London and Berlin voted.", dict.fromkeys(["Paris", "London", "Berlin"], "location")),
        # as many companies as persons: no majority, each keeps its own type
        (
            "Goldman Sachs, Morgan Stanley, Jamie Dimon and John Waldron were named in the suit.",
            {
                "Goldman Sachs": "company",
                "Morgan Stanley": "company",
                "Jamie Dimon": "person",
                "John Waldron": "person",
            },
        ),
        # an institution word ends no person's name, in a list or not
        (
            "Funding came from the National Science Foundation, John Templeton Foundation and "
            "Alfred P. Sloan Foundation.",
            dict.fromkeys(
                ["National Science Foundation", "John Templeton Foundation", "Alfred P. Sloan Foundation"],
                "organization",
            ),
        ),
    ],
)
def test_list_members_agree_only_where_the_list_says_so(
    nlp: Language, text: str, expected: dict[str, str]
) -> None:
    assert names(run(nlp, text)) == expected
