"""Test data shared by several test modules (conftest.py is not importable by name: tests/local has one too)."""

TESLA = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004.",
         "The first Tesla car was the Roadster."]
# The facts the judge is scripted with for TESLA: one claim supported, one contradicted.
TESLA_JUDGED = {"supported": ["Tesla was founded in 2003."], "contradicted": ["Elon Musk started the company."]}
