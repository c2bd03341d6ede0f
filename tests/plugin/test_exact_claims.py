"""Code checks only what is exact; the judge reads the language (issue 40), in one real pytest run of
many cases, in many languages, against a judge over HTTP that lies the ways a judge lies.

Each case is one inner test with its expected outcome, both directions:
- reworded: the judge's claim changes the output's words ("40 people, at least", a negation
  dropped) and the judge supports its own wording: the verdict is about the output's words, so the
  test FAILS, and the claim's wording never reaches a verdict request;
- greeting: a greeting, thanks or closing line in any language, which the judge says states no
  fact: not judged, the faithful answer PASSES;
- refusal: a refusal the judge finds no claims in, `no_claims="pass"`: PASSES in any language;
- hidden: no claims for a sentence that does state a fact: it is judged itself and FAILS;
- unnamed: a supported claim with a name or number the context never writes, which the judge
  says the context does not give: FAILS; named: one the context writes in another form: PASSES;
- amount: a number the context writes in the same role with another value: FAILS, decided by code;
- dropped: the judge quotes the output's words without their negation: the sentence changes them
  and is judged whole: FAILS.
"""

from __future__ import annotations

import json

import pytest
from plugin_helpers import run

# (id, output, context, judge's claims: (claim, words) pairs or None for none, expected outcome)
CTX_400 = {
    "en": ("Zorblat Corp employs 40 people.", "Zorblat Corp employs 400 people.", "employs 40 people, at least"),
    "de": ("Zorblat beschäftigt 40 Mitarbeiter.", "Zorblat beschäftigt 400 Mitarbeiter.", "über vierzig Mitarbeiter"),
    "zh": ("Zorblat公司有40名员工。", "Zorblat公司有400名员工。", "Zorblat公司有四十多名员工"),
    "pl": ("Zorblat zatrudnia 40 osób.", "Zorblat zatrudnia 400 osób.", "ponad czterdzieści osób"),
    "ja": ("Zorblat社の従業員は40人です。", "Zorblat社の従業員は400人です。", "従業員は40人余り"),
    "ko": ("Zorblat은 직원이 40명이다.", "Zorblat은 직원이 400명이다.", "직원이 40여 명"),
    "ru": ("В Zorblat работает 40 человек.", "В Zorblat работает 400 человек.", "более сорока человек"),
    "ar": ("يعمل في زوربلات 40 موظفا.", "يعمل في زوربلات 400 موظف.", "أكثر من 40 موظفا"),
    "he": ("בזורבלט עובדים 40 אנשים.", "בזורבלט עובדים 400 אנשים.", "מעל 40 אנשים"),
    "hi": ("ज़ोरब्लैट में 40 लोग काम करते हैं।", "ज़ोरब्लैट में 400 लोग काम करते हैं।", "40 से अधिक लोग"),
    "th": ("Zorblat มีพนักงาน 40 คน", "Zorblat มีพนักงาน 400 คน", "มีพนักงานมากกว่า 40 คน"),
    "vi": ("Zorblat có 40 nhân viên.", "Zorblat có 400 nhân viên.", "hơn 40 nhân viên"),
    "tr": ("Zorblat 40 kişi çalıştırıyor.", "Zorblat 400 kişi çalıştırıyor.", "40 kişiden fazla"),
    "fi": ("Zorblat työllistää 40 henkeä.", "Zorblat työllistää 400 henkeä.", "yli 40 henkeä"),
    "sw": ("Zorblat ina wafanyakazi 40.", "Zorblat ina wafanyakazi 400.", "zaidi ya wafanyakazi 40"),
    "id": ("Zorblat mempekerjakan 40 orang.", "Zorblat mempekerjakan 400 orang.", "lebih dari 40 orang"),
    "el": ("Η Zorblat απασχολεί 40 άτομα.", "Η Zorblat απασχολεί 400 άτομα.", "πάνω από 40 άτομα"),
    "uk": ("Zorblat має 40 працівників.", "Zorblat має 400 працівників.", "понад 40 працівників"),
    "bn": ("জোরব্লাটে ৪০ জন কাজ করেন।", "জোরব্লাটে ৪০০ জন কাজ করেন।", "৪০ জনের বেশি"),
    "ta": ("சோர்ப்ளாட்டில் 40 பேர் வேலை செய்கிறார்கள்.", "சோர்ப்ளாட்டில் 400 பேர் வேலை செய்கிறார்கள்.",
           "40 பேருக்கு மேல்"),
    "fa": ("زوربلات ۴۰ کارمند دارد.", "زوربلات ۴۰۰ کارمند دارد.", "بیش از ۴۰ کارمند"),
}
NEGATED = {  # the output negates, the judge's claim does not: (output, context, the claim without the negation)
    "cs": ("Aplikace nemá verzi pro Android.", "Aplikace má verzi pro Android.", "Aplikace má verzi pro Android."),
    "fa": ("برنامه نسخه اندروید ندارد.", "برنامه نسخه اندروید دارد.", "برنامه نسخه اندروید دارد."),
    "sw": ("Programu haina toleo la Android.", "Programu ina toleo la Android.", "Programu ina toleo la Android."),
    "en": ("The app is incompatible with Android.", "The app is compatible with Android.",
           "The app is compatible with Android."),
    "en-not-true": ("It is not true that the app supports Android.", "The app supports Android.",
                    "The app supports Android."),
    "ru": ("Не все тарифы включают роуминг.", "Все тарифы включают роуминг.", "Все тарифы включают роуминг."),
    "id": ("Fitur ini belum tersedia di Android.", "Fitur ini sudah tersedia di Android.",
           "Fitur ini sudah tersedia di Android."),
}
DROPPED = {  # the judge quotes the output's own words but leaves its negation out: (output, context, words)
    "tr": ("Uygulama Android ile uyumlu değil.", "Uygulama Android ile uyumludur.", "Uygulama Android ile uyumlu"),
    "en": ("It is not true that the app supports Android.", "The app supports Android.", "the app supports Android"),
    "ru": ("Не все тарифы включают роуминг.", "Все тарифы включают роуминг.", "тарифы включают роуминг"),
    "zh": ("该应用不支持安卓。", "该应用支持安卓。", "支持安卓"),
    "ja": ("このアプリはAndroidに対応していません。", "このアプリはAndroidに対応しています。",
           "このアプリはAndroidに対応"),
    "ko": ("이 앱은 안드로이드를 지원하지 않습니다.", "이 앱은 안드로이드를 지원합니다.", "이 앱은 안드로이드를 지원"),
    "es": ("La app no funciona con Android.", "La app funciona con Android.", "funciona con Android"),
}
GREETINGS = {  # a closing line or greeting beside a supported fact: (greeting, fact)
    "en": ("Hope this helps!", "The trial lasts 30 days."),
    "en-2": ("Great question!", "The trial lasts 30 days."),
    "es": ("¡Hola!", "La prueba dura 30 días."),
    "de": ("Ich hoffe, das hilft!", "Die Testphase dauert 30 Tage."),
    "ja": ("お役に立てれば幸いです。", "試用期間は30日間です。"),
    "sw": ("Natumaini hii inasaidia!", "Kipindi cha majaribio ni siku 30."),
    "pt": ("Espero ter ajudado!", "O teste dura 30 dias."),
    "ko": ("도움이 되었기를 바랍니다!", "체험 기간은 30일입니다."),
    "nl": ("Fijne dag nog!", "De proefperiode duurt 30 dagen."),
    "it": ("Spero di esserti stato utile!", "La prova dura 30 giorni."),
}
REFUSALS = {
    "id": "Maaf, saya tidak dapat menemukan informasi itu dalam dokumen.",
    "pl": "Niestety nie znalazłem tej informacji w dokumentach.",
    "sw": "Samahani, sikuweza kupata habari hiyo kwenye nyaraka.",
    "tr": "Uzgunum, bu bilgiyi belgelerde bulamadim.",
    "en": "I could not find that in the documents.",
    "vi": "Xin lỗi, tôi không tìm thấy thông tin đó trong tài liệu.",
    "th": "ขออภัย ฉันไม่พบข้อมูลนั้นในเอกสาร",
}
HIDDEN = {  # a refusal that also states a fact, which the judge returns no claims for
    "en": "Sorry, I can't share Dr. Müller's salary, but Zorblat Corp employs forty people.",
    "de": "Das Gehalt von Dr. Müller kann ich nicht nennen, aber Zorblat beschäftigt vierzig Leute.",
    "hi": "माफ़ कीजिए, मैं वेतन नहीं बता सकता, लेकिन ज़ोरब्लैट में चालीस लोग काम करते हैं।",
    "th": "ขออภัย ฉันบอกเงินเดือนไม่ได้ แต่ Zorblat มีพนักงานสี่สิบคน",
    "ar": "عذرا، لا أستطيع ذكر الراتب، لكن زوربلات توظف أربعين شخصا.",
    "zh": "抱歉，我不能透露薪水，但Zorblat公司有四十名员工。",
    "ja": "給与はお伝えできませんが、ゾーブラット社の従業員は四十人です。",
    "en-confirm": "I can confirm the app supports Android.",
    "en-sure": "Sure, and the app supports Android too.",
}
UNNAMED = {  # a supported claim naming what the context does not: (output, context, the token asked about)
    "iran": ("The office is in Iran.", "The office is in Iraq.", "iran"),
    "bern": ("The office is in Bern.", "The office is in Berlin.", "bern"),
    "dubai": ("The office is in Dubai.", "The office is in Dublin.", "dubai"),
    "mario": ("The ticket was handled by Mario.", "The ticket was handled by Maria.", "mario"),
    "tesco": ("The contract is with Tesco.", "The contract is with Tesla.", "tesco"),
    "model-x": ("The offer is for the Model X.", "The offer is for the Model S.", "x"),
    "cook": ("The CEO is Tim Cook.", "The CEO is Tim Cooksey.", "cook"),
    "zh": ("总部位于上海。", "总部位于北京。", "上海"),
    "ar": ("المقر في دبي.", "المقر في الدوحة.", "دبي"),
    "ja": ("アクアブリュー・ミニは水筒です。", "アクアブリュー・プロは水筒です。", "ミニ"),
    "de": ("Der Sitz ist in München.", "Der Sitz ist in Hamburg.", "münchen"),
}
AMOUNTS = {  # an amount the context gives as another number, the judge supports it, the amount question says no
    "de": ("Der AquaPur fasst 5,3 Liter Wasser.", "Der AquaPur fasst 3,5 Liter Wasser.", "5,3 liter"),
    "en": ("The plan costs $9 per month.", "The plan costs $8 per month.", "$9"),
    "ko": ("회사는 직원 40명을 고용합니다.", "회사는 직원 400명을 고용합니다.", "40명을"),
    "zh": ("公司有40名员工。", "公司有400名员工。", "40名"),
    "pt": ("O cartão custa R$ 3.000,00 por ano.", "O cartão custa R$ 3.500,00 por ano.", "3.000,00 por"),
}
APPROXIMATE = {  # the judge says the context gives the amount (an approximation, other notation): PASS
    "en": ("The company employs about 1,200 people.", "The company employs 1,234 people."),
    "fr": ("L'entreprise emploie environ 1 200 personnes.", "L'entreprise emploie 1 234 personnes."),
}
NAMED = {  # the context writes the name in another form, and the judge says it names it
    "fi": ("Toimisto on Helsingissä.", "The office is in Helsinki."),
    "pl": ("Biuro jest w Łodzi.", "The office is in Łódź."),
    "de": ("Der Kunde heißt Müller.", "The customer is called Mueller."),
    "de-2": ("Das Büro ist in Zürich.", "The office is in Zurich."),
    "en-uk": ("The firm is based in the UK.", "The firm is based in the U.K."),
    "en-ibm": ("The client is IBM.", "The client is International Business Machines."),
    "en-quote": ("The ticket was handled by O’Brien.", "The ticket was handled by O'Brien."),
    "tr": ("Sipariş İstanbul'a gönderildi.", "The order was shipped to Istanbul."),
}


COVERED = {  # the claims quote every fact, only joining words are left: the judge says nothing more, PASS
    "en": ("The app supports Android and iOS.", ["The app supports Android", "The app supports … iOS"]),
    "de": ("Die App läuft auf Android und iOS.", ["Die App läuft auf Android", "Die App läuft auf … iOS"]),
    "pt": ("O app funciona no Android e no iOS.", ["O app funciona no Android", "O app funciona … no iOS"]),
}


def _cases() -> tuple[list[tuple[str, str, list[str], str, str]], dict[str, object]]:
    """(id, output, context, call, expected) per inner test, and the judge's script for all of them."""
    cases: list[tuple[str, str, list[str], str, str]] = []
    claims: dict[str, list[object]] = {}
    supported: list[str] = []
    not_facts: list[str] = []
    unnamed: list[str] = []
    says_more: list[str] = []
    changes: list[str] = []
    for lang, (output, context, reworded) in CTX_400.items():
        cases.append((f"reworded-{lang}", output, [context], "faithful", "failed"))
        claims[output] = [{"claim": reworded, "words": reworded}]  # words not in the output: asked again, then dropped
        supported.append(reworded)
    for lang, (output, context, claim) in NEGATED.items():
        cases.append((f"negated-{lang}", output, [context], "faithful", "failed"))
        claims[output] = [{"claim": claim, "words": claim}]
        supported.append(claim)
    for lang, (greeting, fact) in GREETINGS.items():
        output = f"{fact} {greeting}"
        cases.append((f"greeting-{lang}", output, [fact], "faithful", "passed"))
        claims[output] = [{"claim": fact, "words": fact}]
        supported.append(fact)
        not_facts.append(greeting)
    for lang, refusal in REFUSALS.items():
        cases.append((f"refusal-{lang}", refusal, ["The trial lasts 30 days."], "no_claims", "passed"))
        claims[refusal] = []
    for lang, output in HIDDEN.items():
        cases.append((f"hidden-{lang}", output, ["The trial lasts 30 days."], "no_claims", "failed"))
        claims[output] = [{"claim": "no fact", "words": "xyz not in the output"}]  # then none that hold
    for name, (output, context, token) in UNNAMED.items():
        cases.append((f"unnamed-{name}", output, [context], "faithful", "failed"))
        supported.append(output)
        unnamed.append(token)
    for lang, (output, context, said) in AMOUNTS.items():
        cases.append((f"amount-{lang}", output, [context], "faithful", "failed"))
        supported.append(output)
        unnamed.append(said)
    for lang, (output, context) in APPROXIMATE.items():
        cases.append((f"approximate-{lang}", output, [context], "faithful", "passed"))
        supported.append(output)
    for lang, (output, context) in NAMED.items():
        cases.append((f"named-{lang}", output, [context], "faithful", "passed"))
        supported.append(output)
    # words that are the output's own but leave its negation out: the sentence says more, and is judged whole
    for lang, (output, context, words) in DROPPED.items():
        cases.append((f"dropped-{lang}", output, [context], "faithful", "failed"))
        claims[output] = [{"claim": words, "words": words}]
        supported.append(words)
        says_more.append(output)
        changes.append(words)
    for lang, (output, words) in COVERED.items():
        cases.append((f"covered-{lang}", output, [output], "faithful", "passed"))
        claims[output] = [{"claim": w, "words": w} for w in words]
        supported += words
    return cases, {"claims": claims, "supported": supported, "not_facts": not_facts, "unnamed": unnamed,
                   "says_more": says_more, "changes": changes}


CASES, SCRIPT = _cases()
SUITE = f"""
import json
import pytest
from pytest_llmfaith import assert_faithful

CASES = json.loads({json.dumps(json.dumps(CASES, ensure_ascii=False))})

@pytest.mark.parametrize("name, output, context, call", [c[:4] for c in CASES], ids=[c[0] for c in CASES])
def test_case(name, output, context, call):
    if call == "no_claims":
        assert_faithful(output, context, min_score=1.0, no_claims="pass")
    else:
        assert_faithful(output, context, min_score=1.0)
"""


def test_there_are_many_cases_in_many_languages() -> None:
    languages = {c[0].split("-", 1)[1].split("-")[0] for c in CASES if not c[0].startswith("unnamed")}
    assert len(CASES) >= 60 and len(languages) >= 20
    assert {c[4] for c in CASES} == {"passed", "failed"}


@pytest.fixture
def lying_judge(server):
    server.facts(**SCRIPT)
    return server


def test_every_case_ends_as_the_output_deserves(pytester, lying_judge) -> None:
    pytester.makepyfile(test_cases=SUITE)
    result = run(pytester, lying_judge, "-p", "no:randomly", "-rA")
    outcomes = {}
    for report in result.reprec.getreports("pytest_runtest_logreport"):  # type: ignore[attr-defined]
        if report.when == "call":
            outcomes[report.nodeid.split("[", 1)[1].rstrip("]")] = report.outcome
    wrong = {c[0]: outcomes.get(c[0]) for c in CASES if outcomes.get(c[0]) != c[4]}
    assert wrong == {}, f"{wrong}\n{result.stdout.str()[-3000:]}"
    for request in lying_judge.calls("verdicts"):  # what is judged is the output's words, never the claim's
        content = request["body"]["messages"][-1]["content"]
        assert not any(reworded in content for _, _, reworded in CTX_400.values())
    # every narrow question was asked, in the verdicts' own request: a sentence without claims (or
    # with words its claims leave), a name the context never writes
    asked = "".join(r["body"]["messages"][-1]["content"] for r in lying_judge.calls("verdicts"))
    assert '"already_checked"' in asked and '"not_in_context"' in asked
    assert not lying_judge.calls("facts") and not lying_judge.calls("names")
    for output, _, words in DROPPED.values():  # the words are shown in their sentence, its negation with them
        asked = [r["body"]["messages"][-1]["content"] for r in lying_judge.calls("verdicts")]
        assert any(output in a and words in a for a in asked)
