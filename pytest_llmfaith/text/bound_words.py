"""Words that make a number a bound or an estimate: "more than 40", "etwa 40", "plus de 40",
"40 or more", "40'tan fazla", "40人以上", "약 40명". "More than 40 people" is true where the context
says "more than 45 people", and "around 40" may be what "around 45" is, so code never decides that
such a number is another value, nor asks whether it is the same amount: the judge reads it. Which
words are bounds is a fact of a language: code uses these only to decide less, and `way` only to
find a bound the context's own makes true ("more than 400" beside "more than 450"), never to find
one false.
"""

from __future__ import annotations

import unicodedata

import regex


def _folded(words: str) -> frozenset[str]:
    return frozenset(unicodedata.normalize("NFKC", word).casefold() for word in words.split())


BEFORE = _folded(
    # English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Danish and Norwegian,
    # Polish, Russian, Ukrainian, Czech and Slovak, Turkish, Finnish, Hungarian, Romanian, Greek,
    # Indonesian and Malay, Vietnamese, Arabic, Hebrew, Hindi: words that may stand up to
    # BEFORE_REACH tokens before the number ("at least", "more than", "bis zu", "alrededor de").
    "than over above under below about around approximately approx roughly nearly almost circa ca some least most "
    "up upto less fewer more exceeding excess close max maximum min minimum beyond within from upwards estimated "
    "mehr weniger als über unter mindestens höchstens maximal minimal bis etwa rund zirka ungefähr knapp fast "
    "beinahe nahezu annähernd gut ab wenigstens "
    "plus moins environ près presque quelque jusqu jusqu'à dès partir approximativement quasi autour supérieur "
    "supérieure inférieur inférieure "
    "más menos alrededor aproximadamente unos unas casi cerca hasta desde mínimo máximo aprox superior inferior "
    "più meno oltre quasi almeno fino massimo minimo intorno sopra sotto superiore inferiore "
    "mais cerca quase até acima abaixo perto "
    "meer minder dan ruim bijna ongeveer zo'n minstens hoogstens maximaal minimaal tot vanaf boven onder rond "
    "omstreeks zowat "
    "mer mere mindre än enn över cirka omkring ungefär ungefær omtrent nästan næsten nesten minst mindst högst "
    "højst høyst upp op opp från fra drygt knappt knap runt rundt "
    "ponad powyżej poniżej niż około ok prawie blisko niemal najmniej najwyżej maksymalnie minimalnie do od "
    "przeszło mniej więcej "
    "более менее больше меньше чем свыше около почти примерно приблизительно порядка до от максимум минимум "
    "понад близько майже приблизно більше менше ніж щонайменше щонайбільше від "
    "více méně než přes téměř skoro asi kolem zhruba přibližně nejméně nejvýše až cca okolo vyše viac menej ako "
    "yaklaşık neredeyse az fazla çok takriben "
    "yli alle noin lähes melkein vähintään enintään korkeintaan ainakin kuin jopa runsas runsaat reilu reilut "
    "vajaa vajaat "
    "több kevesebb mint legalább legfeljebb körülbelül kb majdnem közel mintegy "
    "peste sub aproximativ aproape puțin mult decât până "
    "περισσότερα περισσότεροι περισσότερες περισσότερο περισσότερους λιγότερα λιγότεροι λιγότερες λιγότερο "
    "λιγότερους από περίπου σχεδόν τουλάχιστον έως μέχρι άνω κάτω "
    "lebih kurang sekitar hampir kira kira-kira setidaknya paling maksimal minimal hingga sampai atas bawah "
    "hơn khoảng gần ít tối đa thiểu trên dưới đến tới từ xấp xỉ chừng ngót "
    "أكثر أقل حوالي حوالى نحو تقريبا تقريباً قرابة يقارب الأقل الأكثر أزيد زهاء فوق تحت حتى يزيد يتجاوز "
    "יותר פחות כ בערך לפחות היותר עד מעל מתחת כמעט קרוב "
    "लगभग करीब क़रीब तकरीबन अधिक ज़्यादा ज्यादा कम अधिकतम न्यूनतम"
)
AFTER = _folded(
    # Words that may stand up to AFTER_REACH tokens after it ("40 or more", "40 Minuten höchstens",
    # "40'tan fazla", "40 से अधिक", "40 người trở lên").
    "more less fewer above below over under plus upwards maximum minimum most least approx approximately roughly "
    "mehr weniger höchstens mindestens ungefähr etwa maximal minimal "
    "moins environ "
    "más menos aproximadamente mínimo máximo "
    "più meno circa almeno massimo minimo "
    "mais "
    "meer minder ongeveer minstens maximaal "
    "mer mindre ungefär minst högst mere flere færre ungefær omtrent mindst højst høyst "
    "więcej mniej około "
    "более менее больше меньше більше менше více méně "
    "fazla az civarında civarı kadar üzeri üzerinde altında aşkın küsur "
    "enemmän vähemmän több kevesebb mult puțin "
    "περισσότερα λιγότερα περίπου "
    "lebih kurang hơn trở lên "
    "أكثر أقل تقريبا تقريباً "
    "ויותר ומעלה "
    "अधिक ज़्यादा ज्यादा कम ऊपर तक लगभग"
)
MARKS_BEFORE = tuple(
    # At the end of the run before it (or MARK_REACH characters before its end), in scripts
    # written without spaces, and in Korean words.
    "約 およそ 最大 最小 最低 最高 少なくとも 超 ほぼ 概ね 大体 "
    "超过 超過 多于 多於 少于 少於 不到 不足 至少 最多 最少 约 大约 大約 大概 近 将近 將近 接近 高达 高達 逾 几乎 幾乎 "
    "差不多 "
    "약 대략 거의 최소 최대 적어도 "
    "มากกว่า ประมาณ อย่างน้อย ไม่เกิน เกือบ".split()
)
MARKS_AFTER = tuple(
    # At the start of the run after it, or MARK_REACH characters in ("人以上", "名左右", "명 이상").
    "以上 以下 未満 超 程度 前後 余 ほど くらい ぐらい 近く 強 弱 足らず 以内 まで から "
    "左右 上下 多 餘 来 起 内 出头 "
    "이상 이하 미만 초과 정도 쯤 가량 넘 남짓 안팎 내외 까지 부터 "
    "กว่า".split()
)
BEFORE_REACH, AFTER_REACH = 2, 4
"""Tokens before and after a number read for a bound ("alrededor de 40", "40 minutes away at most"),
up to another number ("from 40 to 50": "from" bounds 40 only)."""
MARK_REACH = 3
"""Characters that may stand between a mark and the number in one run: a counter ("40人以上",
"40ユーロから")."""


def _alternatives(phrases: str) -> str:
    folded = {unicodedata.normalize("NFKC", phrase).casefold() for phrase in phrases.split("|")}
    return "|".join(regex.escape(phrase) for phrase in sorted(folded, key=len, reverse=True))


_MORE = ("more than|at least|greater than|in excess of|mehr als|mindestens|plus de|au moins|más de|al menos|"
         "più di|almeno|mais de|pelo menos|meer dan|minstens|mer än|minst|mer enn|ponad|więcej niż|co najmniej|"
         "более|свыше|lebih dari|setidaknya|vähintään|více než|nejméně|több mint|legalább|mere end|mindst|oltre|"
         "понад|більше ніж|щонайменше|yli|peste|mai mult de|cel puțin|περισσότερα από|περισσότεροι από|"
         "περισσότερες από|περισσότερους από|τουλάχιστον|hơn|ít nhất|أكثر من|على الأقل|יותר מ-|יותר מ|לפחות|"
         "en az|कम से कम")
_LESS = ("less than|fewer than|at most|weniger als|höchstens|moins de|au plus|menos de|como máximo|meno di|"
         "al massimo|no máximo|minder dan|hoogstens|mindre än|högst|mindre enn|høyst|mniej niż|najwyżej|менее|"
         "kurang dari|enintään|korkeintaan|méně než|nejvýše|kevesebb mint|legfeljebb|mindre end|højst|менше ніж|"
         "щонайбільше|mai puțin de|λιγότερα από|λιγότεροι από|λιγότερες από|λιγότερους από|ít hơn|tối đa|أقل من|"
         "פחות מ-|פחות מ|לכל היותר|en fazla")
_WORD_EDGE = r"(?<![\p{L}\p{M}])"
_COUNTER = r"[\p{Han}\p{Hiragana}\p{Katakana}]{0,2}"
_WAYS = (
    ("more", regex.compile(rf"(?:{_WORD_EDGE}(?:{_alternatives(_MORE)})|超过|超過|多于|多於|至少|少なくとも|최소|"
                           r"มากกว่า|อย่างน้อย|[>≥≧])\s*\p{Sc}?\s*$")),
    ("less", regex.compile(rf"(?:{_WORD_EDGE}(?:{_alternatives(_LESS)})|不到|少于|少於|最多|최대|น้อยกว่า|[<≤≦])"
                           r"\s*\p{Sc}?\s*$")),
)
_WAYS_AFTER = (
    ("more", regex.compile(r"^(?:\+|\s*(?:[\p{L}\p{M}]+\s+)?(?:or more|oder mehr|ou plus|o más|o più|ou mais|of meer|"
                           r"eller mer|eller mere|lub więcej|или больше|at least|mindestens|au moins|al menos|"
                           r"como mínimo|almeno|minstens|minst|से अधिक|से ज़्यादा|से ज्यादा)(?![\p{L}\p{M}])|"
                           r"['’]?\p{L}{1,3}\s+fazla(?![\p{L}\p{M}])|"
                           rf"{_COUNTER}(?:以上|超)|\s*\p{{Hangul}}{{0,2}}\s*(?:이상|초과))")),
    ("less", regex.compile(r"^(?:\s*(?:[\p{L}\p{M}]+\s+)?(?:or less|or fewer|oder weniger|ou moins|o menos|o meno|"
                           r"ou menos|of minder|eller mindre|lub mniej|или меньше|at most|at the most|höchstens|"
                           r"au plus|como máximo|al massimo|hoogstens|högst|høyst|से कम)(?![\p{L}\p{M}])|"
                           r"['’]?\p{L}{1,3}\s+az(?![\p{L}\p{M}])|"
                           rf"{_COUNTER}(?:以下|未満|以内)|\s*\p{{Hangul}}{{0,2}}\s*(?:이하|미만))")),
)


def way(before: str, after: str) -> str | None:
    """Which way a number is a bound, from the folded text right before and right after it:
    "more" ("more than 40", "at least 40", "40 or more", "40人以上", "40명 이상", "40+", "more than
    €40"), "less" ("less than 40", "höchstens 40", "40以下"), or None: an estimate ("about 40"), a
    bound whose reading the words leave open ("over 3 days" is also across them, "up to 12 hours"
    says 12 is reached, "from 40 EUR" is the least price), or none. Code uses it only to find a
    bound the context's makes true ("more than 400" beside "more than 450"), never one false."""
    found = {name for name, pattern in _WAYS if pattern.search(before)} | {
        name for name, pattern in _WAYS_AFTER if pattern.match(after)}
    return found.pop() if len(found) == 1 else None

