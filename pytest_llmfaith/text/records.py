"""A passage's records, whatever its layout: a tool's JSON (indented or on one line), a Markdown
table, a CSV or TSV export, a YAML list or "key: value" blocks. Code reads one record as one
place, its fields as "key: value" lines with the passage's first line (the call that returned
it): a flight's price beside its code. A line alone hides the name ("| 142 | 1 |", "price_eur:
142"), and the whole passage writes every thing's values, so neither can tell a value given for
another thing."""

from __future__ import annotations

import csv
import json
import textwrap
from functools import lru_cache
from itertools import islice

import regex

from pytest_llmfaith.text.sentences import sentences

_JSON_BLOCK = regex.compile(r"^\s*[\[{]\s*$", regex.MULTILINE)
_TABLE_RULE = regex.compile(r"\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?")
_DELIMITERS = (",", "\t", ";")
_NUMBER_CELL = regex.compile(r"[-+]?\p{Sc}?\d[\d.,\u00a0\u202f ]*\s*(?:\p{Sc}|%)?")
_FIELD = regex.compile(r"(\s*)(- +)?([^:\s-][^:]{0,40}?)\s*:(?:\s+(\S.*))?")
"""A "key: value" line; the colon followed by a space or the end ("07:10" and "https://" are no key)."""
MAX_WORDS = 8
"""Words a field's value may have: more is a line of prose ("Agent: Sure, SK4705 leaves at 07:10 ...")."""


def parts(passage: str) -> tuple[str, ...]:
    """The passage as code compares words with it: each record of its data, each sentence of its prose."""
    return data(passage) or (tuple(_with_tables(passage)) if "|" in passage else sentences(passage))


@lru_cache(maxsize=64)
def data(passage: str) -> tuple[str, ...]:
    """The records of a passage that is data as a whole, none for prose. Read so, its cells are
    written as values: "SK4705,189,0" of a CSV export writes SK4705 and 189 (as text it is one
    token), and "Z\\u00fcrich" of a JSON result writes Zürich."""
    for read in (_json, _indented, _delimited, _key_values):
        found = read(passage)
        if found:
            return _with_prose(found)
    return ()


def _with_prose(records: list[str]) -> tuple[str, ...]:
    """Records whose fields hold prose (a retrieved document's text): the prose read as sentences,
    the other fields as the record, so a sentence is evidence alone, not with the whole document."""
    found: list[str] = []
    for record in records:
        lines = record.split("\n")
        prose = [line for line in lines if len(sentences(line)) > 1]
        found += ["\n".join(line for line in lines if line not in prose)] if prose else [record]
        found += [s for line in prose for s in sentences(line)]
    return tuple(part for part in found if part.strip())


def _head_and_body(passage: str) -> list[tuple[str, str]]:
    """(head, body) readings of the passage: whole, then without its first line (the call)."""
    head, _, body = passage.strip().partition("\n")
    return [("", passage.strip())] + ([(head.strip(), body)] if body.strip() else [])


def _indented(passage: str) -> list[str]:
    return _indented_records(passage) if _JSON_BLOCK.search(passage) else []


def _json(passage: str) -> list[str]:
    """The records of a JSON value after a call's words or none, laid out as an indented block
    whatever its layout (a number as written: 189.50 is not 189.5 to `exact`)."""
    for found in islice(regex.finditer(r"[\[{]", passage), 3):  # "tool [v2] returned: {...}"
        try:
            value = _json_values(passage, found.start())
            laid_out = json.dumps(value, indent=2, ensure_ascii=False)
        except ValueError:
            continue
        except RecursionError:  # nested deeper than Python reads: no records, its sentences
            return []
        if value is None:
            return []
        return _indented_records(f"{passage[:found.start()].strip()}\n{laid_out}".strip())
    return []


def _json_values(passage: str, start: int) -> object:
    """The JSON object or array from `start` to the passage's end, or the objects of JSON Lines
    there (one per line, as a list); None where other text follows. ValueError where it is no JSON."""
    decoder, values, end = json.JSONDecoder(parse_float=str), [], start
    while True:
        value, end = decoder.raw_decode(passage, end)
        values.append(value)
        rest = passage[end:]
        if not rest.strip():
            break
        if not regex.match(r"[ \t]*\r?\n\s*\{", rest):
            return None
        end += len(rest) - len(rest.lstrip())
    if not all(isinstance(v, (dict, list)) for v in values) or len(values) > 1 and not all(
            isinstance(v, dict) for v in values):
        return None
    return values[0] if len(values) == 1 else values


def _indented_records(passage: str) -> list[str]:
    """Each object of an indented JSON block that holds no other (a flight, a booking) with the
    passage's first line, and the values outside every such object together; the passage whole
    where its brackets do not pair."""
    lines = passage.split("\n")
    opened: list[list[int]] = []  # [line, holds another object or list]
    spans: list[tuple[int, int]] = []
    for i, line in enumerate(lines):
        text = line.strip()
        if text.endswith(("{", "[")):
            if opened:
                opened[-1][1] = 1
            opened.append([i, 0])
        elif text.rstrip(",") in ("}", "]"):
            if not opened:
                return [passage]
            start, holds = opened.pop()
            if not holds and lines[start].strip().endswith("{"):
                spans.append((start, i))
    if opened or not spans:
        return [passage]
    inside = {i for start, end in spans for i in range(start, end + 1)}
    head = lines[0] if 0 not in inside and not _JSON_BLOCK.match(lines[0]) else ""  # the call, not a bracket
    rest = [line for i, line in enumerate(lines[1:], 1) if i not in inside
            and not line.strip().rstrip(",").endswith(("{", "[", "}", "]"))]
    parts = [textwrap.dedent("\n".join(lines[a:b + 1])).rstrip().rstrip(",") for a, b in spans]
    parts += [textwrap.dedent("\n".join(rest)).rstrip().rstrip(",")] if rest else []
    return [f"{head}\n{part}".strip() for part in parts]


def _fields(head: str, keys: list[str], values: list[str]) -> str:
    return "\n".join([head] * bool(head) + [f"{k}: {v}" for k, v in zip(keys, values) if v.strip()])


def _delimited(passage: str) -> list[str]:
    """The rows of a CSV or TSV export: a header of names, then rows of as many cells, one a number.
    Prose whose lines hold as many commas is none: its first line names nothing, or no cell is a number."""
    for head, body in _head_and_body(passage):
        lines = [line for line in body.split("\n") if line.strip()]
        for delimiter in _DELIMITERS:
            if len(lines) < 2 or delimiter not in lines[0]:
                continue
            rows = [[cell.strip() for cell in row] for row in csv.reader(lines, delimiter=delimiter)]
            keys = rows[0]
            if (all(len(row) == len(keys) for row in rows) and len(set(keys)) == len(keys)
                    and all(key and not _NUMBER_CELL.fullmatch(key) and len(key.split()) <= 4 for key in keys)
                    and any(_NUMBER_CELL.fullmatch(cell) for row in rows[1:] for cell in row)):
                return [_fields(head, keys, row) for row in rows[1:]]
    return []


def _key_values(passage: str) -> list[str]:
    """Records written as "key: value" lines (a YAML list, a tool's plain-text result): one ends
    at a blank line, a "- " item or a key said again. At least two, a digit in one, no value
    longer than a field's (`MAX_WORDS`): a transcript ("User: ...") or an FAQ stays sentences."""
    for head, body in _head_and_body(passage):
        records: list[list[str]] = [[]]
        keys: set[str] = set()
        for line in body.split("\n"):
            field = _FIELD.fullmatch(line)
            if not line.strip() or (field and not field[4]):  # a blank line, or a heading ("flights:")
                if records[-1] and not line.strip():
                    records.append([])
                continue
            if not field or len(field[4].split()) > MAX_WORDS:
                break
            if records[-1] and (field[2] or field[3].casefold() in keys):
                records.append([])
            if not records[-1]:
                keys = set()
            keys.add(field[3].casefold())
            records[-1].append(f"{field[3]}: {field[4].strip()}")
        else:
            found = [record for record in records if record]
            if len(found) >= 2 and any(c.isdigit() for record in found for line in record for c in line):
                return ["\n".join([head] * bool(head) + record) for record in found]
    return []


def _with_tables(passage: str) -> list[str]:
    """The sentences of the passage, each row of a Markdown table in it read as a record of the header's names."""
    return [text for text, _ in _read_tables(passage)]


def table_rows(passage: str) -> tuple[str, ...]:
    """The rows of the Markdown tables in a passage of prose, each as a record of the header's names."""
    return tuple(text for text, row in _read_tables(passage) if row) if "|" in passage else ()


@lru_cache(maxsize=64)
def _read_tables(passage: str) -> tuple[tuple[str, bool], ...]:
    """`_with_tables`, each part with whether it is a table's row."""
    lines = passage.split("\n")
    found: list[tuple[str, bool]] = []
    prose: list[str] = []
    i = 0
    while i < len(lines):
        if (i + 1 < len(lines) and "|" in lines[i] and _TABLE_RULE.fullmatch(lines[i + 1].strip())):
            found += [(sentence, False) for sentence in sentences("\n".join(prose))]
            prose = []
            keys = _cells(lines[i])
            i += 2
            while i < len(lines) and "|" in lines[i]:
                found.append((_fields("", keys, _cells(lines[i])), True))
                i += 1
            continue
        prose.append(lines[i])
        i += 1
    return tuple(found + [(sentence, False) for sentence in sentences("\n".join(prose))])


def _cells(line: str) -> list[str]:
    text = line.strip()
    return [cell.strip() for cell in text.removeprefix("|").removesuffix("|").split("|")]
