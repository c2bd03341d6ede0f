"""The narrow questions (scorers/questions.py) on their own: which ones a verdicts request asks and
of which items, how their answers are read, and each question asked alone, as JSON and as a label.
The judge is the scripted one over HTTP (tests/judge_server.py), through litellm."""

from __future__ import annotations

import json

import pytest
from pydantic import TypeAdapter, ValidationError

from pytest_llmfaith.scorers import questions
from pytest_llmfaith.scorers.base import same_statements
from pytest_llmfaith.scorers.claims import Judged
from pytest_llmfaith.scorers.faithfulness import Faithfulness
from pytest_llmfaith.scorers.questions import (
    ASKED_BY,
    DOCUMENT_SYSTEM,
    FACT_EXAMPLES,
    FACT_SYSTEM,
    JSON_FIELDS,
    MaybeYesNo,
    NarrowAnswer,
    narrow_task,
)

CLAIM = {"sentence": "Acme was founded in 1997 in Oslo.", "words": "Acme was founded in 1997"}  # asks "changed"
SENTENCE = {"words": "Thanks for asking!", "already_checked": []}  # asks "states_fact"
NAMES = {"words": "Acme has 41 staff", "not_in_context": ["41"]}  # asks "specifics"
ROLE = {"words": "Acme has 400 staff in Oslo", "other_role": ["400"]}  # asks "same_role"
NUMBERS = {"words": "### Step 2", "already_checked": [], "numbers": ["2"]}  # asks "states_fact", "states_numbers"
WHOLE = {"words": "It has 40 staff."}  # asks nothing


# -- which questions a verdicts request asks ---------------------------------------------------

def test_every_answer_field_is_asked_by_an_item_key():
    assert list(ASKED_BY) == list(JSON_FIELDS) == ["states_fact", "changed", "specifics", "states_numbers",
                                                   "same_role"]
    assert len(set(ASKED_BY.values())) == 5


def test_items_that_need_no_question_get_none_of_their_text():
    task = narrow_task([WHOLE, {"words": "Acme makes bikes."}])
    assert task == {"kinds": "", "narrow": "", "fields": ""}
    assert not any(text in str(task) for text in JSON_FIELDS.values())


@pytest.mark.parametrize(("item", "asked"), [(SENTENCE, "states_fact"), (CLAIM, "changed"), (NAMES, "specifics"),
                                           (ROLE, "same_role")])
def test_a_question_is_asked_when_an_item_carries_its_key_and_only_then(item, asked):
    task = narrow_task([WHOLE, item])
    assert task["fields"] == f', "{asked}": "yes" | "no"'
    assert task["narrow"] == f'Also answer "yes" or "no" for each item:\n- "{asked}": {JSON_FIELDS[asked]}\n'
    for other in set(JSON_FIELDS) - {asked}:
        assert other not in task["narrow"] and JSON_FIELDS[other] not in task["narrow"]


def test_all_five_questions_are_asked_in_one_order_whatever_the_items_order():
    fields = "".join(f', "{name}": "yes" | "no"' for name in JSON_FIELDS)
    assert narrow_task([ROLE, NUMBERS, NAMES, CLAIM])["fields"] == fields
    assert narrow_task([CLAIM, NAMES, NUMBERS, ROLE])["fields"] == fields


def test_the_item_kinds_are_explained_only_where_the_request_mixes_them():
    sentence_kind, whole_kind = "already_checked", 'An item without "sentence" is a whole sentence.'
    alone, mixed = narrow_task([SENTENCE])["kinds"], narrow_task([CLAIM, SENTENCE])["kinds"]
    assert sentence_kind in alone and whole_kind not in alone
    assert sentence_kind in mixed and whole_kind in mixed
    assert narrow_task([CLAIM, WHOLE])["kinds"].strip() == whole_kind
    assert narrow_task([CLAIM])["kinds"] == "" and narrow_task([WHOLE])["kinds"] == ""


# -- how a narrow answer is read ---------------------------------------------------------------

@pytest.mark.parametrize(("said", "read"), [("yes", "yes"), ("Yes.", "yes"), (" NO ", "no"), ("no!", "no"),
                                            (None, None)])
def test_a_narrow_answer_is_yes_no_or_not_asked(said, read):
    assert TypeAdapter(MaybeYesNo).validate_python(said) == read


@pytest.mark.parametrize("said", ["maybe", "yes, mostly", "", 1])
def test_anything_else_is_no_narrow_answer(said):
    with pytest.raises(ValidationError):
        TypeAdapter(MaybeYesNo).validate_python(said)


def test_a_question_asked_alone_must_be_answered():
    assert NarrowAnswer.model_validate({"answer": "No."}).answer == "no"
    with pytest.raises(ValidationError):
        NarrowAnswer.model_validate({"answer": None})


@pytest.mark.parametrize("name", list(JSON_FIELDS))
def test_each_verdict_schema_carries_the_narrow_answers_as_optional_fields(name):
    one = Faithfulness.VerdictSchema
    assert one.model_validate({"verdict": "yes"}).model_dump()[name] is None
    assert one.model_validate({"verdict": "yes", name: "Yes"}).model_dump()[name] == "yes"
    with pytest.raises(ValidationError):
        one.model_validate({"verdict": "yes", name: "perhaps"})


# -- a verdict must answer what its item asks (same_statements) --------------------------------

class _Verdict:
    def __init__(self, statement: str, **narrow: str | None) -> None:
        self.statement = statement
        for name in JSON_FIELDS:
            setattr(self, name, narrow.get(name))


class _Answer:
    def __init__(self, *verdicts: _Verdict) -> None:
        self.verdicts = list(verdicts)


ITEMS = [Judged(("Acme was founded in 1997",), CLAIM["sentence"]),
         Judged.whole_sentence("Thanks for asking!", (2,))]


def test_verdicts_with_the_narrow_answers_their_items_ask_pass():
    check = same_statements(ITEMS, [CLAIM, SENTENCE])
    check(_Answer(_Verdict("Acme was founded in 1997", changed="no"), _Verdict("Thanks!", states_fact="no")))


def test_a_verdict_without_the_narrow_answer_its_item_asks_is_refused():
    check = same_statements(ITEMS, [CLAIM, SENTENCE])
    with pytest.raises(ValueError, match=r"verdict 2 has no 'states_fact'.*'already_checked'"):
        check(_Answer(_Verdict("Acme was founded in 1997", changed="no"), _Verdict("Thanks for asking!")))


def test_a_narrow_answer_no_item_asks_is_not_required():
    check = same_statements(ITEMS[:1], [{"words": "Acme was founded in 1997"}])
    check(_Answer(_Verdict("Acme was founded in 1997")))


def test_verdicts_for_other_claims_or_too_few_are_refused():
    check = same_statements(ITEMS, [WHOLE, WHOLE])
    with pytest.raises(ValueError, match="expected exactly 2 verdicts"):
        check(_Answer(_Verdict("Acme was founded in 1997")))
    with pytest.raises(ValueError, match="verdict 1 is about 'Thanks for asking!'"):
        check(_Answer(_Verdict("Thanks for asking!"), _Verdict("Acme was founded in 1997")))


# -- each question asked alone -----------------------------------------------------------------

OUTPUT = "Hello! The museum opens at 9, and the café at 10. Tickets cost 5 EUR. The shop opens at 10."


def test_nothing_to_ask_sends_no_request(server, make_judge):
    judge = make_judge()
    assert questions.states_facts(judge, OUTPUT, []) == ([], [])
    assert questions.changed(judge, []) == ([], [])
    assert questions.specifics(judge, ["ctx"], []) == ([], [])
    assert questions.same_amounts(judge, []) == ([], [])
    assert server.requests == []


def test_a_sentence_states_a_fact_as_the_judge_says_in_the_order_asked(server, make_judge):
    """Sentences no claim quotes are asked after the worked examples; the others are asked whether
    they say more than the words checked in them."""
    server.facts(not_facts=["Hello!"], says_more=["The museum opens at 9, and the café at 10."])
    asked = [("Hello!", ()), ("The museum opens at 9, and the café at 10.", ("The museum opens at 9",)),
             ("Tickets cost 5 EUR.", ()), ("The shop opens at 10.", ("The shop opens at 10",))]
    found, calls = questions.states_facts(make_judge(), OUTPUT, asked)
    assert found == [False, True, True, False] and [c.step for c in calls] == ["facts"] * 4
    fresh = [r["body"]["messages"] for r in server.calls("facts") if r["body"]["messages"][0]["content"] == FACT_SYSTEM]
    examples = [json.dumps({"answer": word}) for _, _, word in FACT_EXAMPLES]
    assert {'{"answer": "yes"}', '{"answer": "no"}'} <= set(examples)
    assert len(fresh) == 2 and all([m["content"] for m in shots[2:-1:2]] == examples for shots in fresh)


@pytest.mark.parametrize(("p_fact", "states"), [(0.45, True), (0.41, True), (0.39, False), (0.2, False)])
def test_a_label_answer_states_a_fact_from_fact_at_not_one_half(server, make_judge, p_fact, states):
    server.facts(p_fact={"Das freut mich.": p_fact})
    found, _ = questions.states_facts(make_judge(verdicts="label"), "Das freut mich.", [("Das freut mich.", ())])
    assert found == [states] and server.calls("facts")[0]["body"]["logprobs"]


def test_the_rest_of_a_sentence_changes_the_words_as_the_judge_says(server, make_judge):
    server.facts(changes=["Pets are allowed"])
    found, calls = questions.changed(make_judge(), [("No: pets are not allowed.", "Pets are allowed"),
                                                    ("Pets are allowed in the garden.", "Pets are allowed … garden")])
    assert found == [True, False] and [c.step for c in calls] == ["facts", "facts"]


@pytest.mark.parametrize(("p_changed", "held"), [(0.2, False), (0.34, False), (0.35, True), (0.6, True)])
def test_the_offline_changed_answer_is_held_to_its_line_after_the_worked_examples(fake, make_fake_judge, p_changed,
                                                                                  held):
    """Without the examples the 1.5B judge said yes to a second fact as to a negation; after them a
    yes counts from CHANGED_AT (0.35), under one half since a yes is the safe side."""
    sentence, words = "The company was founded in 1995 and may have offices abroad.", "The company was founded in 1995"
    fake.facts(p_fact={words: p_changed})
    found, _ = questions.changed(make_fake_judge(verdicts="label"), [(sentence, words)])
    assert found == [held] and questions.CHANGED_AT == 0.35
    asked = fake.requests[-1]["body"]["messages"]
    assert len(asked) == 2 + 2 * len(questions.CHANGED_EXAMPLES)
    assert [m["content"] for m in asked[2:-1:2]] == [word for _, _, word in questions.CHANGED_EXAMPLES]


def test_the_context_gives_the_names_as_the_judge_says_asked_with_the_document(server, make_judge):
    server.facts(unnamed=["Bergen"])
    context = ["Acme has an office in Oslo.", "  It employs 40 people. "]
    found, calls = questions.specifics(make_judge(), context, [("Acme is in Bergen.", ["Bergen"]),
                                                               ("Acme is in Christiania.", ["Christiania"])])
    assert found == [0.0, 1.0] and [c.step for c in calls] == ["names", "names"]
    asked = {m[1]["content"].split("Sentence: ")[1].split("\n")[0]: m for m in
             (r["body"]["messages"] for r in server.calls("names"))}
    system, user = asked["Acme is in Bergen."]
    assert system["content"] == DOCUMENT_SYSTEM and "writes “Bergen”, which" in user["content"]
    assert user["content"].startswith("Document:\nAcme has an office in Oslo.\nIt employs 40 people.\n\n")


def test_the_context_gives_a_number_for_what_the_words_say_as_the_judge_says(server, make_judge):
    """Asked with the document first, like every question about it: the judge reads it once."""
    server.facts(unnamed=["400"])
    context = ["Acme employs 40 people in Oslo and 400 in Bergen."]
    found, calls = questions.same_roles(make_judge(), context, [("Acme employs 400 people in Oslo.", ["400"], []),
                                                                ("Acme employs 40 people in Oslo.", ["40"], [])])
    assert found == [0.0, 1.0] and [c.step for c in calls] == ["names", "names"]
    system, user = server.calls("names")[0]["body"]["messages"]
    assert system["content"] == DOCUMENT_SYSTEM and user["content"].startswith(f"Document:\n{context[0]}\n\n")
    assert "other numbers" in user["content"]


def test_a_value_given_for_another_thing_is_asked_with_what_the_context_gives_instead(server, make_judge):
    """Told what the document writes beside the sentence's thing (exact.values_given_instead), not
    only that it writes something else."""
    server.facts(unnamed=["142"])
    context = ['{"flights": [{"flight": "SK4705", "price_eur": 189}, {"flight": "DY1872", "price_eur": 142}]}']
    found, _ = questions.same_roles(make_judge(), context, [("SK4705 costs 142 EUR.", ["142"], ["189"]),
                                                           ("Ingrid Dahl is travelling to Tromsø.", ["tromsø"],
                                                            ["bergen"])])
    assert found == [0.0, 1.0]
    asked = [c["body"]["messages"][-1]["content"] for c in server.calls("names")]  # in any order: asked at once
    user = next(text for text in asked if "SK4705 costs 142 EUR." in text)
    assert "the document writes “189”, not “142”" in user and "other numbers" not in user


def test_a_sentence_states_its_numbers_as_facts_as_the_judge_says(server, make_judge):
    server.facts(labels_only=["### Step 2"])
    found, calls = questions.states_numbers(make_judge(), [("### Step 2", ["2"]), ("Refunds take 45 days.", ["45"])])
    assert found == [False, True] and [c.step for c in calls] == ["facts", "facts"]


@pytest.mark.parametrize("verdicts", ["all", "label"])
def test_the_same_question_of_two_items_is_asked_once(fake, make_fake_judge, verdicts):
    """A claim and its sentence often ask the same (sentence, tokens): one call, both answered."""
    fake.facts(unnamed=["Oslo"])
    asked = [("SK4705 leaves Oslo at 07:10.", ["Oslo"]), ("SK4705 leaves Oslo at 07:10.", ["Oslo"]),
             ("SK4705 leaves at 07:10.", ["SK4705"])]
    found, calls = questions.specifics(make_fake_judge(verdicts=verdicts), ["SK4705 leaves OSL at 07:10."], asked)
    assert [p >= questions.YES_AT for p in found] == [False, False, True] and found[0] == found[1]
    assert len(calls) == len(fake.requests) == 2


def test_the_same_amount_as_the_judge_says(server, make_judge):
    server.facts(unnamed=["400"])
    found, _ = questions.same_amounts(make_judge(), [("400 people", ["40 people"]), ("forty people", ["40 people"])])
    assert found == [0.0, 1.0]


def test_a_recording_keeps_every_label_line_of_the_scorers() -> None:
    """A recording rounds P(yes) only as far as keeps it on its side of each line in LINES: a line
    left out (FACT_AT was) lets P 0.396 replay as 0.40, a fact where the live run saw none."""
    from pytest_llmfaith.judge.stores import StoredAnswer
    from pytest_llmfaith.recordings.recorder import reviewable
    from pytest_llmfaith.scorers import labels, questions

    lines = {value for module in (labels, questions) for name, value in vars(module).items()
             if name.endswith(("_AT", "_FROM")) and isinstance(value, float)}
    assert lines == set(labels.LINES)
    entry = StoredAnswer.model_validate({"answer": {}, "model": "m", "step": "facts", "prompt_version": "v"})
    for line in lines:
        for p in (line - 0.004, line + 0.004):
            shown = reviewable(entry, p, labels.LINES).answer["p_yes"]
            assert (shown >= line) == (p >= line), (line, p, shown)
