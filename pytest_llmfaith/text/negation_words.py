"""Words that say a thing is not so: "not", "nicht", "n'… pas", "не", "değil", "不", "ません", "않",
the prefixes that make a word its own opposite ("unavailable", "niedostępny", "недоступен"), and
words of the other sense ("open", "closed"). "Breakfast is included" beside "Breakfast is not
included" writes every word the context does, yet says the other thing. Which words negate is a
fact of a language: code uses these only to ask the judge (exact.py, `_negated`) or to decide less
(no bound made true, no order asked under a negation), never to decide a claim false.
"""

from __future__ import annotations

import regex

NEGATION = regex.compile(
    # English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Danish and Norwegian, Polish,
    # Czech, Russian, Ukrainian, Turkish, Finnish, Indonesian, Greek, Hebrew, Arabic, Hindi,
    # Vietnamese, Hungarian; then Chinese, Japanese, Korean and Thai
    r"(?<![\p{L}\p{M}])(?:not|no|never|none|nor|neither|cannot|weder|ni|aucune?|ningun[oa]?|ningún|nessun[oa]?|"
    r"nenhuma?|ingen|inga|żadn[aey]|żaden|žádn[ýáé]|hiçbir|\w+n't|nicht|kein\w*|nie|niemals|ne|pas|jamais|non|nunca|"
    r"não|nem|niet|geen|nooit|inte|aldrig|ikke|aldri|ei|eivät|není|nejsou|nemá|nemají|не|ни|нет|никогда|değil|yok|"
    r"tidak|bukan|δεν|μην|όχι|לא|אין|אינו|אינה|אינם|אינן|لا|لم|لن|ليس|ليست|غير|नहीं|मत|không|chưa|nincs)"
    r"(?![\p{L}\p{M}])|(?<![\p{L}\p{M}])n'(?=\p{L})|[不没沒非無无]|ない|なく|ません|않|못|없|ไม่")
"""A negation anywhere in a text: "does not hold more than 450" is no bound of more."""
_NO_NEGATION_AFTER = regex.compile(
    r"\s+(?:only|just|merely|nur|bloß|seulement|que|solo|sólo|só|solamente|soltanto|alleen|bara|bare|kun|tylko|"
    r"jen|только|лише|sadece|vain|hanya|more|less|fewer|later|earlier|longer|mehr|weniger|später|früher|länger|plus|"
    r"moins|más|menos|più|meno|mais|meer|minder|mer|mindre|flere|færre|więcej|mniej|víc|méně|больше|меньше|"
    r"позже|раньше|більше|менше)(?![\p{L}\p{M}])", regex.IGNORECASE)
"""Words after which a negation negates nothing the words say: "not only", "nicht nur", "no more
than 40" (a bound), "no later than 18:00", "ne … que"."""


def negations(text: str) -> list[tuple[int, int]]:
    """Where `text` (folded) negates: NEGATION's matches, but for "not only" and "no more than"."""
    return [match.span() for match in NEGATION.finditer(text) if not _NO_NEGATION_AFTER.match(text, match.end())]

_PREFIXES = ("un", "in", "im", "il", "ir", "non", "dis", "des", "dés", "on", "niet", "nie", "ne", "не", "epä")
"""Prefixes that make a word its opposite: "un" of "unpaid", "in" of "inexact", "im" of "impossible",
"dis" of "disallowed", "des" of "desconectado", "on" of "onbetaald", "nie" of "niedostępny", "не" of
"недоступен", "epä" of "epävirallinen"."""
MIN_NEGATED = 4
"""Letters a word must keep after the prefix: "unite" is no "ite" negated."""


def negated_form(word: str, other: str) -> bool:
    """Whether `word` (folded) is `other` (folded) with a prefix that makes it its opposite
    ("unavailable" of "available", "non-refundable" written as one word)."""
    return len(other) >= MIN_NEGATED and word.endswith(other) and word[:-len(other)].rstrip("-") in _PREFIXES


_OPPOSITES = (
    # (one sense, the other), as the starts of words: English, German, French, Spanish, Italian,
    # Portuguese, Dutch, Swedish, Danish and Norwegian, Polish, Russian
    (r"open|geöffnet|offen|öffnet|ouvert|ouvre|abiert|abre|apert|apre|abert|geopend|öppe|åbe|otwart|открыт",
     r"clos|shut|geschlossen|schließt|fermé|ferme|cerrad|cierra|chius|fechad|gesloten|stängd|lukket|stengt|"
     r"zamknię|закрыт"),
    (r"allow|permit|erlaubt|gestattet|autoris|permis|permitid|consentit|permess|toegestaan|tillåt|tilladt|tillatt|"
     r"dozwolon|разреш",
     r"forbid|prohibit|banned|verboten|untersagt|interdit|prohibid|vietat|proibit|verboden|förbjud|forbudt|zabronion|"
     r"запрещ"),
    (r"includ|inklusive|inbegriffen|inclus|incluid|incluíd|inbegrepen|inklud|wliczon|включ",
     r"exclud|exklusive|ausgeschlossen|exclu|excluid|esclus|excluíd|uitgesloten|exklud|wyłączon|исключ"),
    (r"confirm|bestätigt|confirmé|confirmad|confermat|bevestigd|bekräftad|bekræftet|bekreftet|potwierdz|подтвержд",
     r"cancel|storniert|abgesagt|annulé|cancelad|annullat|geannuleerd|avbokad|inställd|annuller|aflyst|avlyst|"
     r"odwołan|anulowan|отмен"),
    (r"increas|rose|risen|rise|grew|grow|gestiegen|stieg|augment|aument|subi|stegen|steg|wzrosł|вырос",
     r"decreas|fell|fall|drop|declin|shrank|gesunken|sank|fiel|baiss|diminu|bajó|bajaron|calat|diminuí|gedaald|daalde|"
     r"sjönk|faldt|falt|spadł|снизил|упал"),
    (r"mandator|required|compulsor|obligator|obbligatori|pflicht|obligatoire|obligatori|verplicht|obowiązkow|обязательн",
     r"optional|freiwillig|facultati|opcional|facoltativ|valfri|valgfri|opcjonaln|необязательн"),
    (r"accept|akzeptiert|angenommen|acepta|accettat|aceit|geaccepteerd|godkän|godkend|godkjent|zaakceptowan|принят",
     r"reject|declin|abgelehnt|refus|rechaz|rifiutat|recus|afgewezen|avvis|afvis|odrzucon|отклон"),
    (r"profit|gewinn|bénéfice|ganancia|lucro|winst|vinst|gevinst|zysk|прибыл",
     r"loss|verlust|perte|pérdida|perdita|prejuízo|verlies|förlust|strat[aęy]|убыт"),
    (r"delay|verspät|retard|retras|ritard|atras|vertraag|försen|forsink|opóźn|задерж",
     r"punctual|pünktlich|puntual|puntuale|pontual|punktualn|вовремя"),
)
"""Words of the other sense: "open" beside "closed", "allowed" beside "prohibited", "included"
beside "excluded", "confirmed" beside "cancelled", "rose" beside "fell". Each says the other's
negation, so "The museum is open on Mondays" beside "The museum is closed on Mondays" is the same
words the other way, and "Le musée n'ouvre pas" beside "Le musée est fermé" the same thing."""
_SENSES = [(regex.compile(rf"(?:{one})\w*", regex.IGNORECASE), regex.compile(rf"(?:{other})\w*", regex.IGNORECASE))
           for one, other in _OPPOSITES]


def opposite_senses(word: str, other: str) -> bool:
    """Whether two words (folded) are of the two senses of one pair of `_OPPOSITES`."""
    return any((one.fullmatch(word) and two.fullmatch(other)) or (two.fullmatch(word) and one.fullmatch(other))
               for one, two in _SENSES)
