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
# One record's fields, with keys a claim may name ("departs", "check-out"), in three languages.
FLIGHT = json.dumps({"flight": "SK4705", "departs": "07:10", "arrives": "09:05", "price_eur": 189,
                     "bags_included": 1, "seats_left": 4}, indent=2)
HOTEL = json.dumps({"hotel": "Bristol", "checkIn": "14:00", "checkOut": "11:00", "nights": 3, "guests": 2})
ORDER = json.dumps({"order": "A123", "items": 3, "total_eur": 45, "shipping_eur": 5})
FLUG = json.dumps({"flug": "SK4705", "abflug": "07:10", "ankunft": "09:05", "freie_plätze": 4}, ensure_ascii=False)
VOL = json.dumps([{"vol": "AF1234", "départ": "07:10", "arrivée": "09:05", "escales": 0}], ensure_ascii=False)
