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

# (language, the context, a bound it makes true, a bound it does not give, that bound's number): a
# number written as a bound ("more than", "bis zu", "以上", "이상") in 30 languages and layouts.
BOUNDS = [
    ("en", "The venue holds more than 450 people.", "The venue holds more than 400 people.",
     "The venue holds more than 600 people.", "600"),
    ("en, after", "The battery lasts 12 hours or more.", "The battery lasts 10 hours or more.",
     "The battery lasts 15 hours or more.", "15"),
    ("en, at most", "Refunds take at most 14 days.", "Refunds take at most 30 days.",
     "Refunds take at most 7 days.", "7"),
    ("de", "Die Halle fasst mehr als 450 Personen.", "Die Halle fasst mehr als 400 Personen.",
     "Die Halle fasst mehr als 600 Personen.", "600"),
    ("de, bis zu", "Die Fahrt dauert bis zu 45 Minuten.", "Die Fahrt dauert bis zu 50 Minuten.",
     "Die Fahrt dauert bis zu 30 Minuten.", "30"),
    ("fr", "La salle accueille plus de 450 personnes.", "La salle accueille plus de 400 personnes.",
     "La salle accueille plus de 600 personnes.", "600"),
    ("es", "La sala tiene capacidad para más de 450 personas.", "La sala tiene capacidad para más de 400 personas.",
     "La sala tiene capacidad para más de 600 personas.", "600"),
    ("it", "L'azienda ha oltre 450 dipendenti.", "L'azienda ha oltre 400 dipendenti.",
     "L'azienda ha oltre 600 dipendenti.", "600"),
    ("pt", "A empresa tem mais de 450 funcionários.", "A empresa tem mais de 400 funcionários.",
     "A empresa tem mais de 600 funcionários.", "600"),
    ("nl", "Het bedrijf heeft meer dan 450 werknemers.", "Het bedrijf heeft meer dan 400 werknemers.",
     "Het bedrijf heeft meer dan 600 werknemers.", "600"),
    ("sv", "Företaget har över 450 anställda.", "Företaget har över 400 anställda.",
     "Företaget har över 600 anställda.", "600"),
    ("da", "Virksomheden har mere end 450 ansatte.", "Virksomheden har mere end 400 ansatte.",
     "Virksomheden har mere end 600 ansatte.", "600"),
    ("pl", "Firma zatrudnia ponad 450 osób.", "Firma zatrudnia ponad 400 osób.",
     "Firma zatrudnia ponad 600 osób.", "600"),
    ("ru", "Компания насчитывает более 450 сотрудников.", "Компания насчитывает более 400 сотрудников.",
     "Компания насчитывает более 600 сотрудников.", "600"),
    ("uk", "Компанія має понад 450 працівників.", "Компанія має понад 400 працівників.",
     "Компанія має понад 600 працівників.", "600"),
    ("cs", "Firma má více než 450 zaměstnanců.", "Firma má více než 400 zaměstnanců.",
     "Firma má více než 600 zaměstnanců.", "600"),
    ("tr", "Şirketin 450'den fazla çalışanı var.", "Şirketin 400'den fazla çalışanı var.",
     "Şirketin 600'den fazla çalışanı var.", "600"),
    ("fi", "Yrityksellä on yli 450 työntekijää.", "Yrityksellä on yli 400 työntekijää.",
     "Yrityksellä on yli 600 työntekijää.", "600"),
    ("hu", "A cégnek több mint 450 alkalmazottja van.", "A cégnek több mint 400 alkalmazottja van.",
     "A cégnek több mint 600 alkalmazottja van.", "600"),
    ("ro", "Compania are peste 450 de angajați.", "Compania are peste 400 de angajați.",
     "Compania are peste 600 de angajați.", "600"),
    ("el", "Η εταιρεία έχει περισσότερους από 450 υπαλλήλους.", "Η εταιρεία έχει περισσότερους από 400 υπαλλήλους.",
     "Η εταιρεία έχει περισσότερους από 600 υπαλλήλους.", "600"),
    ("id", "Perusahaan ini memiliki lebih dari 450 karyawan.", "Perusahaan ini memiliki lebih dari 400 karyawan.",
     "Perusahaan ini memiliki lebih dari 600 karyawan.", "600"),
    ("vi", "Công ty có hơn 450 nhân viên.", "Công ty có hơn 400 nhân viên.", "Công ty có hơn 600 nhân viên.", "600"),
    ("ar", "لدى الشركة أكثر من 450 موظفًا.", "لدى الشركة أكثر من 400 موظفًا.", "لدى الشركة أكثر من 600 موظفًا.", "600"),
    ("he", "בחברה יותר מ-450 עובדים.", "בחברה יותר מ-400 עובדים.", "בחברה יותר מ-600 עובדים.", "600"),
    ("hi", "कंपनी में 450 से अधिक कर्मचारी हैं।", "कंपनी में 400 से अधिक कर्मचारी हैं।",
     "कंपनी में 600 से अधिक कर्मचारी हैं।", "600"),
    ("zh", "公司有超过450名员工。", "公司有超过400名员工。", "公司有超过600名员工。", "600"),
    ("ja", "会社には450人以上の従業員がいます。", "会社には400人以上の従業員がいます。",
     "会社には600人以上の従業員がいます。", "600"),
    ("ko", "회사에는 450명 이상의 직원이 있습니다.", "회사에는 400명 이상의 직원이 있습니다.",
     "회사에는 600명 이상의 직원이 있습니다.", "600"),
    ("th", "บริษัทมีพนักงานมากกว่า 450 คน", "บริษัทมีพนักงานมากกว่า 400 คน", "บริษัทมีพนักงานมากกว่า 600 คน", "600"),
]
