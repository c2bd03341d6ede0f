"""Small counts written as words ("four offices", "drei Büros", "пять человек"). Which words are
numbers is a fact of a language: code uses it only to ask the judge more, never less. A count the
context writes in no form, neither in digits nor as a word of any language here, is asked about
whatever its case ("Acme has five offices" beside "four offices"), as a day of the week is."""

from __future__ import annotations

_NUMBER_WORDS = (
    # One row per count from 2: English, German, French, Spanish, Italian, Portuguese, Dutch,
    # Swedish, Norwegian and Danish, Polish, Czech, Russian, Ukrainian, Turkish, Finnish,
    # Indonesian, with the cases a count often takes (Russian "трёх", Polish "pięciu"). A word that
    # is also a common word of one of them is left out ("to", "on", "fire", "ni", "ti", "due", "sei",
    # "neuf", "elf", "once", "yedi", "sex"): the verdict reads it, as before.
    "two zwei deux dos due dois duas twee två dwa dwie dwóch dva dvě dvou два две двух дві двох iki kaksi kahden "
    "dua",
    "three drei trois tres tre três drie trzy trzech tři tří три трёх трех трьох üç kolme kolmen tiga",
    "four vier quatre cuatro quattro quatro fyra cztery czterech čtyři čtyř четыре четырёх четырех чотири "
    "чотирьох dört neljä neljän empat",
    "five fünf cinq cinco cinque vijf fem pięć pięciu pět pěti пять пяти п'ять п'яти beş viisi "
    "viiden lima",
    "six sechs seis zes seks sześć sześciu šest šesti шесть шести шість altı kuusi kuuden enam",
    "seven sieben sept siete sette sete zeven sju syv siedem siedmiu sedm sedmi семь семи сім seitsemän "
    "tujuh",
    "eight acht huit ocho otto oito åtta åtte otte osiem ośmiu osm osmi восемь восьми вісім sekiz kahdeksan "
    "delapan",
    "nine neun nueve nove negen nio dziewięć dziewięciu devět devíti девять девяти дев'ять dokuz "
    "yhdeksän sembilan",
    "ten zehn dix diez dieci dez tien tio dziesięć dziesięciu deset deseti десять десяти kymmenen sepuluh",
    "eleven onze undici elva elleve одиннадцать одинадцять",
    "twelve zwölf douze doce dodici doze twaalf tolv dwanaście dvanáct двенадцать дванадцять",
)
NUMBER_WORDS = {word: count for count, row in enumerate(_NUMBER_WORDS, start=2) for word in row.split()}
"""A count's word in the languages above, and its value."""

NUMBER_PARTS = frozenset("""
twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands
zwanzig dreißig dreissig vierzig fünfzig sechzig siebzig achtzig neunzig hundert tausend
vingt vingts trente quarante cinquante soixante cent cents mille
veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa cien ciento cientos mil
venti trenta quaranta cinquanta sessanta settanta ottanta novanta cento mila
vinte trinta quarenta cinquenta sessenta setenta oitenta noventa cem
twintig dertig veertig vijftig zestig zeventig tachtig negentig honderd duizend
tjugo trettio fyrtio femtio sextio sjuttio åttio nittio hundra tusen tjue tretti førti femti seksti sytti åtti
nitti hundre
dwadzieścia trzydzieści czterdzieści pięćdziesiąt sześćdziesiąt siedemdziesiąt osiemdziesiąt dziewięćdziesiąt
sto tysiąc tysiące tysięcy dvacet třicet čtyřicet padesát šedesát sedmdesát osmdesát devadesát tisíc
двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто сто тысяча тысячи тысяч
двадцять тридцять п'ятдесят шістдесят сімдесят вісімдесят дев'яносто тисяча тисячі
on yirmi otuz kırk elli altmış yetmiş seksen doksan yüz bin sata tuhat puluh belas ratus ribu
""".split())
"""Tens, hundreds and thousands: a count beside one is part of a greater number ("twenty-two",
"treinta y dos", "on iki", "two hundred", "dua belas"), whose value the judge reads."""
