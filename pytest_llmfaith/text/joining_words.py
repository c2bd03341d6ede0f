"""Words that join two things named as one: "Acme and Beta merged", "Ingrid Dahl und Karin Berg",
"Oslo ou Bergen". Two names either side of one of these may come in any order, so code never asks
about their order; two either side of another word may not ("from Oslo to Bergen", "Acme acquired
Beta"). Which words join is a fact of a language: code uses these only to ask less.
"""

from __future__ import annotations

JOINING = frozenset(
    # "and", "or", "with", "as well as" ("as well as" is read by its last word, "as"), "versus", in
    # English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Danish and Norwegian,
    # Polish, Czech, Russian, Ukrainian, Turkish, Finnish, Indonesian, Vietnamese, Greek; not "a", the
    # Czech "and" that is also the Spanish and Italian "to"
    "and or & + vs versus as with plus und oder sowie et ou y e o ni en of och eller og samt i oraz lub albo "
    "и или та і або ve veya ile ja tai sekä dan atau serta và hoặc với και ή".split()
)
