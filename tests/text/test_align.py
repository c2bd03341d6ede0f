"""A claim is the output's by what it adds and drops (issue 32, item 1), in any language: the
rules of text/align.py, through check_claim, as the claims step uses them."""

from __future__ import annotations

import pytest

from pytest_llmfaith.scorers.checks import check_claim
from pytest_llmfaith.text.align import changes

# (output, a claim that quietly qualifies its number): on no list of any language
QUALIFIED = [
    pytest.param("Acme employs 40 people.", "Acme employs 40+ people.", id="en-plus"),
    pytest.param("Acme employs 40 people.", "Acme employs upwards of 40 people.", id="en-upwards"),
    pytest.param("Acme employs 40 people.", "Acme employs a minimum of 40 people.", id="en-minimum"),
    pytest.param("Acme employs 40 people.", "Acme employs some 40 people.", id="en-some"),
    pytest.param("Acme employs 40 people.", "Acme employs north of 40 people.", id="en-north-of"),
    pytest.param("Acme employs 40 people.", "Acme employs 40-plus people.", id="en-40-plus"),
    pytest.param("Acme employs 40 people.", "Acme employs ~40 people.", id="en-tilde"),
    pytest.param("Nordlicht beschäftigt 40 Mitarbeiter.", "Nordlicht beschäftigt gut 40 Mitarbeiter.", id="de-gut"),
    pytest.param("Nordlicht beschäftigt 40 Mitarbeiter.", "Nordlicht beschäftigt knapp 40 Mitarbeiter.", id="de-knapp"),
    pytest.param("Acme emplea a 40 personas.", "Acme emplea a más de 40 personas.", id="es-mas-de"),
    pytest.param("Acme emploie 40 personnes.", "Acme emploie une quarantaine de 40 personnes.", id="fr"),
    pytest.param("公司有40名员工。", "公司有40多名员工。", id="zh-duo"),
    pytest.param("公司有40名员工。", "公司有40余名员工。", id="zh-yu"),
    pytest.param("会社は40人を雇用しています。", "会社は40人余りを雇用しています。", id="ja-amari"),
    pytest.param("会社は40人を雇用しています。", "会社は40人強を雇用しています。", id="ja-kyou"),
    pytest.param("회사는 직원 40명을 고용하고 있습니다.", "회사는 직원 40여 명을 고용하고 있습니다.", id="ko-yeo"),
    pytest.param("회사는 직원 40명을 고용하고 있습니다.", "회사는 직원 40명 남짓을 고용하고 있습니다.", id="ko-namjit"),
    pytest.param("החברה מעסיקה 40 עובדים.", "החברה מעסיקה מעל 40 עובדים.", id="he-meal"),
    pytest.param("Компания нанимает 40 человек.", "Компания нанимает более 40 человек.", id="ru-bolee"),
    pytest.param("Компания нанимает 40 человек.", "Компания нанимает свыше 40 человек.", id="ru-svyshe"),
    pytest.param("Şirket 40 kişi çalıştırıyor.", "Şirket 40'tan fazla kişi çalıştırıyor.", id="tr-fazla"),
    pytest.param("Công ty có 40 nhân viên.", "Công ty có hơn 40 nhân viên.", id="vi-hon"),
    pytest.param("Perusahaan itu mempekerjakan 40 orang.", "Perusahaan itu mempekerjakan lebih dari 40 orang.",
                 id="id-lebih-dari"),
    pytest.param("Firma zatrudnia 40 osób.", "Firma zatrudnia ponad 40 osób.", id="pl-ponad"),
    pytest.param("कंपनी में 40 कर्मचारी हैं।", "कंपनी में 40 से अधिक कर्मचारी हैं।", id="hi-adhik"),
    pytest.param("บริษัทมีพนักงาน 40 คน", "บริษัทมีพนักงาน 40 กว่าคน", id="th-kwa"),
    pytest.param("Η εταιρεία απασχολεί 40 άτομα.", "Η εταιρεία απασχολεί πάνω από 40 άτομα.", id="el-pano-apo"),
]

# (output, a claim that drops the negation of the clause it restates)
UNNEGATED = [
    pytest.param("The app does not support Android.", "The app supports Android.", id="en"),
    # one-syllable negations standing alone in a spaced script: not endings a claim may drop
    pytest.param("회사는 서울에 안 갑니다.", "회사는 서울에 갑니다.", id="ko-an"),
    pytest.param("회사는 그 제품을 못 팝니다.", "회사는 그 제품을 팝니다.", id="ko-mot"),
    pytest.param("AquaBrewはAndroidに未対応です。", "AquaBrewはAndroidに対応しています。", id="ja-mi"),
    pytest.param("该应用尚未支持安卓系统。", "该应用支持安卓系统。", id="zh-shangwei"),
    pytest.param("Компания не поддерживает Android.", "Компания поддерживает Android.", id="ru-ne"),
    pytest.param("Додаток не підтримує Android.", "Додаток підтримує Android.", id="uk-ne"),
    pytest.param("Ứng dụng không hỗ trợ Android.", "Ứng dụng hỗ trợ Android.", id="vi-khong"),
    pytest.param("Aplikacja nie obsługuje Androida.", "Aplikacja obsługuje Androida.", id="pl-nie"),
    pytest.param("Aplikasi ini tidak mendukung Android.", "Aplikasi ini mendukung Android.", id="id-tidak"),
    pytest.param("यह ऐप Android का समर्थन नहीं करता है।", "यह ऐप Android का समर्थन करता है।", id="hi-nahin"),
    pytest.param("แอปนี้ไม่รองรับ Android", "แอปนี้รองรับ Android", id="th-mai"),
    pytest.param("Η εφαρμογή δεν υποστηρίζει Android.", "Η εφαρμογή υποστηρίζει Android.", id="el-den"),
]

# Natural restatements: endings, pronouns resolved, order, compounds, a clause of a longer sentence
NATURAL = [
    ("Tesla, founded in 2003, welcomed Elon Musk in 2004.", "Elon Musk joined Tesla in 2004."),
    ("Tesla was founded in 2003. The Roadster was their first car.", "The Roadster was Tesla's first car."),
    ("Kari Berg runs the plant. She founded it in 1999.", "Kari Berg founded the plant in 1999."),
    ("Version 2.0, released in 2021, added a dark mode.", "Version 2.0 was released in 2021."),
    ("In 2020, Acme employed 40 people.", "Acme employed 40 people in 2020."),
    ("Acme employs 40 people and has an office in Paris.", "Acme employs 40 people."),
    ("Nordlicht betreibt ein Kundendienstbüro in Hamburg.",
     "Nordlicht betreibt ein Büro für den Kundendienst in Hamburg."),
    ("Rücksendungen sind 30 Tage lang kostenlos.", "Rücksendungen sind 30 Tage lang gratis."),
    ("公司有40名员工。", "该公司有40名员工。"),
    ("会社は40人を雇用しています。", "会社は40人を雇用している。"),
    ("회사는 직원 40명을 고용하고 있습니다.", "회사는 직원 40명을 고용합니다."),
    ("Компания нанимает 40 человек.", "Компания нанимает 40 человек."),
    ("Dr. Tanaka leads the U.S. team. It has 12 engineers.", "The U.S. team has 12 engineers."),
    # A unit written short beside its number, either way round (found on SummEval's "12ft").
    ("the toddler slipped 12ft and was airlifted.", "The toddler slipped 12 feet."),
    ("The run is 10 km long.", "The run is 10 kilometres long."),
    ("Die Strecke ist 10 Kilometer lang.", "Die Strecke ist 10 km lang."),
    # An ending a tokeniser split off after its apostrophe is not a word a claim deletes ("aoyama 's").
    ("aoyama 's team won the cup in 2015 .", "Aoyama's team won the cup in 2015."),
    ("the company 's office opened in 2019 .", "The company's office opened in 2019."),
]


@pytest.mark.parametrize("output, claim", QUALIFIED)
def test_a_claim_that_qualifies_the_outputs_number_is_not_the_outputs(output, claim):
    with pytest.raises(ValueError, match="not taken from the OUTPUT"):
        check_claim(claim, output)


@pytest.mark.parametrize("output, claim", UNNEGATED)
def test_a_claim_that_drops_the_negation_is_not_the_outputs(output, claim):
    with pytest.raises(ValueError, match="not taken from the OUTPUT"):
        check_claim(claim, output)
    assert any(found.startswith("leaves out") for found in changes(claim, output))


@pytest.mark.parametrize("output, claim", NATURAL)
def test_natural_restatements_are_the_outputs(output, claim):
    assert changes(claim, output) == ()
    check_claim(claim, output)


def test_what_a_claim_adds_is_named_in_the_reask():
    assert changes("Acme employs 40+ people.", "Acme employs 40 people.") == ("adds “+” next to 40",)
    assert changes("公司有40多名员工。", "公司有40名员工。") == ("adds “多” next to 40",)
    assert changes("Компания поддерживает Android.", "Компания не поддерживает Android.") == ("leaves out “не”",)


@pytest.mark.parametrize("output, claim", [
    ("AquaBrew Miniは税込み2万円です。", "The AquaBrew Mini costs 20,000 yen including tax."),
    ("Der Akku hält 10 Stunden.", "The battery lasts 10 hours."),
    ("배터리는 10시간 지속됩니다.", "The battery lasts 10 hours."),
    ("The battery lasts 10 hours.", "电池续航10小时。"),
])
def test_a_claim_in_another_language_than_the_output_is_not_its_claim(output, claim):
    with pytest.raises(ValueError, match="not taken from the OUTPUT"):
        check_claim(claim, output)


def test_a_name_the_output_never_gives_is_not_its_claim():
    with pytest.raises(ValueError, match="names “mini”"):
        check_claim("The AquaBrew Mini costs $299.", "The AquaBrew Pro costs $299.")



def test_forms_find_the_first_unit_that_is_the_word_but_for_an_ending_as_a_full_scan_would() -> None:
    """`Forms` looks among the units that share a form's first two letters only: the same answer
    as comparing it with every unit in order, in a language with endings and one with Hangul."""
    import random

    from pytest_llmfaith.text.align import Forms, Unit, same
    from pytest_llmfaith.text.profiles import GERMAN, KOREAN

    rng = random.Random(3)
    for lang, letters in ((GERMAN, "tagenmr"), (KOREAN, "합니다한회사")):
        forms = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 7))) for _ in range(400)]
        units = [Unit(f) for f in forms[:200]]
        index = Forms(units, lang)
        for form in forms:
            scanned = next((i for i, u in enumerate(units) if same(form, u.form, lang)), None)
            assert index.find(form) == scanned, (lang.name, form)
