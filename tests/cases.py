"""Test data shared by several test modules (conftest.py is not importable by name: tests/local has one too)."""

import json

TESLA = ["Tesla was founded in 2003.", "Elon Musk joined Tesla in 2004.",
         "The first Tesla car was the Roadster."]
# The facts the judge is scripted with for TESLA: one claim supported, one contradicted.
TESLA_JUDGED = {"supported": ["Tesla was founded in 2003."], "contradicted": ["Elon Musk started the company."]}


# A tool's records, in the layouts and scripts agents hand back: each thing's values in a record of its own.
FLIGHTS_JSON = ('search_flights(origin="OSL") returned:\n{\n  "flights": [\n    {\n      "flight": "SK4705",\n'
                '      "price_eur": 189,\n      "stops": 0\n    },\n    {\n      "flight": "DY1872",\n'
                '      "price_eur": 142,\n      "stops": 1\n    }\n  ]\n}')
FLIGHTS_VIA = FLIGHTS_JSON.replace('"stops": 1', '"stops": 1,\n      "via": "CPH"')
PASSENGERS_JA = json.dumps({"passengers": [{"name": "田中太郎", "city": "大阪", "seat": "14C"},
                                          {"name": "佐藤花子", "city": "東京", "seat": "22A"}]},
                           ensure_ascii=False, indent=2)
ORDERS_ZH = json.dumps({"orders": [{"customer": "王伟", "city": "上海", "status": "已发货"},
                                   {"customer": "李娜", "city": "北京", "status": "已取消"}]},
                       ensure_ascii=False, indent=2)
GUESTS_TH = json.dumps([{"name": "สมชาย", "city": "เชียงใหม่"}, {"name": "สมหญิง", "city": "ภูเก็ต"}], ensure_ascii=False)
