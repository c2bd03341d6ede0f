"""The negations, opposites and hedges code reads to ask about words the context writes the other way
or only more weakly."""

from __future__ import annotations

import pytest

from pytest_llmfaith.text.exact import fold
from pytest_llmfaith.text.negation_words import as_words, hedges, negated_form, negations, of_a_sense, opposite_senses


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


@pytest.mark.parametrize(("word", "other"), [
    # with and without, in twelve languages
    ("with", "without"), ("mit", "ohne"), ("avec", "sans"), ("con", "sin"), ("con", "senza"), ("com", "sem"),
    ("met", "zonder"), ("med", "utan"), ("med", "uden"), ("med", "uten"), ("ze", "bez"), ("с", "без"),
    # states: valid, enabled, passed, won, free, approved, available, on time
    ("valid", "expired"), ("gültig", "abgelaufen"), ("valable", "expiré"), ("enabled", "disabled"),
    ("aktiviert", "deaktiviert"), ("włączony", "wyłączony"), ("passed", "failed"), ("succeeded", "failed"),
    ("erfolgreich", "fehlgeschlagen"), ("won", "lost"), ("gewannen", "verloren"), ("gagné", "perdu"),
    ("free", "paid"), ("kostenlos", "kostenpflichtig"), ("gratuit", "payant"), ("gratuito", "pago"),
    ("bezpłatny", "płatny"), ("бесплатная", "платная"), ("approved", "denied"), ("genehmigt", "abgelehnt"),
    ("available", "ausverkauft"), ("agotado", "disponible"), ("delayed", "on.time"), ("late", "early"),
    ("online", "offline"), ("public", "private"), ("domestic", "international"), ("positive", "negative"),
    ("present", "absent"), ("empty", "full"),
])
def test_more_words_of_the_other_sense_in_many_languages(word, other):
    assert opposite_senses(word, other) and opposite_senses(other, word)


@pytest.mark.parametrize(("word", "other"), [
    ("within", "without"), ("conditions", "sin"), ("complete", "sem"), ("passenger", "failed"), ("wonder", "lost"),
    ("position", "negative"), ("comprehensive", "sold"), ("freedom", "paid"), ("later", "later"), ("with", "with"),
    ("zone", "bez"), ("sold", "old"),
])
def test_words_that_only_start_like_one_of_a_pair_are_of_no_sense(word, other):
    assert not opposite_senses(word, other)


@pytest.mark.parametrize(("word", "other"), [
    ("cheaper", "dearer"), ("higher", "lower"), ("more", "fewer"), ("before", "after"), ("north", "south"),
    ("bought", "sold"), ("older", "younger"), ("faster", "slower"), ("better", "worse"), ("longer", "shorter"),
])
def test_words_between_two_things_are_of_the_other_sense_only_where_both_are_named(word, other):
    """"X is cheaper than Y" is "Y is dearer than X"; "after that" may be before what came first."""
    assert opposite_senses(word, other, between=True) and not opposite_senses(word, other, between=False)


@pytest.mark.parametrize(("word", "sense"), [
    ("delayed", True), ("cancelled", True), ("closed", True), ("refundable", False), ("sk4705", False),
    ("jardim", False), ("ingrid", False), ("storniert", True), ("on.time", True),
])
def test_a_state_is_of_a_sense_a_name_or_code_is_not(word, sense):
    assert of_a_sense(word) == sense


@pytest.mark.parametrize(("text", "written"), [
    ("flight sk4705 is on time.", "flight sk4705 is on.time."), ("tickets are sold out", "tickets are sold.out"),
    ("the item is out of stock", "the item is out.of.stock"), ("status: on_time", "status: on.time"),
    ("the station is on timetable 4", "the station is on timetable 4"),
])
def test_a_phrase_of_one_sense_is_read_as_one_word(text, written):
    assert as_words(text) == written


@pytest.mark.parametrize(("text", "hedge"), [
    ("The flight may be delayed.", "may"), ("Refunds might be issued.", "might"),
    ("The terminal is expected to open in 2027.", "expected"), ("Der Flug ist vermutlich verspätet.", "vermutlich"),
    ("Le vol est peut-être annulé.", "peut-être"), ("El vuelo tal vez se retrase.", "tal vez"),
    ("Il volo potrebbe essere cancellato.", "potrebbe"), ("O voo provavelmente atrasa.", "provavelmente"),
    ("De update verschijnt waarschijnlijk in maart.", "waarschijnlijk"), ("Flyget är troligen försenat.", "troligen"),
    ("Lot jest prawdopodobnie opóźniony.", "prawdopodobnie"), ("Рейс, возможно, задержится.", "возможно"),
    ("Uçuş muhtemelen gecikecek.", "muhtemelen"), ("Produk ini mungkin tersedia.", "mungkin"),
    ("航班可能延误。", "可能"), ("便は遅れるかもしれません。", "かもしれません"),
    ("항공편이 아마 지연될 것입니다.", "아마"),
    ("Some rooms have a balcony.", "some"), ("Einige Zimmer haben einen Balkon.", "einige"),
    ("Certaines chambres ont un balcon.", "certaines"), ("Algunas habitaciones tienen balcón.", "algunas"),
    ("Niektóre pokoje mają balkon.", "niektóre"), ("一些房间有阳台。", "一些"),
])
def test_a_hedge_is_found_in_many_languages(text, hedge):
    body = fold(text)
    assert hedge in [body[a:b] for a, b in hedges(body)]


@pytest.mark.parametrize("text", [
    "The museum opens in May.", "Jackalopes hire Todd Watson as new Head Coach May 20, 2019.", "Since May the pool "
    "is open.", "Guests can check in from 15:00.", "The flight landed as expected.", "The flight is delayed.",
    "Le musée ouvre à 9 h.",
])
def test_a_month_a_can_and_as_expected_hedge_nothing(text):
    assert hedges(fold(text)) == []
