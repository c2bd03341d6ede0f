"""The negations and opposites' prefixes code reads to ask about words the context writes the other way."""

from __future__ import annotations

import pytest

from pytest_llmfaith.text.exact import fold
from pytest_llmfaith.text.negation_words import negated_form, negations, opposite_senses


@pytest.mark.parametrize(("text", "negated"), [
    ("Breakfast is not included.", "not"),
    ("Seat selection isn't free.", "isn't"),
    ("Le billet n'est pas remboursable.", "n'"),
    ("Snídaně není zahrnuta.", "není"),
    ("Το πρωινό δεν περιλαμβάνεται.", "δεν"),
    ("ארוחת הבוקר אינה כלולה.", "אינה"),
    ("الإفطار غير مشمول.", "غير"),
    ("नाश्ता शामिल नहीं है।", "नहीं"),
    ("Bữa sáng không bao gồm.", "không"),
    ("A reggeli nincs benne.", "nincs"),
    ("房价不包括早餐。", "不"),
    ("ペットは同伴できません。", "ません"),
    ("ห้องพักไม่มีอาหารเช้า", "ไม่"),
    ("Neither breakfast nor parking is included.", "neither"),
    ("Aucun frais n'est facturé.", "aucun"),
])
def test_a_negation_is_found_in_many_languages(text, negated):
    body = fold(text)
    assert negated in [body[a:b] for a, b in negations(body)]


@pytest.mark.parametrize("text", [
    "The fare not only includes a bag.", "Der Tarif enthält nicht nur Gepäck.", "Payment is due no later than 30 days.",
    "The group has no more than 40 people.", "Nine rooms are free.", "A unicorn.",
])
def test_not_only_and_no_more_than_negate_nothing_the_words_say(text):
    body = fold(text)
    assert negations(body) == []


@pytest.mark.parametrize(("word", "other", "opposite"), [
    ("unavailable", "available", True), ("unpaid", "paid", True), ("nonrefundable", "refundable", True),
    ("non-refundable", "refundable", True), ("impossible", "possible", True), ("niedostępny", "dostępny", True),
    ("недоступен", "доступен", True), ("onbetaald", "betaald", True),
    ("unite", "ite", False),  # too short a rest
    ("import", "port", True),  # a prefix and a word: only ever asked where every other word is the same
    ("available", "unavailable", False), ("repaid", "paid", False), ("paid", "paid", False),
])
def test_a_prefix_makes_a_word_its_opposite(word, other, opposite):
    assert negated_form(word, other) == opposite


@pytest.mark.parametrize(("word", "other", "opposite"), [
    ("open", "closed", True), ("opens", "closes", True), ("ouvert", "fermé", True), ("geöffnet", "geschlossen", True),
    ("allowed", "prohibited", True), ("included", "excluded", True), ("confirmed", "cancelled", True),
    ("rose", "fell", True), ("mandatory", "optional", True), ("accepted", "rejected", True), ("profit", "loss", True),
    ("open", "open", False), ("closed", "cancelled", False), ("open", "banana", False), ("bank", "allowed", False),
])
def test_words_of_the_other_sense(word, other, opposite):
    assert opposite_senses(word, other) == opposite
