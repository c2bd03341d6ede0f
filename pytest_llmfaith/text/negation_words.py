"""Words that say a thing is not so: "not", "nicht", "n'… pas", "не", "değil", "不", "ません", "않",
the prefixes that make a word its own opposite ("unavailable", "niedostępny", "недоступен"), words
of the other sense ("open", "closed"), and words that say it more weakly: only may be so ("may",
"vielleicht") or holds of some ("some", "einige"). "Breakfast is included" beside "Breakfast is not
included" writes every word the context does, yet says the other thing. Which words negate is a
fact of a language: code uses these only to ask the judge (exact.py, `_negated`) or to decide less
(no bound made true, no order asked under a negation), never to decide a claim false.
"""

from __future__ import annotations

from functools import lru_cache

import regex

NEGATION = regex.compile(
    # English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Danish and Norwegian, Polish,
    # Czech, Russian, Ukrainian, Turkish, Finnish, Indonesian, Greek, Hebrew, Arabic, Hindi,
    # Vietnamese, Hungarian, Romanian; then Chinese, Japanese, Korean and Thai
    r"(?<![\p{L}\p{M}])(?:not|no|never|none|nor|neither|cannot|lack|lacks|lacked|lacking|unable|"
    r"(?:fail|fails|failed|refuse|refuses|refused|decline|declines|declined|neglect|neglects|neglected)\s+to|"
    r"weder|ni|aucune?|ningun[oa]?|ningún|nessun[oa]?|nenhuma?|ingen|inga|żadn[aey]|żaden|žádn[ýáé]|hiçbir|\w+n't|nicht|kein\w*|nie|niemals|ne|pas|jamais|non|nunca|"
    r"não|nem|niet|geen|nooit|inte|aldrig|ikke|aldri|ei|eivät|není|nejsou|nemá|nemají|не|ни|нет|никогда|değil|yok|"
    r"tidak|bukan|δεν|μην|όχι|לא|אין|אינו|אינה|אינם|אינן|لا|لم|لن|ليس|ليست|غير|नहीं|मत|không|chưa|nincs|nu|"
    r"(?<=weder\s(?:\S+\s){1,6})noch|"  # the "nor" of "weder … noch", not "noch" of "still"
    # a Turkish verb negated by its suffix: "edilemez", "olmaz", "gelmiyor", "olmadı", "olmamış"
    r"\p{L}+(?:(?<![oóáéíú])m[ae]z|m[ıiuü]yor|madı|m[ae]m[ıi]ş))"  # not "Gómez"
    r"(?![\p{L}\p{M}])|(?<![\p{L}\p{M}])n'(?=\p{L})|[不没沒非無无]|ない|なく|ません|않|못|없|ไม่")
"""A negation anywhere in a text: "does not hold more than 450" is no bound of more; "lacks a
pool" and "failed to fix" negate in words of their own."""
_NO_NEGATION_AFTER = regex.compile(
    r"\s+(?:only|just|merely|nur|bloß|seulement|que|solo|sólo|só|solamente|soltanto|alleen|bara|bare|kun|tylko|"
    r"jen|только|лише|sadece|vain|hanya)(?![\p{L}\p{M}])|\s+(?:more|less|fewer|later|earlier|longer|mehr|weniger|"
    r"später|früher|länger|plus|moins|más|menos|più|meno|mais|meer|minder|mer|mindre|flere|færre|więcej|mniej|víc|"
    r"méně|больше|меньше|более|менее|позже|раньше|більше|менше|máximo|mínimo)"
    r"(?=\s*\p{N}|(?:\s+[\p{L}\p{M}]+)?\s+(?:than|als|que|de|di|do|dan|än|enn|end|niż|než|чем|ніж)(?![\p{L}\p{M}]))",
    regex.IGNORECASE)
"""Words after which a negation negates nothing the words say: "not only", "nicht nur", "ne …
que", and a comparative that bounds a number: "no more than 40", "no later than 18:00", "не менее
40", "no máximo 4". "No longer sells tickets", "nicht mehr verfügbar", "non più disponibile"
negate."""


HEDGES = regex.compile(
    # English ("may" not of the month: "May 20", "in May"), German, French, Spanish, Italian,
    # Portuguese, Dutch, Swedish, Danish and Norwegian, Polish, Czech, Russian, Ukrainian, Turkish,
    # Finnish, Indonesian, Greek, Hebrew, Arabic, Hindi, Hungarian, Vietnamese; then Chinese,
    # Japanese, Korean and Thai. Not "can" and its kin: "Guests can check in from 15:00" says what is so.
    r"(?<![\p{L}\p{M}])(?:(?<!(?:\d|\bin|\bof|\bsince|\buntil|\bfrom|\bby|\bmid|\bearly|\blate|\bthis|\bnext|\blast)"
    r"[\s-]+)may(?![\s.]*\d)|might|could|possibly|probably|probable|likely|perhaps|maybe|potentially|reportedly|"
    r"allegedly|supposedly|presumably|seemingly|apparently|(?<!\bas\s)expected|"
    r"(?:plans?|planned|intends?|intended|aims?|aimed|hopes?|hoped|scheduled)\s+to|soll|sollen|prévoit|prévu|"
    r"prévue|planea|prevé|previsto|prevista|prevede|intende|planuje|планирует|собирается|vielleicht|möglicherweise|"
    r"wahrscheinlich|eventuell|könnte|könnten|dürfte|dürften|vermutlich|voraussichtlich|angeblich|womöglich|"
    r"anscheinend|peut-être|pourrait|pourraient|probablement|possiblement|éventuellement|vraisemblablement|"
    r"apparemment|quizás?|tal vez|acaso|posiblemente|probablemente|seguramente|podría|podrían|forse|magari|potrebbe|"
    r"potrebbero|probabilmente|possibilmente|presumibilmente|talvez|possivelmente|provavelmente|poderia|poderiam|"
    r"misschien|mogelijk|waarschijnlijk|wellicht|vermoedelijk|kanske|möjligen|troligen|troligtvis|sannolikt|"
    r"förmodligen|antagligen|eventuellt|måske|kanskje|muligvis|muligens|sandsynligvis|sannsynligvis|formentlig|"
    r"trolig|antakelig|być może|prawdopodobnie|przypuszczalnie|ewentualnie|chyba|možná|pravděpodobně|může být|"
    r"может быть|возможно|вероятно|наверное|видимо|пожалуй|по-видимому|скорее всего|можливо|ймовірно|мабуть|belki|"
    r"muhtemelen|galiba|herhalde|ehkä|kenties|luultavasti|todennäköisesti|mahdollisesti|mungkin|kemungkinan|"
    r"barangkali|tampaknya|sepertinya|diperkirakan|ίσως|πιθανώς|πιθανόν|μάλλον|אולי|כנראה|ייתכן|ربما|يحتمل|"
    r"शायद|संभवतः|talán|valószínűleg|esetleg|có lẽ|hình như|"
    # or that it holds only of some, or at times ("Some rooms have a balcony" is no "All rooms have
    # a balcony", nor "Rooms have a balcony")
    r"some|several|many|sometimes|occasionally|partly|partially|einige|manche|mehrere|viele|manchmal|teilweise|"
    r"certain(?:e|s|es)|quelques|plusieurs|parfois|partiellement|algun[oa]s|vari[oa]s|much[oa]s|a veces|"
    r"parcialmente|alcun[ie]|divers[ie]|molt[ie]|talvolta|a volte|parzialmente|algum|algumas|vários|várias|"
    r"muit[oa]s|às vezes|sommige|enkele|meerdere|soms|gedeeltelijk|några|vissa|många|ibland|delvis|nogle|noen|"
    r"visse|mange|niektóre|niektórzy|kilka|wiele|czasami|częściowo|некоторые|несколько|многие|иногда|частично)"
    r"(?![\p{L}\p{M}])|可能|也许|也許|或许|或許|大概|恐怕|似乎|估计|估計|一些|有些|部分|かもしれ(?:ない|ません)?|だろう|"
    r"でしょう|おそらく|恐らく|たぶん|多分|らしい|一部|아마|것 같|지도 모르|일부|อาจ|น่าจะ")
"""Words that say a thing only may be so, or is only meant to be ("The company plans to hire 50
people"; not "will", which says it firmly), or holds only of some: "The flight may be delayed" is
no "The flight is delayed", "Some rooms have a balcony" no "All rooms have a balcony". Code asks
where the context says more weakly what the words say firmly, never the other way."""


CONDITIONS = regex.compile(
    # English, German, French and Spanish ("si", not "sí"), Italian, Portuguese, Dutch, Swedish,
    # Danish and Norwegian, Polish, Czech, Russian, Ukrainian, Turkish, Finnish, Indonesian, Greek;
    # then Chinese, Japanese and Korean. Not "se" nor "als", which are mostly something else.
    r"(?<![\p{L}\p{M}])(?:if|unless|provided|providing|whenever|claims?|claimed|alleges?|alleged|believes?|believed|"
    r"thinks?|suspects?|suspected|rumou?red|wenn|falls|sofern|sobald|behaupte[nt]?|behauptete[nt]?|glauben|glaubt|"
    r"meinen|meint|si|sauf si|pourvu|prétend(?:ent)?|a menos que|siempre que|creen|qualora|purché|sostengono|"
    r"desde que|indien|mits|tenzij|beweren|beweert|ifall|såvida|hvis|jeśli|jeżeli|twierdzą|twierdzi|pokud|jestli|"
    r"если|утверждают|утверждает|якобы|якщо|eğer|jos|jika|apabila|kalau|εάν|αν)(?![\p{L}\p{M}])"
    r"|如果|假如|倘若|只要|声称|聲稱|場合|なら|경우")
"""Words that say the rest holds only under a condition, or by someone's account: "Breakfast is
free if you book directly" is no "Breakfast is free", "Critics claim the bridge is unsafe" no "The
bridge is unsafe". Code asks where the context says under these what the words say outright."""


CAN = frozenset("can kann können peut peuvent puede pueden può possono pode podem kan kunnen får kan może mogą "
                "можно может могут".split())
"""Words of what may be done, which say what is so in the context ("Guests can check in from
15:00") and, in the words, stand for the context's "may" of what is allowed ("You can cancel"
beside "You may cancel")."""
EVERY = frozenset(
    "all every each always alle jede jeder jedes immer tous toutes chaque toujours todos todas cada siempre tutti "
    "tutte ogni sempre iedere elke altijd varje alltid hver altid wszystkie każdy zawsze все каждый всегда".split())
"""Words that say a thing holds of all, which a word of `HEDGES` may stand for in the context
("Todas las habitaciones" beside "Algunas habitaciones")."""


def hedges(text: str) -> list[tuple[int, int]]:
    """Where `text` (folded) says a thing only may be so, or holds of some (`HEDGES`)."""
    return [match.span() for match in HEDGES.finditer(text)]


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
    # Portuguese, Dutch, Swedish, Danish and Norwegian, Polish, Russian; Korean for open, allowed,
    # included, confirmed and free
    (r"open|geöffnet|offen|öffnet|ouvert|ouvre|abiert|abre|apert|apre|abert|geopend|öppe|åbe|otwart|открыт|열려|열립|영업",
     r"clos|shut|geschlossen|schließt|fermé|ferme|cerrad|cierra|chius|fechad|gesloten|stängd|lukket|stengt|"
     r"zamknię|закрыт|닫혀|닫힙|휴무"),
    (r"allow|permit|erlaubt|gestattet|autoris|permis|permitid|consentit|permess|toegestaan|tillåt|tilladt|tillatt|"
     r"dozwolon|разреш|허용",
     r"forbid|prohibit|banned|verboten|untersagt|interdit|prohibid|vietat|proibit|verboden|förbjud|forbudt|zabronion|"
     r"запрещ|금지"),
    (r"includ|inklusive|inbegriffen|inclus|incluid|incluíd|inbegrepen|inklud|wliczon|включ|포함",
     r"exclud|exklusive|ausgeschlossen|exclu|excluid|esclus|excluíd|uitgesloten|exklud|wyłączon|исключ|불포함|제외|"
     r"extra\b|zusätzlich|supplément|aparte\b|ekstra\b|dodatkow|дополнительн"),
    (r"confirm|bestätigt|confirmé|confirmad|confermat|bevestigd|bekräftad|bekræftet|bekreftet|potwierdz|подтвержд|확정",
     r"cancel|storniert|abgesagt|annulé|cancelad|annullat|geannuleerd|avbokad|inställd|annuller|aflyst|avlyst|"
     r"odwołan|anulowan|отмен|취소"),
    (r"increas|rose|risen|rise|grew|grow|gestiegen|stieg|augment|aument|subi|stegen|steg|wzrosł|вырос",
     r"decreas|fell|fall|drop|declin|shrank|gesunken|sank|fiel|baiss|diminu|bajó|bajaron|calat|diminuí|gedaald|daalde|"
     r"sjönk|faldt|falt|spadł|снизил|упал"),
    (r"mandator|required|compulsor|obligator|obbligatori|pflicht|obligatoire|obligatori|verplicht|obowiązkow|обязательн",
     r"optional|freiwillig|facultati|opcional|facoltativ|valfri|valgfri|opcjonaln|необязательн"),
    (r"accept|akzeptiert|angenommen|acepta|accettat|aceit|geaccepteerd|godkän|godkend|godkjent|zaakceptowan|принят",
     r"reject|declin|abgelehnt|refus|rechaz|rifiutat|recus|afgewezen|avvis|afvis|odrzucon|отклон"),
    (r"profit|gewinn|bénéfice|ganancia|lucro|winst|vinst|gevinst|zysk|прибыл",
     r"loss|verlust|perte|pérdida|perdita|prejuízo|verlies|förlust|strat[aęy]|убыт"),
    (r"delay|verspät|retard|retras|ritard|atras|vertraag|försen|forsink|opóźn|задерж|late\b|later\b|spät\b|tard\b|"
     r"tarde\b|laat\b",
     r"punctual|on\.time|in\.time|pünktlich|puntual|puntuale|pontual|punktualn|вовремя|early\b|earlier\b|früh\b|tôt\b|temprano|cedo\b|"
     r"vroeg\b"),
    (r"with\b|mit\b|avec\b|con\b|com\b|met\b|med\b|ze?\b|со?\b",
     r"without|ohne|sans\b|sin\b|senza|sem\b|zonder|utan\b|uden\b|uten\b|bez\b|без\b"),
    (r"valid|gültig|valable|válid|geldig|giltig|gyldig|ważn|действител",
     r"expir|abgelaufen|caducad|vencid|scadut|verlopen|utgång|utgått|udløb|utløpt|wygasł|просроч|истёк|истек"),
    (r"enabl|aktiviert|ingeschakeld|aktiverad|aktiveret|aktivert|włączon|включ",
     r"disabl|deaktiviert|uitgeschakeld|inaktiverad|avaktiverad|deaktiveret|deaktivert|wyłączon|отключ|выключ"),
    (r"pass(?:ed|es)?\b|succe|erfolgreich|bestanden|réussi|exitos|riuscit|bem-sucedid|geslaagd|lyckad|lykkedes|"
     r"vellykket|udan|успешн",
     r"fail|fehlgeschlagen|gescheitert|échou|fallid|fallit|falhou|falhad|mislukt|misslyckad|mislykke|nieudan|"
     r"неудач|провал"),
    (r"win\b|wins\b|won\b|winning\b|gewann|gewonnen|gewinnt|gagn|gan[óa]|ganaron|vins[ei]\b|vinto|venceu|ganhou|"
     r"vann\b|vandt|wygra|выигра|победи",
     r"lose\b|loses\b|lost\b|losing\b|verlor|verliert|perdu|perdi|pers[eoa]\b|förlora|tabte|tapte|przegra|проигра"),
    (r"can\b|kann\b|können|peut|peuvent|puede|pueden|può|possono|pode\b|podem|kunnen|kan\b|może|mogą|можно|может|могут",
     r"must|have\.to|has\.to|had\.to|muss|müssen|musst|doit|doivent|debe\b|deben|deve\b|devono|moet|moeten|måste|"
     r"musi\b|muszą|должен|должна|должны|обязан"),
    (r"free\b|free\.of\.charge|gratis|kostenlos|kostenfrei|gratuit|kostnadsfri|bezpłatn|darmow|бесплатн|무료",
     r"paid\b|chargeable|kostenpflichtig|payant|pago\b|pagamento\b|betaald|avgiftsbelag|betalt\b|płatn|платн|유료"),
    (r"approv|genehmigt|bewilligt|approuvé|aprobad|approvat|aprovad|goedgekeurd|beviljad|bevilget|zatwierdzon|одобрен",
     r"den(?:y|ied|ies)\b|abgelehnt|verweigert|refusé|denegad|negat[oa]\b|respint|negad[oa]\b|geweigerd|nekad|afslå|"
     r"avslå|odmówion|отказан"),
    (r"up\b|hausse", r"down\b|baisse"),
    (r"online", r"offline"),
    (r"public\b|publique|públic|pubblic[oa]\b|öffentlich|openbaar|offentlig|publiczn|публичн|общедоступн",
     r"private|privat|privé|privad|prywatn|приватн|частн"),
    (r"domestic|inland|national\b|intérieur|doméstic|nacional|nazional|binnenland|inrikes|indenrig|innenriks|krajow|"
     r"внутренн",
     r"internacional|internazional|internationa|utrikes|udenrig|utenriks|międzynarod|zagraniczn|международн"),
    (r"positi[vf]|pozytywn|положител", r"negativ|négati|negatie|negatyw|отрицател"),
    (r"present\b|anwesend|présent|presente\b|aanwezig|närvarande|obecn|присутств",
     r"absent|abwesend|ausente|assente|afwezig|frånvarande|fraværende|nieobecn|отсутств"),
    (r"empty|leer\b|vide\b|vací[oa]|vuot[oa]|vazi[oa]|leeg|pust|пуст",
     r"full\b|voll\b|plein|llen[oa]|pien[oa]|chei[oa]|vol\b|pełn|полн"),
    (r"arriv|ankunft|ankommt|angekommen|llega|llegó|chega|aankom|ankomst|przylot|przyjazd|прибы|прилет",
     r"depart|départ|leaves\b|left\b|abfahrt|abflug|salida|salió|partenza|partida|vertrek|avgång|afgang|avgang|"
     r"odlot|odjazd|отправ|вылет"),
    (r"available|in\.stock|verfügbar|disponibl|disponível|beschikbaar|tillgänglig|tilgængelig|tilgjengelig|dostępn|доступн",
     r"sold\.out|out\.of\.stock|ausverkauft|épuisé|agotad|esaurit|esgotad|uitverkocht|slutsåld|udsolgt|utsolgt|wyprzedan|распродан"),
    (r"start|begin|began|beginnt|begann|commenc|empie[cz]|comien[cz]|inizi|come[cç]|begint|börjar|starter|zaczyna|"
     r"rozpoczyna|начина|начнёт|начнет",
     r"end\b|ends\b|ended\b|ending\b|endet|endete|termin|finit|finisce|acaba|eindigt|slutar|slutter|kończy|"
     r"заканчива|законч|оконч"),
    (r"indoor|inside\b|innen|drinnen|intérieur|interior\b|intern[oa]\b|binnen\b|inomhus|indendørs|innendørs|"
     r"wewnątrz|крыт|внутри",
     r"outdoor|outside\b|außen|draußen|freien|extérieur|exterior\b|estern[oa]\b|buiten\b|utomhus|udendørs|"
     r"utendørs|zewnątrz|открыт\p{L}* воздух|снаружи"),
    (r"temporar|vorübergehend|temporaire|provisoire|provisional|provisori|tijdelijk|tillfällig|midlertidig|"
     r"tymczasow|временн",
     r"permanent|dauerhaft|définiti|definitiv|permanente|blijvend|stała?\b|stały|постоянн"),
    (r"part\.time|teilzeit|temps\.partiel|tiempo\.parcial|deeltijd|deltid|niepełn",
     r"full\.time|vollzeit|temps\.plein|tiempo\.completo|voltijd|heltid|pełn\p{L}* etat"),
    (r"import|einfuhr|importa|importe|invoer|importer|importuj|импорт|ввоз",
     r"export|ausfuhr|exporta|exporte|uitvoer|exporter|eksportuj|экспорт|вывоз"),
)
"""Words of the other sense: "open" beside "closed", "allowed" beside "prohibited", "included"
beside "excluded", "confirmed" beside "cancelled", "rose" beside "fell". Each says the other's
negation, so "The museum is open on Mondays" beside "The museum is closed on Mondays" is the same
words the other way, and "Le musée n'ouvre pas" beside "Le musée est fermé" the same thing."""
_CONVERSES = (
    # (one sense, the other), as `_OPPOSITES`
    (r"cheap|günstig|billig|goedkop|tań|дешев",
     r"expensive|dear|pricier|costlier|teuer|cher\b|chère|car[oa]\b|costos|duur|dyr|drog|дорог"),
    (r"high|höher|hoch|élevé|supérieur|alt[oa]\b|superior|superiore|hoger|hoog|högre|hög\b|høj|høy|wyższ|wysok|выше|"
     r"высок",
     r"low|niedrig|tief|bas\b|basse|inférieur|baj[oa]\b|inferior|inferiore|bass[oa]\b|lager\b|laag|lägre|låg|lav|"
     r"niższ|nisk|ниже|низк"),
    (r"more\b|mehr\b|más\b|più\b|mais\b|meer\b|mer\b|flere\b|więcej|больше|greater|größer|larger|bigger|major\b|"
     r"mayor\b|maggior|maior\b|groter|större|større|większ",
     r"fewer|less\b|weniger|moins\b|menos\b|meno\b|minder\b|mindre\b|færre|mniej|меньше|smaller|kleiner|"
     r"lesser|menor\b|minore?\b|mniejsz"),
    (r"before\b|avant\b|antes\b|prima\b|przed\b|до\b|früher|раньше|vor\b|voor\b|före\b",
     r"after\b|après\b|después|dopo\b|depois|после|später|позже|nach\b|na\b|efter\b"),
    (r"long|länger|lang\b|larg[oa]\b|lung[oa]\b|langer|längre|længere|lengre|dłuż|длинне|дольше",
     r"short|kürzer|kurz|court|cort[oa]\b|korter|kortare|kortere|krótsz|короче"),
    (r"fast|quick|schnell|rapide|rápid|rapid|veloc|sneller|snabb|hurtig|rask|szybk|szybsz|быстр",
     r"slow|langsam|lent|despacio|trager|långsam|langsom|treg|wolniej|wolno|медленн"),
    (r"old|alt\b|älter|vecchi|ouder|äldre|ældre|eldre|starsz|старше|старш",
     r"young|jung\b|jünger|jeune|joven|giovan|jonger|yngre|yngste|młodsz|младше|младш"),
    (r"better|best\b|besser|beste|meilleur|mejor|miglior|melhor|beter|bättre|bäst|bedre|bedst|lepsz|najlepsz|лучш",
     r"worse|worst|schlechter|schlechteste|pire|peor|peggior|pior|slechter|sämre|sämst|dårligere|dårligst|gorsz|"
     r"najgorsz|хуже|худш"),
    (r"north|nord|norr|noord|półno|север", r"south|süd|sud\b|syd|zuid|söder|połud|юг|южн"),
    (r"east|ost\b|östlich|öster|oost|øst|wsch|восто", r"west|ouest|oeste|ovest|väst|vest\b|zach|запад"),
    (r"buy|bought|purchas|kauf|gekauft|achet|compr[aó]|acquist|koop|kocht|köp|køb|kjøp|kupi|kupuj|купи|покуп",
     r"sell|sold\b|verkauf|vend|verkoop|verkocht|sälj|sålde|sælg|solgt|selg|sprzeda|прода"),
    (r"about\b|around\b|roughly|approximate|nearly|almost|circa\b|etwa\b|ungefähr|zirka|environ\b|aproximad|"
     r"alrededor|circa\b|ongeveer|ungefär|omkring|około|примерно|около\b|yaklaşık|sekitar",
     r"exact|precise|genau\b|exakt|précisément|exactement|exactamente|esattamente|precisamente|exatamente|"
     r"precies|præcis|dokładnie|ровно\b|tepat\b"),
)
"""Words of the other sense between two things, where one may be the other's converse: "X is
cheaper than Y" is "Y is dearer than X", "after that" may be "before" what came first; and a
number given exactly beside one given about so."""


_SENSES = [(regex.compile(rf"(?:{one})\w*", regex.IGNORECASE), regex.compile(rf"(?:{other})\w*", regex.IGNORECASE))
           for one, other in _OPPOSITES + _CONVERSES]
"""The pairs' two senses as patterns of whole words: `_OPPOSITES`' first, then `_CONVERSES`'."""
_PHRASES = regex.compile(r"(?<![\p{L}\p{M}])(?:on[ _-]time|in[ _-]time|sold[ _-]out|out[ _-]of[ _-]stock|in[ _-]stock|"
                         r"part[ _-]time|full[ _-]time|temps (?:partiel|plein)|tiempo (?:parcial|completo)|"
                         r"free of charge|ha(?:ve|s|d) to)"
                         r"(?![\p{L}\p{M}])")


def as_words(text: str) -> str:
    """`text` (folded) with each phrase of one sense in `_OPPOSITES` written as one word: "on time"
    beside "delayed", "sold out" beside "available"."""
    return _PHRASES.sub(lambda match: regex.sub(r"[ _-]", ".", match.group()), text)


@lru_cache(maxsize=16384)  # a context's words meet a claim's again and again
def _sides(word: str) -> frozenset[tuple[int, int]]:
    """(pair, sense) of each pair of `_SENSES` a word (folded) is of a sense of."""
    return frozenset((k, side) for k, senses in enumerate(_SENSES) for side, sense in enumerate(senses)
                     if sense.fullmatch(word))


def of_a_sense(word: str, between: bool = False) -> bool:
    """Whether a word (folded) is of one sense of a pair of `_OPPOSITES` (a state: "delayed",
    "cancelled", "open"; not a name or a code), or, `between` two things, of `_CONVERSES`."""
    return any(between or k < len(_OPPOSITES) for k, _ in _sides(word))


def opposite_senses(word: str, other: str, between: bool = True) -> bool:
    """Whether two words (folded) are of the two senses of one pair of `_OPPOSITES`, or, where the
    words name both things they are `between`, of `_CONVERSES`."""
    theirs = _sides(other)
    return any((k, 1 - side) in theirs for k, side in _sides(word) if between or k < len(_OPPOSITES))
