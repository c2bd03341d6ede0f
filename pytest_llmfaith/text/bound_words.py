"""Words that make a number a bound or an estimate: "more than 40", "etwa 40", "plus de 40",
"40 or more", "40'tan fazla", "40人以上", "약 40명". "More than 40 people" is true where the context
says "more than 45 people", and "around 40" may be what "around 45" is, so code never decides that
such a number is another value, nor asks whether it is the same amount: the judge reads it. Which
words are bounds is a fact of a language: code uses these only to decide less, never more.
"""

from __future__ import annotations

import unicodedata


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
