"""The negations, opposites and hedges code reads to ask about words the context writes the other way
or only more weakly."""

from __future__ import annotations

import pytest

from pytest_llmfaith.text.exact import fold
from pytest_llmfaith.text.negation_words import (
    CONDITIONS,
    as_words,
    hedges,
    negated_form,
    negations,
    of_a_sense,
    opposite_senses,
)


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
    # "no longer", "nicht mehr" and "non più" negate what follows; so do words of their own
    ("The shop no longer sells paper tickets.", "no"), ("Der Laden ist nicht mehr geöffnet.", "nicht"),
    ("Il negozio non più vende biglietti.", "non"), ("There are no more rooms.", "no"),
    ("The hotel lacks a pool.", "lacks"), ("The update failed to fix the bug.", "failed to"),
    ("The airline refused to refund the ticket.", "refused to"), ("Guests are unable to park.", "unable"),
    ("Biletul nu este rambursabil.", "nu"), ("Bilet iade edilemez.", "edilemez"), ("Otobüs gelmiyor.", "gelmiyor"),
    ("Uçak kalkmadı.", "kalkmadı"), ("Weder Frühstück noch Parken sind inbegriffen.", "noch"),
])
def test_a_negation_is_found_in_many_languages(text, negated):
    body = fold(text)
    assert negated in [body[a:b] for a, b in negations(body)]


@pytest.mark.parametrize("text", [
    "The fare not only includes a bag.", "Der Tarif enthält nicht nur Gepäck.", "Payment is due no later than 30 days.",
    "The group has no more than 40 people.", "Nine rooms are free.", "A unicorn.", "Der Raum fasst nicht mehr als 40.",
    "Pas plus de 40 places.", "Номер вмещает не менее 4 гостей.", "O quarto acomoda no máximo 4.",
    "The tour takes no longer than 2 hours.", "Das Museum ist noch geöffnet.", "Ana Gómez dirige el hotel.",
    "Le musée ouvre le samedi.", "Bilet iade edilebilir.",
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
    # start and end, indoors and outdoors, temporary and permanent, part- and full-time, import and export
    ("starts", "ends"), ("beginnt", "endet"), ("commence", "termine"), ("empieza", "termina"), ("начинается",
    "заканчивается"), ("indoors", "outdoors"), ("inside", "outside"), ("drinnen", "draußen"), ("temporary",
    "permanent"), ("vorübergehend", "dauerhaft"), ("part.time", "full.time"), ("teilzeit", "vollzeit"),
    ("imports", "exports"), ("extra", "included"), ("free.of.charge", "paid"), ("can", "must"), ("can", "have.to"),
    ("können", "müssen"), ("peuvent", "doivent"), ("pueden", "deben"),
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
    ("vor", "nach"), ("about", "exactly"), ("etwa", "genau"),
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
    ("the job is part-time", "the job is part.time"), ("un poste à temps plein", "un poste à temps.plein"),
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
    ("The company plans to hire 50 people.", "plans to"), ("The museum intends to reopen.", "intends to"),
    ("Die Firma soll 50 Leute einstellen.", "soll"), ("La ville prévoit de réduire les émissions.", "prévoit"),
])
def test_a_hedge_is_found_in_many_languages(text, hedge):
    body = fold(text)
    assert hedge in [body[a:b] for a, b in hedges(body)]


@pytest.mark.parametrize("text", [
    "The museum opens in May.", "Jackalopes hire Todd Watson as new Head Coach May 20, 2019.", "Since May the pool "
    "is open.", "Guests can check in from 15:00.", "The flight landed as expected.", "The flight is delayed.",
    "Le musée ouvre à 9 h.", "Refunds will be issued within 14 days.", "The Basic plan has 10 users.",
    "Plan Básico: 10 usuarios.", "The plant employs 300 people.",
])
def test_a_month_a_can_and_as_expected_hedge_nothing(text):
    assert hedges(fold(text)) == []


@pytest.mark.parametrize(("text", "frame"), [
    ("Breakfast is free if you book directly.", "if"), ("Unless you cancel, the fee applies.", "unless"),
    ("Critics claim the bridge is unsafe.", "claim"),
    ("Das Frühstück ist kostenlos, wenn Sie direkt buchen.", "wenn"),
    ("Kritiker behaupten, die Brücke sei unsicher.", "behaupten"),
    ("Le petit-déjeuner est offert si vous restez.", "si"),
    ("El desayuno es gratis si reserva directamente.", "si"), ("Jeśli zapłacisz kartą, opłata wynosi 2%.", "jeśli"),
    ("Если вы платите картой, взимается 2%.", "если"), ("如果直接预订，早餐免费。", "如果"),
])
def test_a_condition_or_an_account_is_found_in_many_languages(text, frame):
    assert frame in [match.group() for match in CONDITIONS.finditer(fold(text))]


@pytest.mark.parametrize("text", [
    "Sí, el desayuno está incluido.", "La habitación se alquila con desayuno.", "Het ontbijt is inbegrepen als extra.",
    "Breakfast is free.", "The claimant was paid.",
])
def test_a_yes_a_pronoun_and_a_longer_word_frame_nothing(text):
    assert CONDITIONS.search(fold(text)) is None
