"""Generate benchmarks/data/realistic.jsonl: a hand-written validation set for the claim verifier.

Every context, question and answer below was written by hand for kg-guardrail (original text, no
copied dataset text; Apache-2.0 like the project). Each context has four answers:

* paraphrase             (label 0) faithful, reworded like a chat LLM would write it
* extractive             (label 0) faithful, mostly reusing the context's wording
* single_fact_error      (label 1) reworded, exactly one wrong fact (error_type says which kind)
* unsupported_addition   (label 1) reworded, faithful, plus one claim the context does not support

Errors are given as the substring ``error_text``; the character span is computed with
``answer.index(error_text)`` and the script asserts the substring occurs exactly once.

Run from the repository root:  python3 benchmarks/data/make_realistic.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

OUT = Path(__file__).with_name("realistic.jsonl")

DOMAINS = [
    "encyclopedic", "news", "technical_docs", "hr_policy", "product_manual",
    "medical_leaflet", "contract", "financial_report", "sports", "science",
]
STYLES = ["paraphrase", "extractive", "single_fact_error", "unsupported_addition"]
ERROR_TYPES = {"number", "date", "entity", "negation", "role_swap", "unit_scope"}

# Each item: domain, question, context, paraphrase, extractive,
#   error=(answer, error_text, error_type), addition=(answer, added_text)
ITEMS: list[dict] = []


def item(domain, question, context, paraphrase, extractive, error, addition):
    ITEMS.append(dict(domain=domain, question=question, context=context, paraphrase=paraphrase,
                      extractive=extractive, error=error, addition=addition))


# --------------------------------------------------------------------------- encyclopedic
item(
    "encyclopedic",
    "How long is the Halden Viaduct and how many arches does it have?",
    "The Halden Viaduct is a stone railway bridge crossing the Orla River near the town of Mirsk in "
    "southern Poland. Construction began in 1871 under the engineer Tomasz Wierzbicki and was completed "
    "in 1874. The viaduct is 312 metres long and rests on 14 arches, the tallest of which rises 38 metres "
    "above the riverbed. It originally carried a single track of the Wrocław–Jelenia line, but a second "
    "track was added in 1926. During the flood of 1997 two piers were damaged, and the bridge was closed "
    "to traffic for eight months while repairs were carried out. Since 2009 it has been listed as a "
    "protected monument, and freight trains crossing it are limited to 40 km/h.",
    "The bridge spans 312 metres and is supported by fourteen arches, the highest of them reaching 38 "
    "metres above the bed of the river.",
    "The Halden Viaduct is 312 metres long and rests on 14 arches, the tallest of which rises 38 metres "
    "above the riverbed.",
    ("The bridge spans 312 metres and is supported by eighteen arches, the highest of them reaching 38 "
     "metres above the bed of the river.", "eighteen", "number"),
    ("The bridge spans 312 metres and is supported by fourteen arches, which were built from granite "
     "quarried nearby; the highest of them reaches 38 metres above the bed of the river.",
     "which were built from granite quarried nearby"),
)
item(
    "encyclopedic",
    "Who was Margarethe Solberg and what is she known for?",
    "Margarethe Solberg (1889–1962) was a Norwegian botanist known for her work on Arctic lichens. Born "
    "in Tromsø, she studied at the University of Oslo, where in 1915 she became the first woman to earn a "
    "doctorate in botany. Between 1920 and 1934 she led six expeditions to Svalbard, collecting more than "
    "4,000 specimens that are now held by the Natural History Museum in Oslo. Her 1938 monograph, Lichens "
    "of the High North, described 112 species, 27 of them new to science. She married the geologist "
    "Anders Holm in 1923 but kept her own surname in publications. Solberg taught at the university until "
    "her retirement in 1954, and a research station on Spitsbergen was named after her in 1971.",
    "Solberg, who lived from 1889 to 1962, was a botanist from Norway whose research centred on Arctic lichens. In 1915 she "
    "obtained a doctorate in botany from the University of Oslo — no woman had done so before her.",
    "Margarethe Solberg (1889–1962) was a Norwegian botanist known for her work on Arctic lichens. She "
    "studied at the University of Oslo, where in 1915 she became the first woman to earn a doctorate in "
    "botany.",
    ("Solberg, who lived from 1889 to 1962, was a botanist from Norway whose research centred on Arctic lichens. In 1925 she "
     "obtained a doctorate in botany from the University of Oslo — no woman had done so before her.",
     "1925", "date"),
    ("Solberg, who lived from 1889 to 1962, was a botanist from Norway whose research centred on Arctic lichens, a field she "
     "took up after reading Darwin as a teenager. In 1915 she obtained a doctorate in botany from the "
     "University of Oslo — no woman had done so before her.",
     "a field she took up after reading Darwin as a teenager"),
)
item(
    "encyclopedic",
    "When was Port Ellery founded, and by whom?",
    "Port Ellery is a town on the northern coast of Tasmania, Australia, with a population of 8,420 at "
    "the 2021 census. It was founded in 1834 as a whaling station by the Hobart merchant James Calder. The "
    "town lies at the mouth of the Tamsin River and is connected to Launceston, 62 kilometres to the east, "
    "by the Bass Highway. Its economy today depends mainly on dairy farming, tourism and a small fishing "
    "fleet. Port Ellery's lighthouse, built in 1889, is still operational and is managed by the "
    "Australian Maritime Safety Authority. The town hosts an annual wooden boat festival every February, "
    "which attracted around 15,000 visitors in 2023.",
    "The town was established in 1834 by James Calder, a merchant from Hobart, who set it up as a base "
    "for whaling.",
    "Port Ellery was founded in 1834 as a whaling station by the Hobart merchant James Calder.",
    ("The town was established in 1834 by James Calder, a merchant from Launceston, who set it up as a "
     "base for whaling.", "Launceston", "entity"),
    ("The town was established in 1834 by James Calder, a merchant from Hobart, who set it up as a base "
     "for whaling. Calder later served as the town's first mayor.",
     "Calder later served as the town's first mayor."),
)
item(
    "encyclopedic",
    "Does the Ashcombe dormouse hibernate, and for how long?",
    "The Ashcombe dormouse is a small rodent found only in the broadleaf forests of the Carpathian "
    "foothills in western Ukraine and north-eastern Romania. Adults weigh between 18 and 26 grams and have "
    "a body length of about 8 centimetres, with a tail of similar length. The species is nocturnal and "
    "spends up to seven months a year in hibernation, usually from October to April. Its diet consists "
    "mainly of hazelnuts, beech mast and insects. Females give birth to a single litter of three to five "
    "young each summer. The dormouse was first described in 1958 by the Romanian zoologist Elena "
    "Vasilescu. It is classified as Vulnerable on the IUCN Red List because of logging and habitat "
    "fragmentation.",
    "Yes. It can remain in hibernation for as much as seven months each year, generally between October "
    "and April.",
    "Yes. The species spends up to seven months a year in hibernation, usually from October to April.",
    ("Yes. It can remain in hibernation for as much as seven weeks each year, generally between October "
     "and April.", "weeks", "unit_scope"),
    ("Yes. Before hibernating it builds up fat reserves, nearly doubling its body weight. It can remain in "
     "hibernation for as much as seven months each year, generally between October and April.",
     "Before hibernating it builds up fat reserves, nearly doubling its body weight."),
)
item(
    "encyclopedic",
    "Who founded the Aldwych Institute of Music and when?",
    "The Aldwych Institute of Music is a conservatoire in Manchester, England, established in 1893 by the "
    "cellist Frederick Ames and the industrialist Henry Pell. It moved to its current building on Oxford "
    "Road in 1961. The institute has about 900 students, two-thirds of whom are undergraduates, and offers "
    "degrees validated by the University of Manchester. Its library holds more than 120,000 scores, "
    "including the manuscript collection of the composer Ruth Gale, donated by her family in 1988. The "
    "concert hall, opened in 1999, seats 640 people. Notable alumni include the conductor Sarah Ndiaye and "
    "the pianist Owen Marsh.",
    "It was set up in 1893 by two people: Frederick Ames, a cellist, and Henry Pell, an industrialist.",
    "The Aldwych Institute of Music was established in 1893 by the cellist Frederick Ames and the "
    "industrialist Henry Pell.",
    ("It was set up in 1893 by two people: Frederick Ames, an industrialist, and Henry Pell, a cellist.",
     "Frederick Ames, an industrialist, and Henry Pell, a cellist", "role_swap"),
    ("It was set up in 1893 — originally as an evening school for working musicians — by two people: "
     "Frederick Ames, a cellist, and Henry Pell, an industrialist.",
     "originally as an evening school for working musicians"),
)
item(
    "encyclopedic",
    "Can I take a petrol-engine boat onto Lake Vessin?",
    "Lake Vessin is a freshwater lake in the canton of Valais, Switzerland, lying at an altitude of 1,914 "
    "metres. It covers 2.3 square kilometres and reaches a maximum depth of 47 metres. The lake is fed "
    "mainly by meltwater from the Vessin Glacier, which has retreated by roughly 900 metres since 1950. A "
    "dam built at its northern end in 1958 raised the water level by 11 metres and supplies a "
    "hydroelectric plant in the valley below. The lake is usually frozen from December to May. Swimming is "
    "permitted in July and August, but boats with combustion engines have been banned since 1992.",
    "No. Boats powered by combustion engines have not been allowed on the lake since 1992.",
    "No. Boats with combustion engines have been banned on Lake Vessin since 1992.",
    ("No. Boats powered by combustion engines have not been allowed on the lake since 1982.",
     "1982", "date"),
    ("No. Boats powered by combustion engines have not been allowed on the lake since 1992, though "
     "electric boats can be rented on the southern shore.",
     "though electric boats can be rented on the southern shore"),
)
item(
    "encyclopedic",
    "Who designed the Tessaro Model 4 and what was new about it?",
    "The Tessaro Model 4 was a portable typewriter manufactured by the Italian company Tessaro & Figli in "
    "Turin from 1932 to 1958. It weighed 4.1 kilograms and was sold in a leather-covered wooden case. About "
    "310,000 units were produced, most of them exported to France, Spain and Argentina. The machine was "
    "designed by the engineer Carla Menotti, who became the company's technical director in 1946. Its "
    "main innovation was a segment shift mechanism that moved the type basket rather than the carriage, "
    "reducing the force needed to type capitals. Production ended when the factory switched to electric "
    "models, and the company was acquired by the Milan firm Ditta Ravelli in 1964.",
    "Its designer was the engineer Carla Menotti. The key novelty was a shift mechanism that shifted the "
    "type basket instead of the carriage, so typing capital letters took less force.",
    "The Tessaro Model 4 was designed by the engineer Carla Menotti. Its main innovation was a segment "
    "shift mechanism that moved the type basket rather than the carriage, reducing the force needed to "
    "type capitals.",
    ("Its designer was the engineer Carla Menotti. The key novelty was a shift mechanism that shifted the "
     "carriage instead of the type basket, so typing capital letters took less force.",
     "carriage instead of the type basket", "role_swap"),
    ("Its designer was the engineer Carla Menotti, who had previously worked on aircraft instruments. The "
     "key novelty was a shift mechanism that shifted the type basket instead of the carriage, so typing "
     "capital letters took less force.",
     "who had previously worked on aircraft instruments"),
)

# --------------------------------------------------------------------------- news
item(
    "news",
    "What did the council decide about the cycle lanes?",
    "The city council of Eastbourne Falls voted 9 to 4 on Tuesday evening to approve a £3.2 million "
    "network of protected cycle lanes along four of the town's main roads. Construction will begin in "
    "April and is expected to take 18 months, with Harbour Road and Station Street completed first. "
    "Councillor Priya Mehta, who chairs the transport committee, said the plan would 'make cycling a "
    "realistic option for families'. Opponents, led by Councillor Dan Hughes, argued that the removal of "
    "210 on-street parking spaces would hurt local shops. About 60% of the cost will be covered by a grant "
    "from the regional transport authority, with the rest coming from the council's capital budget.",
    "By a margin of nine votes to four, councillors backed a £3.2 million plan for protected bike lanes on "
    "four main roads in the town. Work is due to start in April and should last a year and a half.",
    "The city council of Eastbourne Falls voted 9 to 4 to approve a £3.2 million network of protected "
    "cycle lanes along four of the town's main roads. Construction will begin in April and is expected to "
    "take 18 months.",
    ("By a margin of nine votes to four, councillors backed a £2.3 million plan for protected bike lanes on "
     "four main roads in the town. Work is due to start in April and should last a year and a half.",
     "£2.3 million", "number"),
    ("By a margin of nine votes to four, councillors backed a £3.2 million plan for protected bike lanes on "
     "four main roads in the town, the first such scheme in the county. Work is due to start in April and "
     "should last a year and a half.",
     "the first such scheme in the county"),
)
item(
    "news",
    "Who is buying whom in the Nordvik–Krøll deal, and for how much?",
    "Nordvik Foods, the Oslo-based maker of frozen seafood, has agreed to buy the Danish snack producer "
    "Krøll for 1.4 billion Norwegian kroner, the companies announced on Monday. The deal, which still "
    "requires approval from competition authorities in both countries, is expected to close in the third "
    "quarter. Krøll, founded in 1987 in Aarhus, employs about 450 people and had revenue of 890 million "
    "Danish kroner last year. Nordvik's chief executive, Ingrid Lunde, said the acquisition would give the "
    "company a foothold in the growing market for healthy snacks. Krøll's founder, Per Madsen, will stay "
    "on as head of the snack division for at least two years. Nordvik shares rose 3.1% in Oslo trading "
    "after the announcement.",
    "Nordvik Foods is acquiring Krøll, the Danish snack maker, in a transaction valued at NOK 1.4 billion.",
    "Nordvik Foods, the Oslo-based maker of frozen seafood, has agreed to buy the Danish snack producer "
    "Krøll for 1.4 billion Norwegian kroner.",
    ("Krøll, the Danish snack maker, is acquiring Nordvik Foods in a transaction valued at NOK 1.4 billion.",
     "Krøll, the Danish snack maker, is acquiring Nordvik Foods", "role_swap"),
    ("Nordvik Foods is acquiring Krøll, the Danish snack maker, in a transaction valued at NOK 1.4 billion, "
     "to be paid entirely in cash.",
     "to be paid entirely in cash"),
)
item(
    "news",
    "Were there any injuries in the Calloway flooding?",
    "More than 1,200 residents of the riverside town of Calloway were evacuated on Saturday after the "
    "Brenna River rose 2.8 metres above its normal level within 24 hours. The county emergency office said "
    "no injuries had been reported, but about 340 homes were without power on Sunday morning. Two "
    "temporary shelters were opened, one at Calloway High School and one at the Westgate community "
    "centre. The National Weather Service recorded 163 millimetres of rain at the nearby Linford gauge "
    "between Friday night and Saturday afternoon. Officials expect the river to fall below flood stage by "
    "Wednesday, but warned residents not to return home until inspectors have checked gas lines.",
    "According to the county emergency office, no one had been reported injured, although some 340 homes had "
    "no electricity on Sunday morning.",
    "No. The county emergency office said no injuries had been reported, but about 340 homes were without "
    "power on Sunday morning.",
    ("According to the county emergency office, several people had been reported injured, and some 340 homes had "
     "no electricity on Sunday morning.", "several people had been reported injured", "negation"),
    ("Thanks to the early evacuation order, no one had been reported injured, according to the county "
     "emergency office, although some 340 homes had no electricity on Sunday morning.",
     "Thanks to the early evacuation order,"),
)
item(
    "news",
    "How much will a monthly pass cost after the change?",
    "Starting 1 July, single tickets on Lisbridge's metro and tram network will cost €2.10, up from €1.80, "
    "the city's transport authority announced on Thursday. Monthly passes will rise from €40 to €44, while "
    "passes for students and residents over 65 will remain at €20. The authority said the increase was "
    "needed to cover higher electricity costs, which rose 37% over the past two years. It is the first "
    "fare rise since 2016. Transport director Helena Rocha said the extra revenue, estimated at €26 million "
    "a year, would also fund 12 new trams due to enter service in 2026. Passenger groups criticised the "
    "decision, pointing out that punctuality fell to 88% last year.",
    "A monthly pass will go up by €4, to €44, while students and residents aged over 65 will keep paying "
    "€20.",
    "Monthly passes will rise from €40 to €44, while passes for students and residents over 65 will remain "
    "at €20.",
    ("A monthly pass will go up by €4, to €44, while only students will keep paying €20.",
     "only students", "unit_scope"),
    ("A monthly pass will go up by €4, to €44, while students and residents aged over 65 will keep paying "
     "€20. Single tickets bought through the mobile app will get a 10% discount.",
     "Single tickets bought through the mobile app will get a 10% discount."),
)
item(
    "news",
    "Who will replace Richard Tan as vice-chancellor, and when does she start?",
    "The board of Halvard University named Professor Amara Okafor as its next vice-chancellor on Friday, "
    "making her the first woman to lead the 140-year-old institution. Okafor, 54, is currently dean of "
    "engineering at the university, where she has worked since 2005. She will succeed Richard Tan, who "
    "announced in February that he would step down after ten years in the post. Okafor takes office on 1 "
    "September. The selection committee interviewed five candidates, two of them from outside the UK. In "
    "a statement, Okafor said her priorities would be reducing student housing costs and expanding "
    "research partnerships with industry.",
    "Amara Okafor, the university's 54-year-old dean of engineering, has been chosen as the new "
    "vice-chancellor and will begin in the role on 1 September.",
    "The board of Halvard University named Professor Amara Okafor as its next vice-chancellor. She will "
    "succeed Richard Tan and takes office on 1 September.",
    ("Amara Okafor, the university's 54-year-old dean of engineering, has been chosen as the new "
     "vice-chancellor and will begin in the role on 1 October.", "1 October", "date"),
    ("Amara Okafor, the university's 54-year-old dean of engineering, has been chosen as the new "
     "vice-chancellor and will begin in the role on 1 September, on a five-year contract.",
     "on a five-year contract"),
)
item(
    "news",
    "Do owners of affected Valtor cars need to go to a dealer?",
    "The carmaker Valtor is recalling 48,300 electric SUVs sold in Europe between March 2022 and June 2023 "
    "because of a software fault that can cause the rear-view camera image to freeze. The recall affects "
    "the Valtor E5 and E7 models and was announced on Wednesday after the company received 112 customer "
    "complaints. No accidents linked to the fault have been reported. Owners do not need to visit a "
    "dealer: the fix will be installed through an over-the-air update starting next week, and the company "
    "expects all vehicles to be updated by the end of October. Germany accounts for the largest share of "
    "affected cars, about 15,000.",
    "No, a trip to the dealership isn't necessary. The correction will be delivered remotely as an "
    "over-the-air software update beginning next week.",
    "No. Owners do not need to visit a dealer: the fix will be installed through an over-the-air update "
    "starting next week.",
    ("No, a trip to the dealership isn't necessary. The correction will be delivered remotely as an "
     "over-the-air software update beginning next month.", "next month", "date"),
    ("No, a trip to the dealership isn't necessary. The correction will be delivered remotely as an "
     "over-the-air software update beginning next week, and installing it takes about 20 minutes.",
     "and installing it takes about 20 minutes"),
)
item(
    "news",
    "Are there any free screenings at the Rijnhaven Film Festival this year?",
    "The Rijnhaven Film Festival announced on Monday that its 2024 edition will run from 6 to 15 September "
    "and screen 142 films from 38 countries. The opening film will be The Salt Road, a drama by Moroccan "
    "director Yasmin Berrada, which won an audience award in Toronto earlier this year. Festival director "
    "Joost van Dam said ticket prices would stay at €11 per screening, and for the first time, all "
    "screenings on weekday afternoons will be free for visitors under 18. The festival attracted 96,000 "
    "visitors last year. Screenings will take place in six venues across the city, including the newly "
    "renovated Lumière cinema, which reopens after a two-year refurbishment.",
    "Yes — visitors younger than 18 can attend every weekday afternoon screening at no cost, something the "
    "festival is offering for the first time.",
    "Yes. For the first time, all screenings on weekday afternoons will be free for visitors under 18.",
    ("Yes — visitors younger than 18 can attend every weekend afternoon screening at no cost, something the "
     "festival is offering for the first time.", "weekend", "unit_scope"),
    ("Yes — visitors younger than 18 can attend every weekday afternoon screening at no cost, something the "
     "festival is offering for the first time. Free tickets have to be reserved online in advance.",
     "Free tickets have to be reserved online in advance."),
)

# --------------------------------------------------------------------------- technical_docs
item(
    "technical_docs",
    "What happens when I exceed the rate limit on the Parcelion API?",
    "The Parcelion REST API enforces rate limits per API key. Free-tier keys may make up to 60 requests "
    "per minute and 10,000 requests per day; paid-tier keys may make up to 600 requests per minute with no "
    "daily cap. When a limit is exceeded, the API returns HTTP status 429 and includes a Retry-After header "
    "giving the number of seconds to wait. Requests to the /v2/batch endpoint count as one request "
    "regardless of how many operations they contain, but a single batch may include at most 100 "
    "operations. Limits are counted in a sliding window. Rate-limit usage can be inspected through the "
    "X-RateLimit-Remaining and X-RateLimit-Reset response headers.",
    "The server will respond with a 429 status code. That response carries a Retry-After header telling "
    "you how many seconds to hold off.",
    "When a limit is exceeded, the API returns HTTP status 429 and includes a Retry-After header giving the "
    "number of seconds to wait.",
    ("The server will respond with a 503 status code. That response carries a Retry-After header telling "
     "you how many seconds to hold off.", "503", "number"),
    ("The server will respond with a 429 status code, and repeated violations within an hour can get the "
     "key temporarily suspended. That response carries a Retry-After header telling you how many seconds "
     "to hold off.",
     "and repeated violations within an hour can get the key temporarily suspended"),
)
item(
    "technical_docs",
    "How do cache.ttl in fennel.toml and FENNEL_CACHE_TTL interact, and do changes need a restart?",
    "The cache.ttl setting controls how long, in seconds, Fennel keeps a compiled template in memory. The "
    "default is 300. Setting it to 0 disables caching entirely, which is recommended only for development. "
    "Negative values are rejected at startup with a configuration error. The cache.max_entries setting "
    "limits the number of templates held at once; when the limit is reached, the least recently used "
    "template is evicted. Its default is 1,000 and the maximum allowed value is 50,000. Both settings can "
    "be overridden with the environment variables FENNEL_CACHE_TTL and FENNEL_CACHE_MAX_ENTRIES, which "
    "take precedence over values in fennel.toml. Changes to either setting require a restart; they are "
    "not picked up by hot reload.",
    "FENNEL_CACHE_TTL takes priority over the cache.ttl value in fennel.toml. Keep in mind that a new "
    "value only takes effect after a restart, because hot reload ignores this setting.",
    "The environment variable FENNEL_CACHE_TTL takes precedence over values in fennel.toml. Changes to the "
    "setting require a restart; they are not picked up by hot reload.",
    ("The cache.ttl value in fennel.toml takes priority over FENNEL_CACHE_TTL. Keep in mind that a new "
     "value only takes effect after a restart, because hot reload ignores this setting.",
     "The cache.ttl value in fennel.toml takes priority over FENNEL_CACHE_TTL", "role_swap"),
    ("FENNEL_CACHE_TTL takes priority over the cache.ttl value in fennel.toml. Keep in mind that a new "
     "value only takes effect after a restart, because hot reload ignores this setting. You can check the "
     "active value with the fennel config show command.",
     "You can check the active value with the fennel config show command."),
)
item(
    "technical_docs",
    "Can I use Orbit CLI 3.2 with Python 3.13?",
    "Orbit CLI 3.2 runs on Linux (x86_64 and arm64), macOS 12 or later, and Windows 10 or later. It "
    "requires Python 3.9–3.12; Python 3.13 is not yet supported. Install it with pip install orbit-cli. On "
    "first run, Orbit creates a configuration directory at ~/.orbit and asks for an access token, which "
    "can be generated in the web console under Settings → Tokens. Tokens expire after 90 days. The CLI "
    "needs outbound HTTPS access to api.orbit.dev on port 443; if you are behind a proxy, set the "
    "HTTPS_PROXY environment variable. Approximately 45 MB of disk space is needed, plus space for cached "
    "build artefacts, which can be cleared with orbit cache clean.",
    "No. Version 3.2 works with Python versions 3.9 through 3.12, and support for 3.13 has not been added "
    "yet.",
    "No. Orbit CLI 3.2 requires Python 3.9–3.12; Python 3.13 is not yet supported.",
    ("No. Version 3.2 works with Python versions 3.8 through 3.12, and support for 3.13 has not been added "
     "yet.", "3.8", "number"),
    ("No. Version 3.2 works with Python versions 3.9 through 3.12, and support for 3.13 has not been added "
     "yet; it is planned for version 3.4.",
     "it is planned for version 3.4"),
)
item(
    "technical_docs",
    "How long are automatic snapshots kept?",
    "Stratadb creates automatic snapshots of every production cluster once every 6 hours. Snapshots are "
    "retained for 7 days on the Standard plan and 35 days on the Enterprise plan. Point-in-time recovery "
    "is available only on the Enterprise plan and lets you restore to any second within the retention "
    "window. Restores always create a new cluster; the original cluster is never overwritten. A restore of "
    "a 100 GB database typically completes in about 20 minutes. Manual snapshots can be taken at any time "
    "from the dashboard or with the strata snapshot create command; they are kept until you delete them "
    "and count toward your storage quota.",
    "It depends on your plan: a week on Standard and 35 days on Enterprise.",
    "Snapshots are retained for 7 days on the Standard plan and 35 days on the Enterprise plan.",
    ("It depends on your plan: a week on Enterprise and 35 days on Standard.",
     "a week on Enterprise and 35 days on Standard", "role_swap"),
    ("It depends on your plan: a week on Standard and 35 days on Enterprise. Standard customers can "
     "extend this to 14 days for an extra fee.",
     "Standard customers can extend this to 14 days for an extra fee."),
)
item(
    "technical_docs",
    "What does parse_duration return for a string with no unit, like '90'?",
    "parse_duration(text, default_unit='s') converts a human-readable duration string into a number of "
    "seconds, returned as a float. It accepts the units ms, s, m, h and d, and compound values such as "
    "'1h30m'. If the string contains a bare number without a unit, default_unit is applied. Whitespace "
    "between components is ignored. The function raises ValueError for empty strings, unknown units, or "
    "negative values. Values larger than 365 days raise OverflowError unless allow_large=True is passed. "
    "The function has been available since version 2.4; in versions before 3.0 it returned an integer, "
    "truncating fractions of a second.",
    "When the string is just a number with no unit, the function falls back to default_unit, whose "
    "default value is seconds. The result comes back as a float.",
    "If the string contains a bare number without a unit, default_unit is applied; default_unit is 's' "
    "unless you pass another value. The result is returned as a float.",
    ("When the string is just a number with no unit, the function falls back to default_unit, whose "
     "default value is minutes. The result comes back as a float.", "minutes", "unit_scope"),
    ("When the string is just a number with no unit, the function falls back to default_unit, whose "
     "default value is seconds. The result comes back as a float, rounded to three decimal places.",
     "rounded to three decimal places"),
)
item(
    "technical_docs",
    "Summarize how scaling up and down is timed.",
    "To enable autoscaling for a Quill service, add an autoscale block to quill.yaml. The min_replicas "
    "field defaults to 1 and max_replicas defaults to 10; max_replicas cannot exceed 50 on shared "
    "clusters. Scaling decisions are based on average CPU utilisation, with a default target of 70%. A "
    "scale-up happens at most once every 60 seconds, and a scale-down is delayed until utilisation has "
    "stayed below the target for 5 minutes, to avoid flapping. Autoscaling is not available for services "
    "that mount a persistent volume in ReadWriteOnce mode. After editing the file, apply the change with "
    "quill deploy; the running service is not restarted.",
    "Scale-ups are limited to one per minute. Scaling down waits until CPU utilisation has remained under "
    "the target for five minutes, a delay intended to prevent flapping.",
    "A scale-up happens at most once every 60 seconds, and a scale-down is delayed until utilisation has "
    "stayed below the target for 5 minutes, to avoid flapping.",
    ("Scale-ups are limited to one per minute. Scaling down waits until CPU utilisation has remained under "
     "the target for fifteen minutes, a delay intended to prevent flapping.", "fifteen", "number"),
    ("Scale-ups are limited to one per minute, and each one adds at most two replicas. Scaling down waits "
     "until CPU utilisation has remained under the target for five minutes, a delay intended to "
     "prevent flapping.",
     "and each one adds at most two replicas"),
)
item(
    "technical_docs",
    "What happens if I forget my Ledgerly master password?",
    "Version 5 of the Ledgerly desktop app stores all local data in an encrypted SQLite database using "
    "AES-256. The encryption key is derived from the user's master password with Argon2id and is never "
    "written to disk. If the master password is lost, the data cannot be recovered; Ledgerly support has "
    "no access to it. Optional cloud sync uploads only the encrypted database, so the sync server never "
    "sees plaintext. The app locks itself after 15 minutes of inactivity by default; this can be changed "
    "to between 1 and 120 minutes in Preferences → Security. Biometric unlock is supported on macOS and "
    "Windows but not on Linux.",
    "Unfortunately your data would be unrecoverable. The encryption key comes from the master password "
    "and is never saved to disk, and Ledgerly's support team cannot access your data either.",
    "If the master password is lost, the data cannot be recovered; Ledgerly support has no access to it. "
    "The encryption key is derived from the master password and is never written to disk.",
    ("Unfortunately your data would be unrecoverable. The encryption key comes from the master password "
     "and is kept on disk, and Ledgerly's support team cannot access your data either.",
     "is kept on disk", "negation"),
    ("Unfortunately your data would be unrecoverable. The encryption key comes from the master password "
     "and is never saved to disk, and Ledgerly's support team cannot access your data either. For this "
     "reason, the app asks you to set up a password hint during installation.",
     "For this reason, the app asks you to set up a password hint during installation."),
)

# --------------------------------------------------------------------------- hr_policy
item(
    "hr_policy",
    "Summarize Birchwood's parental leave policy.",
    "Birchwood Logistics offers 16 weeks of fully paid parental leave to the primary caregiver of a "
    "newborn or newly adopted child, and 6 weeks of fully paid leave to the secondary caregiver. To be "
    "eligible, employees must have completed 6 months of continuous service by the expected date of birth "
    "or placement. Leave must be taken within 12 months of the birth or adoption and may be split into at "
    "most two blocks. Employees must notify HR in writing at least 8 weeks before the leave starts. During "
    "leave, pension contributions and health insurance continue as normal. Employees returning from "
    "primary-caregiver leave may work 80% of their normal hours at full pay for the first four weeks back.",
    "Primary caregivers receive sixteen weeks' leave on full pay, and secondary caregivers receive six. "
    "You qualify once you have half a year of unbroken service, and the leave has to be used within a "
    "year of the child's arrival, in no more than two parts. HR needs written notice no less than eight "
    "weeks ahead.",
    "Birchwood Logistics offers 16 weeks of fully paid parental leave to the primary caregiver and 6 weeks "
    "of fully paid leave to the secondary caregiver. Employees must have completed 6 months of continuous "
    "service, and leave must be taken within 12 months of the birth or adoption.",
    ("Primary caregivers receive sixteen weeks' leave on full pay, and secondary caregivers receive six. "
     "You qualify once you have six weeks of unbroken service, and the leave has to be used within a year "
     "of the child's arrival, in no more than two parts. HR needs written notice no less than eight weeks "
     "ahead.", "six weeks", "unit_scope"),
    ("Primary caregivers receive sixteen weeks' leave on full pay, and secondary caregivers receive six. "
     "The policy also applies to children born through surrogacy. You qualify once you have half a year "
     "of unbroken service, and the leave has to be used within a year of the child's arrival, in no more "
     "than two parts. HR needs written notice no less than eight weeks ahead.",
     "The policy also applies to children born through surrogacy."),
)
item(
    "hr_policy",
    "Can I work from abroad under the Calder & Pryce policy?",
    "Under the hybrid working policy of Calder & Pryce, employees may work remotely for up to three days "
    "per week, provided their manager approves a written remote-work agreement. Tuesdays are designated "
    "team days, when all staff are expected in the office unless on leave. Remote work from outside the "
    "United Kingdom is limited to 20 working days per calendar year and requires prior approval from both "
    "the manager and the People team, because of tax and insurance implications. The company reimburses "
    "up to £300 once for home-office equipment, on submission of receipts. Employees in their "
    "probationary period (the first three months) must work from the office full time.",
    "Yes, but for no more than 20 working days in each calendar year, and you need approval beforehand "
    "from your manager as well as from the People team.",
    "Yes. Remote work from outside the United Kingdom is limited to 20 working days per calendar year and "
    "requires prior approval from both the manager and the People team.",
    ("Yes, but for no more than 20 working days in each calendar month, and you need approval beforehand "
     "from your manager as well as from the People team.", "month", "unit_scope"),
    ("Yes, as long as the destination is within Europe, but for no more than 20 working days in each "
     "calendar year, and you need approval beforehand from your manager as well as from the People team.",
     "as long as the destination is within Europe"),
)
item(
    "hr_policy",
    "What's the meal allowance when travelling outside the EU?",
    "Employees of Marlowe Analytics travelling on company business may claim meal expenses of up to €45 "
    "per day within the EU and €60 per day outside it. Alcohol is not reimbursable. Hotel bookings must be "
    "made through the company travel portal; rooms booked elsewhere are reimbursed only up to the portal's "
    "price for the same dates. Economy class is required for flights under six hours; premium economy may "
    "be booked for longer flights with approval from a director. Claims must be submitted in the expense "
    "system within 30 days of returning, with itemised receipts for any item over €25. Late claims are "
    "reviewed by Finance and may be rejected.",
    "For trips outside the European Union you can claim as much as €60 a day for meals. Alcoholic drinks "
    "can't be reimbursed.",
    "Employees may claim meal expenses of up to €60 per day outside the EU. Alcohol is not reimbursable.",
    ("For trips outside the European Union you can claim as much as €45 a day for meals. Alcoholic drinks "
     "can't be reimbursed.", "€45", "number"),
    ("For trips outside the European Union you can claim as much as €60 a day for meals, and tips of up "
     "to 10% are included in that. Alcoholic drinks can't be reimbursed.",
     "and tips of up to 10% are included in that"),
)
item(
    "hr_policy",
    "How many unused leave days can I carry over, and until when must I use them?",
    "Full-time employees at Sandhurst Bank receive 28 days of annual leave per year, including public "
    "holidays; part-time employees receive a pro-rata amount. Up to 5 unused days may be carried over "
    "into the next leave year, which runs from 1 April to 31 March, but carried-over days must be used by "
    "30 June or they are lost. Employees with more than five years of service receive one additional day "
    "per year of service beyond five, up to a maximum of 33 days. Requests for leave of more than ten "
    "consecutive working days need approval at least one month in advance. Leave cannot be taken during "
    "the last two weeks of March for staff in the finance department.",
    "You may transfer a maximum of five days into the following leave year. Those days expire if you "
    "haven't taken them by the end of June.",
    "Up to 5 unused days may be carried over into the next leave year, but carried-over days must be used "
    "by 30 June or they are lost.",
    ("You may transfer a maximum of five days into the following leave year. Those days expire if you "
     "haven't taken them by the end of September.", "September", "date"),
    ("You may transfer a maximum of five days into the following leave year; carrying over more requires "
     "approval from your line manager. Those days expire if you haven't taken them by the end of June.",
     "carrying over more requires approval from your line manager"),
)
item(
    "hr_policy",
    "When do I need a doctor's note for sick leave?",
    "Staff at Greyfield Council must report sickness absence to their line manager by telephone before "
    "9:30 a.m. on the first day of absence; email or text messages are not sufficient. For absences of up "
    "to seven calendar days, employees complete a self-certification form on their return. For absences "
    "longer than seven calendar days, a fit note from a doctor is required. Employees with at least one "
    "year of service receive full pay for the first 20 days of sickness in any rolling 12-month period and "
    "half pay for the next 20 days. Three or more separate absences within six months trigger an informal "
    "wellbeing meeting with the line manager.",
    "You need a doctor's fit note once you are off sick for more than seven calendar days. For shorter "
    "absences, a self-certification form filled in when you come back is enough.",
    "For absences longer than seven calendar days, a fit note from a doctor is required. For absences of "
    "up to seven calendar days, employees complete a self-certification form on their return.",
    ("You need a doctor's fit note once you are off sick for more than seven calendar days. For shorter "
     "absences, no paperwork at all is needed.", "no paperwork at all is needed", "negation"),
    ("You need a doctor's fit note once you are off sick for more than seven calendar days; the council "
     "reimburses any fee the doctor charges for it. For shorter absences, a self-certification form filled "
     "in when you come back is enough.",
     "the council reimburses any fee the doctor charges for it"),
)
item(
    "hr_policy",
    "Am I eligible for a bonus if I got a 4 in January and a 3 in July?",
    "Northpeak Software runs performance reviews twice a year, in January and July. Each review is "
    "conducted by the employee's direct manager and includes peer feedback from at least three colleagues "
    "chosen by the employee. Ratings range from 1 (below expectations) to 5 (exceptional). Employees rated "
    "4 or 5 in both reviews of a calendar year are eligible for an annual bonus of up to 15% of base "
    "salary, paid in March of the following year. Employees who joined after 1 October are not reviewed in "
    "the following January cycle. Employees who disagree with their rating may appeal to their skip-level "
    "manager within 14 days of receiving it.",
    "No. The annual bonus, worth as much as 15% of your base salary, requires a score of at least 4 in "
    "each of the year's two reviews, so a 3 in July would make you ineligible.",
    "No. Employees rated 4 or 5 in both reviews of a calendar year are eligible for an annual bonus of up "
    "to 15% of base salary.",
    ("No. The annual bonus, worth as much as 15% of your total salary, requires a score of at least 4 in "
     "each of the year's two reviews, so a 3 in July would make you ineligible.",
     "total salary", "unit_scope"),
    ("No. The annual bonus, worth as much as 15% of your base salary, requires a score of at least 4 in "
     "each of the year's two reviews, so a 3 in July would make you ineligible. You could, however, still "
     "receive a one-off recognition award.",
     "You could, however, still receive a one-off recognition award."),
)
item(
    "hr_policy",
    "Summarize the gift rules for Teller Group employees.",
    "Employees of Teller Group may accept gifts or hospitality from suppliers or customers only if the "
    "value is £50 or less. Anything worth more than £50 must be declined or, if refusing would cause "
    "offence, accepted and reported to the Compliance team within five working days, which will decide "
    "whether it is kept, donated to charity or returned. Cash and cash equivalents such as gift cards may "
    "never be accepted, whatever the amount. Employees involved in an active tender must not accept any "
    "gifts or hospitality from bidders in that tender. All hospitality above £20, including meals, must be "
    "recorded in the gifts register.",
    "Gifts and hospitality from customers or suppliers are acceptable only when worth £50 or less. "
    "Anything above that should be turned down or, where refusing would offend, accepted and reported to "
    "Compliance within five working days. Cash and cash equivalents like gift cards are never allowed, and "
    "staff taking part in an ongoing tender may accept nothing from that tender's bidders.",
    "Employees may accept gifts or hospitality from suppliers or customers only if the value is £50 or "
    "less. Anything worth more than £50 must be declined or, if refusing would cause offence, accepted and "
    "reported to the Compliance team within five working days. Cash and cash equivalents such as gift cards may never be accepted.",
    ("Gifts and hospitality from customers or suppliers are acceptable only when worth £50 or less. "
     "Anything above that should be turned down or, where refusing would offend, accepted and reported to "
     "their line manager within five working days. Cash and cash equivalents like gift cards are never "
     "allowed, and staff taking part in an ongoing tender may accept nothing from that tender's bidders.",
     "their line manager", "entity"),
    ("Gifts and hospitality from customers or suppliers are acceptable only when worth £50 or less. "
     "Anything above that should be turned down or, where refusing would offend, accepted and reported to "
     "Compliance within five working days. Cash and cash equivalents like gift cards are never allowed, and "
     "repeated breaches can lead to dismissal. Staff taking part in an ongoing tender may accept nothing "
     "from that tender's bidders.",
     "and repeated breaches can lead to dismissal"),
)

# --------------------------------------------------------------------------- product_manual
item(
    "product_manual",
    "How do I start the descaling cycle on the Brava 300?",
    "Descale the Brava 300 espresso machine every 2 months if you use hard water, or every 4 months with "
    "soft water. The descale warning light (orange drop symbol) turns on automatically after 400 brewing "
    "cycles. To descale, mix 100 ml of Brava descaling solution with 500 ml of water in the tank, place a "
    "container of at least 1 litre under the steam wand, and press and hold the Steam and 1-Cup buttons "
    "together for 3 seconds. The cycle takes about 25 minutes. Afterwards, rinse the tank and run two full "
    "tanks of clean water through the machine. Do not use vinegar, as it can damage the seals and voids "
    "the warranty.",
    "Fill the tank with 100 ml of Brava descaler and half a litre of water, put a container that holds at least "
    "a litre beneath the steam wand, then press the 1-Cup and Steam buttons simultaneously and keep them "
    "down for three seconds.",
    "Mix 100 ml of Brava descaling solution with 500 ml of water in the tank, place a container of at "
    "least 1 litre under the steam wand, and press and hold the Steam and 1-Cup buttons together for 3 "
    "seconds.",
    ("Fill the tank with 100 ml of Brava descaler and half a litre of water, put a container that holds at least "
     "a litre beneath the steam wand, then press the 1-Cup and Steam buttons simultaneously and keep them "
     "down for ten seconds.", "ten", "number"),
    ("Fill the tank with 100 ml of Brava descaler and half a litre of water, put a container that holds at least "
     "a litre beneath the steam wand, then press the 1-Cup and Steam buttons simultaneously and keep them "
     "down for three seconds. The orange drop light will flash for as long as the cycle runs.",
     "The orange drop light will flash for as long as the cycle runs."),
)
item(
    "product_manual",
    "What does the Tidy R7 do when its battery runs low?",
    "The Tidy R7 robot vacuum has a 5,200 mAh lithium-ion battery that provides up to 150 minutes of "
    "cleaning in Eco mode and about 90 minutes in Max mode. A full charge takes approximately 4 hours. When "
    "the battery falls below 15%, the robot returns to its dock automatically and resumes cleaning where it "
    "stopped once it has charged to 80%. The dock should be placed against a wall with at least 0.5 m of "
    "free space on each side and 1.5 m in front. Do not place the dock in direct sunlight. The battery is "
    "covered by a 12-month warranty, while the rest of the robot is covered for 24 months.",
    "Once the charge drops under 15%, the R7 heads back to its dock by itself. After recharging to 80%, it "
    "picks up cleaning from the point where it left off.",
    "When the battery falls below 15%, the robot returns to its dock automatically and resumes cleaning "
    "where it stopped once it has charged to 80%.",
    ("Once the charge drops under 15%, the R7 heads back to its dock by itself. After recharging to 80%, it "
     "does not pick up cleaning again unless you restart it.",
     "does not pick up cleaning again unless you restart it", "negation"),
    ("Once the charge drops under 15%, the R7 heads back to its dock by itself and sends a notification to "
     "the app. After recharging to 80%, it picks up cleaning from the point where it left off.",
     "and sends a notification to the app"),
)
item(
    "product_manual",
    "Can I use the Helio T2 with electric baseboard heaters?",
    "Before installing the Helio T2 thermostat, switch off power to your heating system at the circuit "
    "breaker. The T2 is compatible with 24 V low-voltage systems, including most gas furnaces, boilers and "
    "heat pumps; it is not compatible with 120 V or 240 V line-voltage systems such as electric baseboard "
    "heaters. A C-wire (common wire) is required for heat pump installations; for other systems, the "
    "included power adapter can be used if no C-wire is present. The thermostat connects to 2.4 GHz Wi-Fi "
    "networks only. Installation typically takes 30 minutes. Mount the unit at least 1.5 m above the "
    "floor, away from windows and heat sources.",
    "No. Baseboard electric heaters operate on line voltage (120 or 240 V), which the T2 cannot work with; "
    "the thermostat is designed for low-voltage (24 V) systems.",
    "No. The T2 is not compatible with 120 V or 240 V line-voltage systems such as electric baseboard "
    "heaters.",
    ("No. Baseboard electric heaters operate on line voltage (120 or 240 V), which the T2 cannot work with; "
     "the thermostat is designed for low-voltage (12 V) systems.", "12 V", "number"),
    ("No. Baseboard electric heaters operate on line voltage (120 or 240 V), which the T2 cannot work with "
     "— Helio sells a separate line-voltage model for those. The thermostat is designed for low-voltage "
     "(24 V) systems.",
     "Helio sells a separate line-voltage model for those"),
)
item(
    "product_manual",
    "What does error E21 mean on the Lumen WM8?",
    "If the display of your Lumen WM8 washing machine shows error E21, the machine could not drain the "
    "water within 10 minutes. Switch off the machine, unplug it, and check the drain filter behind the "
    "small flap at the bottom right of the front panel. Place a shallow tray and a towel underneath, "
    "because up to 2 litres of water may flow out. Remove any objects such as coins or buttons, clean the "
    "filter under running water and screw it back in firmly. Also check that the drain hose is not kinked. "
    "If E21 appears again after cleaning, contact Lumen service on 0800 555 0192. Error E13, by contrast, "
    "indicates that the door is not properly closed.",
    "E21 tells you the washer failed to pump out the water within ten minutes. You should turn it off, "
    "disconnect it from the socket and inspect the drain filter, which sits behind a small flap in the "
    "bottom right-hand corner of the machine's front.",
    "Error E21 means the machine could not drain the water within 10 minutes. Switch off the machine, "
    "unplug it, and check the drain filter behind the small flap at the bottom right of the front panel.",
    ("E21 tells you the washer failed to pump out the water within ten minutes. You should turn it off, "
     "disconnect it from the socket and inspect the drain filter, which sits behind a small flap in the "
     "bottom left-hand corner of the machine's front.", "left-hand", "entity"),
    ("E21 tells you the washer failed to pump out the water within ten minutes, most often because of a "
     "blocked filter. You should turn it off, disconnect it from the socket and inspect the drain filter, "
     "which sits behind a small flap in the bottom right-hand corner of the machine's front.",
     "most often because of a blocked filter"),
)
item(
    "product_manual",
    "How long does it take to charge the Volta City battery?",
    "The Volta City e-bike has a 250 W rear hub motor and a 504 Wh removable battery. Pedal assistance "
    "cuts out at 25 km/h, in line with EU regulations. Range is between 40 and 110 km depending on "
    "assistance level, rider weight and terrain. The battery can be charged on or off the bike; a full "
    "charge with the supplied 4 A charger takes about 5 hours. Store the battery at room temperature and "
    "charge it to between 40% and 60% if the bike will not be used for more than a month. The maximum "
    "total load, including rider and luggage, is 130 kg. The frame is guaranteed for 10 years and the "
    "electrical components for 2 years.",
    "With the 4 A charger that comes with the bike, charging it completely takes roughly five hours, and you can "
    "charge the battery either fitted to the bike or removed from it.",
    "A full charge with the supplied 4 A charger takes about 5 hours. The battery can be charged on or off "
    "the bike.",
    ("With the 4 A charger that comes with the bike, charging it completely takes roughly five hours, but you cannot "
     "charge the battery while it is fitted to the bike.",
     "you cannot charge the battery while it is fitted to the bike", "negation"),
    ("With the 4 A charger that comes with the bike, charging it completely takes roughly five hours; a fast charger "
     "sold separately cuts that time in half. You can charge the battery either fitted to the bike or "
     "removed from it.",
     "a fast charger sold separately cuts that time in half"),
)
item(
    "product_manual",
    "When can the Nestling 360 be turned to face forward?",
    "The Nestling 360 child car seat is approved under UN R129 for children from 40 to 105 cm in height "
    "and up to 18 kg. It must be installed rear-facing for children under 15 months; from 15 months and "
    "76 cm, it may be turned forward-facing. The seat is installed using the ISOFIX connectors and the "
    "support leg; it cannot be installed with the vehicle seat belt. Never place the seat rear-facing on a "
    "front passenger seat with an active airbag. The cover can be removed and washed at 30 °C. Replace the "
    "seat after any accident, even if no damage is visible.",
    "The seat may face forward once the child is at least 15 months old and 76 cm tall; younger children "
    "must travel rear-facing.",
    "From 15 months and 76 cm, it may be turned forward-facing. It must be installed rear-facing for "
    "children under 15 months.",
    ("The seat may face forward once the child is at least 15 weeks old and 76 cm tall; younger children "
     "must travel rear-facing.", "weeks", "unit_scope"),
    ("The seat may face forward once the child is at least 15 months old and 76 cm tall; younger children "
     "must travel rear-facing. Safety experts nonetheless recommend keeping children rear-facing for as "
     "long as possible.",
     "Safety experts nonetheless recommend keeping children rear-facing for as long as possible."),
)
item(
    "product_manual",
    "How long does the battery of the Sono Q5 last?",
    "The Sono Q5 wireless headphones offer up to 30 hours of playback with active noise cancellation (ANC) "
    "switched on, or up to 38 hours with it switched off. A 10-minute charge via USB-C provides about 5 "
    "hours of playback. The headphones can be paired with up to eight devices and connected to two at the "
    "same time. To enter pairing mode, hold the power button for 7 seconds until the LED flashes blue and "
    "red. The Q5 is rated IPX4 against splashes but must not be submerged. Ear cushions can be replaced; "
    "replacement sets are sold separately. The charging cable is included, but a wall adapter is not.",
    "You get as much as 30 hours of listening with noise cancellation on, and as much as 38 hours when "
    "it's off. A quick 10-minute top-up over USB-C gives roughly five hours.",
    "The Sono Q5 offers up to 30 hours of playback with ANC switched on, or up to 38 hours with it switched "
    "off. A 10-minute charge via USB-C provides about 5 hours of playback.",
    ("You get as much as 38 hours of listening with noise cancellation on, and as much as 30 hours when "
     "it's off. A quick 10-minute top-up over USB-C gives roughly five hours.",
     "38 hours of listening with noise cancellation on, and as much as 30 hours", "role_swap"),
    ("The Q5 uses a 700 mAh battery. You get as much as 30 hours of listening with noise cancellation on, "
     "and as much as 38 hours when it's off. A quick 10-minute top-up over USB-C gives roughly five hours.",
     "The Q5 uses a 700 mAh battery."),
)

# --------------------------------------------------------------------------- medical_leaflet
item(
    "medical_leaflet",
    "How many Calmera tablets can I take in a day?",
    "Calmera 200 mg film-coated tablets contain the active substance velpranide, used to relieve moderate "
    "pain such as headache, toothache and period pain in adults and adolescents aged 12 and over. The usual "
    "dose is one tablet every 6 to 8 hours as needed. Do not take more than 3 tablets in 24 hours. Take the "
    "tablets with food or milk to reduce the risk of stomach upset. Do not use Calmera if you have an "
    "active stomach ulcer, severe heart failure, or are in the last three months of pregnancy. If pain "
    "persists for more than 5 days, or fever for more than 3 days, consult a doctor. Store below 25 °C.",
    "The maximum is three tablets within any 24-hour period. The usual dose is a single tablet, taken every six "
    "to eight hours when required.",
    "Do not take more than 3 tablets in 24 hours. The usual dose is one tablet every 6 to 8 hours as "
    "needed.",
    ("The maximum is four tablets within any 24-hour period. The usual dose is a single tablet, taken every six "
     "to eight hours when required.", "four", "number"),
    ("The maximum is three tablets within any 24-hour period, or two if you are over 65. The usual dose is a "
     "single tablet, taken every six to eight hours when required.",
     "or two if you are over 65"),
)
item(
    "medical_leaflet",
    "What are the common side effects of Tervocin?",
    "Tervocin 250 mg capsules are an antibiotic used to treat bacterial infections of the chest, ears, "
    "throat and skin. Like all medicines, they can cause side effects. Common side effects (may affect up "
    "to 1 in 10 people) include diarrhoea, nausea and headache. Uncommon side effects (up to 1 in 100 "
    "people) include skin rash and dizziness. Stop taking Tervocin and seek medical help immediately if you "
    "develop swelling of the face, lips or throat, or difficulty breathing, as these may be signs of a "
    "serious allergic reaction. Tervocin does not work against viral infections such as colds or flu. "
    "Complete the full course prescribed, even if you feel better.",
    "Diarrhoea, nausea and headache are listed as common, meaning they can occur in as many as one person "
    "in ten.",
    "Common side effects (may affect up to 1 in 10 people) include diarrhoea, nausea and headache.",
    ("Diarrhoea, nausea and dizziness are listed as common, meaning they can occur in as many as one person "
     "in ten.", "dizziness", "entity"),
    ("Tervocin's side effects are generally mild. Diarrhoea, nausea and headache are listed as common, "
     "meaning they can occur in as many as one person in ten.",
     "Tervocin's side effects are generally mild."),
)
item(
    "medical_leaflet",
    "How much Febrino Junior should I give my 3-year-old?",
    "Febrino Junior oral suspension contains 120 mg of lumafen per 5 ml and is used to reduce fever and "
    "relieve mild pain in children. Dosing depends on age: children aged 6–24 months should be given 2.5 "
    "ml, children aged 2–4 years 5 ml, and children aged 4–6 years 7.5 ml. Doses may be repeated every 4 "
    "to 6 hours, but no more than 4 doses should be given in 24 hours. Do not give to babies under 6 months "
    "except on a doctor's advice. Shake the bottle well before use and use the measuring syringe provided. "
    "Once opened, use within 6 months.",
    "For a child between two and four years old, the dose is 5 ml. You can repeat it after four to six "
    "hours, up to a maximum of four doses in a 24-hour period.",
    "Children aged 2–4 years should be given 5 ml. Doses may be repeated every 4 to 6 hours, but no more "
    "than 4 doses should be given in 24 hours.",
    ("For a child between two and four years old, the dose is 7.5 ml. You can repeat it after four to six "
     "hours, up to a maximum of four doses in a 24-hour period.", "7.5 ml", "number"),
    ("The suspension is sugar-free. For a child between two and four years old, the dose is 5 ml. You can "
     "repeat it after four to six hours, up to a maximum of four doses in a 24-hour period.",
     "The suspension is sugar-free."),
)
item(
    "medical_leaflet",
    "Can I stop taking Nervalin when I feel better?",
    "Nervalin 50 mg tablets should be taken once daily, in the evening, with or without food. Avoid "
    "alcohol while taking Nervalin, because it can increase drowsiness. Tell your doctor if you are taking "
    "blood thinners such as warfarin, as Nervalin may increase the risk of bleeding. Do not take Nervalin "
    "together with MAO inhibitors or within 14 days of stopping them. Nervalin can affect your ability to "
    "drive during the first weeks of treatment. Do not stop taking the tablets suddenly; your doctor will "
    "reduce the dose gradually over 2 to 4 weeks. Keep out of the sight and reach of children and store in "
    "the original package.",
    "You shouldn't stop abruptly. Instead, your doctor will lower the dose step by step over a period of "
    "two to four weeks.",
    "Do not stop taking the tablets suddenly; your doctor will reduce the dose gradually over 2 to 4 "
    "weeks.",
    ("You shouldn't stop abruptly. Instead, your doctor will lower the dose step by step over a period of "
     "two to four days.", "days", "unit_scope"),
    ("You shouldn't stop abruptly, as this can cause dizziness and trouble sleeping. Instead, your doctor "
     "will lower the dose step by step over a period of two to four weeks.",
     "as this can cause dizziness and trouble sleeping"),
)
item(
    "medical_leaflet",
    "How long should I wait between two puffs of the Aerix inhaler?",
    "Before using the Aerix inhaler for the first time, or if it has not been used for 7 days or more, "
    "release two puffs into the air to make sure it works. Shake the inhaler well before each use. Breathe "
    "out fully, place the mouthpiece between your lips, and start to breathe in slowly and deeply while "
    "pressing the canister once. Hold your breath for about 10 seconds, then breathe out slowly. If a "
    "second puff is needed, wait about 30 seconds before repeating. Rinse your mouth with water after use. "
    "Clean the plastic actuator once a week with warm water and let it dry overnight. Do not puncture or "
    "heat the canister, even when empty.",
    "After inhaling, hold your breath for roughly ten seconds, and if you need a second puff, leave about "
    "half a minute before taking it.",
    "Hold your breath for about 10 seconds. If a second puff is needed, wait about 30 seconds before "
    "repeating.",
    ("After inhaling, hold your breath for roughly half a minute, and if you need a second puff, leave "
     "about ten seconds before taking it.",
     "half a minute, and if you need a second puff, leave about ten seconds", "role_swap"),
    ("After inhaling, hold your breath for roughly ten seconds, and if you need a second puff, leave about "
     "half a minute before taking it. Using a spacer can make each puff more effective.",
     "Using a spacer can make each puff more effective."),
)
item(
    "medical_leaflet",
    "Is the flu vaccine recommended during pregnancy?",
    "The seasonal influenza vaccine offered at Riverside Health Centre is recommended for everyone aged 65 "
    "and over, pregnant women at any stage of pregnancy, and people aged 6 months to 64 years with "
    "long-term conditions such as diabetes, asthma or heart disease. Children aged 2 and 3 receive the "
    "vaccine as a nasal spray rather than an injection. The vaccine takes about 14 days to become fully "
    "effective. Common reactions include a sore arm and a mild fever for one or two days. People who have "
    "had a severe allergic reaction to a previous flu vaccine should not be vaccinated. Appointments are "
    "available on weekdays from 8 a.m. to 6 p.m., October to December.",
    "Yes. Pregnant women are among the groups it is recommended for, whatever stage of pregnancy they are "
    "at.",
    "Yes. The vaccine is recommended for pregnant women at any stage of pregnancy.",
    ("Yes. Pregnant women are among the groups it is recommended for, but only from the second trimester "
     "onwards.", "but only from the second trimester onwards", "unit_scope"),
    ("Yes. Pregnant women are among the groups it is recommended for, whatever stage of pregnancy they are "
     "at, and vaccination also gives the baby some protection in its first months.",
     "and vaccination also gives the baby some protection in its first months"),
)
item(
    "medical_leaflet",
    "I wear soft contact lenses. What should I do when using Clarivue?",
    "Clarivue eye drops contain 0.1% lubrazine and are used to relieve dry, irritated eyes. Put one or two "
    "drops in the affected eye up to four times a day. If you wear soft contact lenses, remove them before "
    "applying the drops and wait at least 15 minutes before putting them back in, because the preservative "
    "can discolour the lenses. Do not let the dropper tip touch your eye or any other surface. After "
    "opening, the bottle must be used within 28 days; write the opening date on the label. Blurred vision "
    "may occur for a few minutes after use, so do not drive until your vision is clear. Clarivue is not "
    "recommended for children under 12.",
    "Take your lenses out before putting the drops in, then wait a minimum of a quarter of an hour before "
    "reinserting them. This is because the preservative in the drops may stain soft lenses.",
    "Remove them before applying the drops and wait at least 15 minutes before putting them back in, "
    "because the preservative can discolour the lenses.",
    ("Take your lenses out before putting the drops in, then wait a minimum of a quarter of an hour before "
     "reinserting them. This is because the active ingredient, lubrazine, may stain soft lenses.",
     "the active ingredient, lubrazine", "entity"),
    ("Take your lenses out before putting the drops in, then wait a minimum of a quarter of an hour before "
     "reinserting them. This is because the preservative in the drops may stain soft lenses. Hard lenses "
     "can stay in while you use the drops.",
     "Hard lenses can stay in while you use the drops."),
)

# --------------------------------------------------------------------------- contract
item(
    "contract",
    "Can the tenant end the lease early?",
    "This Lease is made between Harbourview Properties Ltd ('the Landlord') and Elena Marsh ('the Tenant') "
    "for the flat at 14B Quay Street, Bristol. The term is 12 months starting on 1 March 2024. Rent is "
    "£1,350 per calendar month, payable in advance on the first day of each month by bank transfer. The "
    "Tenant shall pay a deposit of £1,550, which will be protected in a government-approved scheme within "
    "30 days of receipt. The Tenant may not sublet the property or keep pets without the Landlord's prior "
    "written consent. Either party may end the Lease after the first six months by giving two months' "
    "written notice. The Landlord is responsible for repairs to the structure, heating and plumbing.",
    "Yes. Once the first half-year of the tenancy has passed, either the tenant or the landlord can "
    "terminate it by serving written notice of two months.",
    "Yes. Either party may end the Lease after the first six months by giving two months' written notice.",
    ("Yes. Once the first half-year of the tenancy has passed, either the tenant or the landlord can "
     "terminate it by serving written notice of one month.", "one month", "number"),
    ("Yes. Once the first half-year of the tenancy has passed, either the tenant or the landlord can "
     "terminate it by serving written notice of two months. An early-termination fee equal to one month's "
     "rent applies.",
     "An early-termination fee equal to one month's rent applies."),
)
item(
    "contract",
    "How long do the confidentiality obligations last?",
    "Under this Mutual Non-Disclosure Agreement dated 3 June 2024 between Orrin Biotech Inc. and Castell "
    "Analytics GmbH, each party shall keep the other's Confidential Information secret and use it only to "
    "evaluate a possible joint research project. Confidential Information does not include information "
    "that is already public, was known to the recipient before disclosure, or is independently developed. "
    "The obligations of confidentiality last for five years from the date of disclosure. Upon written "
    "request, the recipient must return or destroy all Confidential Information within 15 business days. "
    "This Agreement is governed by the laws of the State of Delaware, and disputes shall be resolved by the "
    "courts of Wilmington.",
    "Each party's duty of confidentiality runs for five years, counted from the date on which the "
    "information was disclosed.",
    "The obligations of confidentiality last for five years from the date of disclosure.",
    ("Each party's duty of confidentiality runs for five years, counted from the date on which the "
     "agreement was signed.", "the agreement was signed", "unit_scope"),
    ("Each party's duty of confidentiality runs for five years, counted from the date on which the "
     "information was disclosed; trade secrets, however, must be protected indefinitely.",
     "trade secrets, however, must be protected indefinitely"),
)
item(
    "contract",
    "What credit do I get if availability is 98.5% in a month?",
    "Under this Service Level Agreement, CloudNest guarantees 99.9% monthly availability for the "
    "Customer's hosted database service. Availability is measured by CloudNest's monitoring system in "
    "five-minute intervals and excludes scheduled maintenance announced at least 72 hours in advance. If "
    "monthly availability falls below 99.9%, the Customer is entitled to a service credit of 10% of the "
    "monthly fee; below 99.0%, the credit is 25%; below 95.0%, it is 50%. Credits must be requested by "
    "email within 30 days of the end of the affected month and are applied to the next invoice. Service "
    "credits are the Customer's sole remedy for unavailability and cannot be exchanged for cash.",
    "98.5% is under the 99.0% threshold but not under 95.0%, so you'd be owed a credit worth a quarter of "
    "that month's fee. You need to claim it by email no later than 30 days after the month ends.",
    "Below 99.0%, the credit is 25% of the monthly fee. Credits must be requested by email within 30 days "
    "of the end of the affected month.",
    ("98.5% is under the 99.0% threshold but not under 95.0%, so you'd be owed a credit worth half of that "
     "month's fee. You need to claim it by email no later than 30 days after the month ends.",
     "half", "number"),
    ("98.5% is under the 99.0% threshold but not under 95.0%, so you'd be owed a credit worth a quarter of "
     "that month's fee. You need to claim it by email no later than 30 days after the month ends, quoting "
     "your contract number.",
     "quoting your contract number"),
)
item(
    "contract",
    "Who does Jonah Reyes report to, and what is his salary?",
    "Employment Agreement between Solace Design Studio ('the Employer') and Jonah Reyes ('the Employee'). "
    "The Employee is appointed as Senior UX Designer, starting on 2 September 2024, reporting to the Head "
    "of Product. The normal working week is 37.5 hours, Monday to Friday. The gross annual salary is "
    "$96,000, paid in twelve monthly instalments. The first three months are a probationary period, during "
    "which either party may terminate with one week's notice; thereafter the notice period is one month. "
    "The Employee is entitled to 25 days of paid vacation per year in addition to public holidays. The "
    "Employee agrees not to solicit the Employer's clients for 12 months after leaving.",
    "Jonah's manager is the Head of Product, and he earns $96,000 a year before tax, split into twelve monthly "
    "payments.",
    "The Employee is appointed as Senior UX Designer, reporting to the Head of Product. The gross annual "
    "salary is $96,000, paid in twelve monthly instalments.",
    ("Jonah's manager is the Head of Design, and he earns $96,000 a year before tax, split into twelve monthly "
     "payments.", "Head of Design", "entity"),
    ("Jonah's manager is the Head of Product, and he earns $96,000 a year before tax, split into twelve monthly "
     "payments, with a salary review every January.",
     "with a salary review every January"),
)
item(
    "contract",
    "Does the Vantis licence renew automatically?",
    "Subject to payment of the annual fee, Vantis Software grants the Licensee a non-exclusive, "
    "non-transferable licence to install and use Vantis Planner on up to 50 workstations at the "
    "Licensee's premises. The Licensee may make one backup copy for archival purposes. The Licensee shall "
    "not reverse engineer, decompile or modify the software, nor make it available to third parties. The "
    "licence runs for one year from 1 January 2025 and renews automatically unless either party gives "
    "notice at least 60 days before the renewal date. Vantis provides updates and email support during "
    "business hours at no additional cost. Vantis's total liability under this agreement is limited to "
    "the fees paid in the preceding 12 months.",
    "Yes. The one-year licence, which starts on 1 January 2025, is extended automatically unless one of "
    "the parties gives notice 60 or more days ahead of the renewal date.",
    "Yes. The licence runs for one year from 1 January 2025 and renews automatically unless either party "
    "gives notice at least 60 days before the renewal date.",
    ("Yes. The one-year licence, which starts on 1 January 2026, is extended automatically unless one of "
     "the parties gives notice 60 or more days ahead of the renewal date.", "1 January 2026", "date"),
    ("Yes. The one-year licence, which starts on 1 January 2025, is extended automatically unless one of "
     "the parties gives notice 60 or more days ahead of the renewal date. The fee for each renewal year "
     "may rise by up to 5%.",
     "The fee for each renewal year may rise by up to 5%."),
)
item(
    "contract",
    "Who supplies whom under the flour agreement, and how much per month?",
    "Under this Supply Agreement, Greenfield Mills shall deliver 40 tonnes of organic wheat flour per month "
    "to Baker Street Foods Ltd at its Leeds bakery, from 1 April 2024 to 31 March 2026. The price is £520 "
    "per tonne, fixed for the first year and adjusted thereafter in line with the UK Consumer Prices "
    "Index. Deliveries must arrive between 6 a.m. and 10 a.m. on the agreed weekday. If a delivery is more "
    "than 48 hours late, the Buyer may source flour elsewhere and charge the Supplier any extra cost. "
    "Payment is due within 45 days of invoice. Either party may terminate for material breach if the "
    "breach is not remedied within 30 days of written notice.",
    "Greenfield Mills supplies Baker Street Foods, delivering organic wheat flour — 40 tonnes a month — to "
    "the buyer's bakery in Leeds.",
    "Greenfield Mills shall deliver 40 tonnes of organic wheat flour per month to Baker Street Foods Ltd at "
    "its Leeds bakery.",
    ("Baker Street Foods supplies Greenfield Mills, delivering organic wheat flour — 40 tonnes a month — to "
     "the buyer's bakery in Leeds.", "Baker Street Foods supplies Greenfield Mills", "role_swap"),
    ("Greenfield Mills supplies Baker Street Foods, delivering organic wheat flour — 40 tonnes a month, "
     "packed in 25 kg sacks — to the buyer's bakery in Leeds.",
     "packed in 25 kg sacks"),
)
item(
    "contract",
    "Is accidental damage to my contents covered?",
    "This policy, issued by Northgate Insurance to Mr Samuel Obi, covers the buildings and contents of 7 "
    "Elm Grove, Leicester, from 15 May 2024 to 14 May 2025. Buildings are insured up to £320,000 and "
    "contents up to £45,000. A standard excess of £250 applies to each claim, increased to £1,000 for "
    "escape-of-water claims. Accidental damage to contents is not covered. Single items of jewellery or "
    "valuables worth more than £2,000 are covered only if listed in the schedule. The property must not be "
    "left unoccupied for more than 60 consecutive days; otherwise, cover for theft and water damage is "
    "suspended. Claims should be reported within 30 days of the incident.",
    "No, this policy doesn't protect your belongings against accidental damage, even though contents in "
    "general are insured for up to £45,000.",
    "No. Accidental damage to contents is not covered.",
    ("Yes, this policy does protect your belongings against accidental damage, with contents in general "
     "insured for up to £45,000.",
     "Yes, this policy does protect your belongings against accidental damage", "negation"),
    ("No, this policy doesn't protect your belongings against accidental damage, even though contents in "
     "general are insured for up to £45,000. Accidental damage cover can be added for an extra premium.",
     "Accidental damage cover can be added for an extra premium."),
)

# --------------------------------------------------------------------------- financial_report
item(
    "financial_report",
    "How did Halcyon's operating profit change in Q3 2024?",
    "Halcyon Retail Group reported revenue of €2.41 billion for the third quarter of 2024, up 6.2% from a "
    "year earlier, driven by strong online sales, which grew 14%. Like-for-like store sales rose 1.8%. "
    "Operating profit fell to €118 million from €131 million, as the company absorbed higher wage and "
    "logistics costs. Net profit was €74 million. The company opened 22 new stores during the quarter and "
    "closed 9, ending the period with 1,046 stores in 11 countries. Management confirmed its full-year "
    "revenue guidance of €9.6–9.8 billion but lowered its operating margin target to 4.5% from 5.0%. The "
    "board will propose an interim dividend of €0.35 per share.",
    "It declined from €131 million to €118 million, because the group had to absorb "
    "increased costs for wages and logistics.",
    "Operating profit fell to €118 million from €131 million, as the company absorbed higher wage and "
    "logistics costs.",
    ("It declined from €131 million to €118 million, because the group had to absorb "
     "increased costs for rent and logistics.", "rent", "entity"),
    ("It declined from €131 million to €118 million, because the group had to absorb "
     "increased costs for wages and logistics. It was the second quarter in a row of falling operating "
     "profit.",
     "It was the second quarter in a row of falling operating profit."),
)
item(
    "financial_report",
    "Why did Kestrel Energy's net debt fall?",
    "At 31 December 2023, Kestrel Energy plc had net debt of £1.9 billion, compared with £2.3 billion a "
    "year earlier. The reduction reflected free cash flow of £610 million and proceeds of £180 million from "
    "the sale of its Norwegian gas assets to Fjord Petroleum. The company's leverage ratio (net debt to "
    "EBITDA) improved to 1.6 times from 2.1 times. In March 2023, Kestrel issued a £500 million green bond "
    "maturing in 2031 with a coupon of 4.75%, the proceeds of which are being used to fund offshore wind "
    "projects. The company's credit rating was upgraded to Baa1 in October. The board aims to keep "
    "leverage below 2.0 times over the medium term.",
    "Net debt came down from £2.3 billion to £1.9 billion thanks to £610 million of free cash flow and the "
    "£180 million the company received for selling gas assets in Norway to Fjord Petroleum.",
    "Net debt fell to £1.9 billion from £2.3 billion. The reduction reflected free cash flow of £610 "
    "million and proceeds of £180 million from the sale of its Norwegian gas assets to Fjord Petroleum.",
    ("Net debt came down from £2.3 billion to £1.9 billion thanks to £610 million of free cash flow and the "
     "£180 million the company received for selling gas assets in Denmark to Fjord Petroleum.",
     "Denmark", "entity"),
    ("Net debt came down from £2.3 billion to £1.9 billion thanks to £610 million of free cash flow, "
     "helped by record North Sea production, and the £180 million the company received for selling gas "
     "assets in Norway to Fjord Petroleum.",
     "helped by record North Sea production"),
)
item(
    "financial_report",
    "Did the Meridian fund beat its benchmark over the last year?",
    "The Meridian Global Equity Fund returned 11.4% in the 12 months to 30 June 2024, compared with 13.1% "
    "for its benchmark, the MSCI World Index. The underperformance was mainly due to the fund's underweight "
    "position in large US technology stocks. Since its launch in March 2015, the fund has delivered an "
    "annualised return of 8.2%. The fund invests in 45 to 60 companies; its ten largest holdings make up "
    "38% of assets. The ongoing charge is 0.85% a year, and there is no entry or exit fee. The fund "
    "manager, Laura Chen, has run the fund since January 2019. Past performance is not a reliable "
    "indicator of future results.",
    "No. Over the year to 30 June 2024 the fund gained 11.4%, trailing the MSCI World Index, which returned "
    "13.1%. The shortfall came mostly from holding less in big US tech companies than the benchmark.",
    "No. The fund returned 11.4% in the 12 months to 30 June 2024, compared with 13.1% for its benchmark, "
    "the MSCI World Index. The underperformance was mainly due to the fund's underweight position in large "
    "US technology stocks.",
    ("No. Over the year to 30 June 2024 the fund gained 11.4%, trailing the MSCI World Index, which returned "
     "13.1%. The shortfall came mostly from holding more in big US tech companies than the benchmark.",
     "more", "negation"),
    ("No. Over the year to 30 June 2024 the fund gained 11.4%, trailing the MSCI World Index, which returned "
     "13.1%. The shortfall came mostly from holding less in big US tech companies than the benchmark, and a "
     "weaker yen also weighed on returns.",
     "and a weaker yen also weighed on returns"),
)
item(
    "financial_report",
    "Who led Brightlane's Series B round and how much was raised?",
    "Brightlane, a Lisbon-based developer of accounting software for small businesses, closed a €35 "
    "million Series B funding round led by Atlantic Ventures, with participation from existing investors "
    "Seedcorn Capital and Ribeira Partners. The company said it would use the money to expand into Spain "
    "and Italy and to double its engineering team to 120 people by the end of 2025. Brightlane's annual "
    "recurring revenue reached €14 million in 2023, up from €6 million in 2022, and it now serves 21,000 "
    "paying customers. The company was founded in 2019 by Marta Sousa and Tiago Lemos and has raised €52 "
    "million in total. It is not yet profitable but expects to break even in 2026.",
    "Atlantic Ventures was the lead investor in the €35 million Series B, and two existing backers, Ribeira "
    "Partners and Seedcorn Capital, also took part.",
    "Brightlane closed a €35 million Series B funding round led by Atlantic Ventures, with participation "
    "from existing investors Seedcorn Capital and Ribeira Partners.",
    ("Northstar Ventures was the lead investor in the €35 million Series B, and two existing backers, "
     "Ribeira Partners and Seedcorn Capital, also took part.", "Northstar Ventures", "entity"),
    ("Atlantic Ventures was the lead investor in the €35 million Series B, which valued Brightlane at "
     "around €200 million, and two existing backers, Ribeira Partners and Seedcorn Capital, also took part.",
     "which valued Brightlane at around €200 million"),
)
item(
    "financial_report",
    "Is Fairhaven raising its property tax rate in 2025?",
    "The 2025 budget of the City of Fairhaven, approved by the council on 12 December 2024, totals $486 "
    "million, an increase of 3.9% over 2024. Public safety remains the largest item at $171 million, "
    "followed by public works at $98 million and parks and recreation at $41 million. The property tax "
    "rate will stay unchanged at 1.12% of assessed value for the third consecutive year. The budget "
    "includes $12 million for the first phase of a new central library, expected to open in 2027. It also "
    "adds 18 full-time positions, 11 of them in the fire department. The city's reserve fund is projected "
    "to end 2025 at $52 million, equal to about 11% of spending.",
    "No. The rate remains at 1.12% of the assessed value, which means it has not changed for three years "
    "running.",
    "No. The property tax rate will stay unchanged at 1.12% of assessed value for the third consecutive "
    "year.",
    ("No. The rate remains at 1.12% of the market value, which means it has not changed for three years "
     "running.", "market value", "unit_scope"),
    ("No. Thanks to rising sales tax revenue, the rate remains at 1.12% of the assessed value, which means it "
     "has not changed for three years running.",
     "Thanks to rising sales tax revenue,"),
)
item(
    "financial_report",
    "Which product became Tallis's best seller in 2023?",
    "Tallis Pharmaceuticals reported full-year 2023 revenue of $8.7 billion, up 4% at constant exchange "
    "rates. Sales of its diabetes drug Glucora rose 22% to $2.1 billion, making it the company's "
    "best-selling product for the first time, overtaking the arthritis treatment Junexa, whose sales fell "
    "9% to $1.8 billion after a competitor launched a cheaper generic version in Europe. Research and "
    "development spending was $1.6 billion, or 18% of revenue. The company raised its annual dividend by "
    "5% to $2.10 per share and announced a $1 billion share buyback programme to be completed by the end "
    "of 2024. For 2024, Tallis expects revenue growth of 3% to 5%.",
    "The diabetes treatment Glucora took the top spot for the first time, with sales that rose by 22%, "
    "reaching $2.1 billion; it overtook Junexa, the arthritis medicine.",
    "Sales of its diabetes drug Glucora rose 22% to $2.1 billion, making it the company's best-selling "
    "product for the first time, overtaking the arthritis treatment Junexa.",
    ("The obesity treatment Glucora took the top spot for the first time, with sales that rose by 22%, "
     "reaching $2.1 billion; it overtook Junexa, the arthritis medicine.", "obesity", "entity"),
    ("The diabetes treatment Glucora took the top spot for the first time, with sales that rose by 22%, "
     "reaching $2.1 billion, largely thanks to strong demand in the United States; it overtook Junexa, the "
     "arthritis medicine.",
     "largely thanks to strong demand in the United States"),
)
item(
    "financial_report",
    "Why did Alder Mutual Bank's impairment charges go up?",
    "Alder Mutual Bank reported a net interest margin of 2.38% for 2023, up from 1.94% in 2022, as higher "
    "central bank rates lifted income from loans faster than the cost of deposits. Total lending grew 3% to "
    "£18.2 billion, of which 81% was residential mortgages. Customer deposits rose to £19.6 billion. "
    "Impairment charges increased to £42 million from £15 million, reflecting a rise in mortgage arrears, "
    "although arrears of three months or more remained low at 0.6% of loans. The bank's Common Equity Tier "
    "1 ratio was 16.8%, well above the regulatory minimum. As a mutual, Alder has no shareholders and paid "
    "£31 million in member rewards.",
    "They climbed from £15 million to £42 million because more mortgage customers fell behind on their "
    "payments, though loans three or more months in arrears still made up just 0.6% of the total.",
    "Impairment charges increased to £42 million from £15 million, reflecting a rise in mortgage arrears, "
    "although arrears of three months or more remained low at 0.6% of loans.",
    ("They climbed from £15 million to £42 million because more mortgage customers fell behind on their "
     "payments, though loans three or more weeks in arrears still made up just 0.6% of the total.",
     "weeks", "unit_scope"),
    ("They climbed from £15 million to £42 million because more mortgage customers fell behind on their "
     "payments, particularly in the buy-to-let portfolio, though loans three or more months in arrears "
     "still made up just 0.6% of the total.",
     "particularly in the buy-to-let portfolio"),
)

# --------------------------------------------------------------------------- sports
item(
    "sports",
    "Who scored for Redhill United against Ashford Town?",
    "Redhill United came from behind to beat Ashford Town 3–1 at Meadow Park on Saturday, moving up to "
    "second place in the Southern League table. Ashford took the lead in the 12th minute through a header "
    "from captain Leon Barker. Redhill equalised just before half-time when striker Kofi Mensah converted a "
    "penalty, and Mensah added a second in the 67th minute. Substitute Jamie Ortiz sealed the win in "
    "stoppage time. Ashford finished with ten men after defender Callum Reid was sent off for a second "
    "yellow card in the 78th minute. The attendance was 2,814. Redhill have now won five of their last six "
    "league games.",
    "Kofi Mensah got two of Redhill's goals — a penalty shortly before the break and another in the 67th "
    "minute — and Jamie Ortiz, on as a substitute, added the third in stoppage time.",
    "Striker Kofi Mensah converted a penalty just before half-time and added a second in the 67th minute. "
    "Substitute Jamie Ortiz sealed the win in stoppage time.",
    ("Kofi Mensah got two of Redhill's goals — a penalty shortly before the break and another in the 67th "
     "minute — and Callum Reid, on as a substitute, added the third in stoppage time.",
     "Callum Reid", "entity"),
    ("Kofi Mensah got two of Redhill's goals — a penalty shortly before the break and another in the 67th "
     "minute, taking his season tally to 14 — and Jamie Ortiz, on as a substitute, added the third in "
     "stoppage time.",
     "taking his season tally to 14"),
)
item(
    "sports",
    "What was the score in the Lakeside Open women's final?",
    "Second seed Marta Kowalczyk won the women's title at the Lakeside Open on Sunday, defeating unseeded "
    "Ayumi Tanaka 6–4, 3–6, 7–5 in a final lasting two hours and 41 minutes. It was Kowalczyk's third "
    "title of the season and her first on grass. Tanaka, ranked 58th in the world, had knocked out the top "
    "seed in the quarter-finals and was playing in her first final at this level. Kowalczyk saved four "
    "break points in the final set before breaking Tanaka's serve at 5–5. The winner receives a cheque for "
    "$267,000 and 500 ranking points, which will lift her to a career-high fourth in the world rankings on "
    "Monday.",
    "In three sets — 6–4, 3–6 and 7–5 — Kowalczyk beat Tanaka in a match that went on for 161 "
    "minutes.",
    "Marta Kowalczyk defeated Ayumi Tanaka 6–4, 3–6, 7–5 in a final lasting two hours and 41 minutes.",
    ("In three sets — 6–4, 3–6 and 7–5 — Tanaka beat Kowalczyk in a match that went on for 161 "
     "minutes.", "Tanaka beat Kowalczyk", "role_swap"),
    ("In three sets — 6–4, 3–6 and 7–5 — Kowalczyk beat Tanaka in a match that went on for 161 "
     "minutes, the longest women's final in the tournament's history.",
     "the longest women's final in the tournament's history"),
)
item(
    "sports",
    "Did anyone set a course record at the 2024 Harborview Marathon?",
    "More than 31,000 runners finished the 2024 Harborview Marathon on Sunday, a record for the event. "
    "Kenyan runner David Kiprono won the men's race in 2:06:48, breaking the course record set in 2019 by "
    "52 seconds. Ethiopia's Tigist Alemu won the women's race in 2:21:15. The temperature at the 7:30 a.m. "
    "start was 9 °C, with light winds. In the wheelchair races, Jonas Weber of Switzerland and Emma Clarke "
    "of the United States were the winners. Both open-race winners receive $75,000, with an extra $25,000 "
    "bonus for the course record. Organisers said 42 runners received medical treatment, and two were "
    "taken to hospital as a precaution.",
    "Yes. David Kiprono of Kenya took the men's title in 2:06:48, which was 52 seconds quicker than the "
    "previous course record, dating from 2019.",
    "Yes. Kenyan runner David Kiprono won the men's race in 2:06:48, breaking the course record set in 2019 "
    "by 52 seconds.",
    ("Yes. David Kiprono of Kenya took the men's title in 2:06:48, which was 52 seconds quicker than the "
     "previous course record, dating from 2017.", "2017", "date"),
    ("Yes. David Kiprono of Kenya took the men's title in 2:06:48, which was 52 seconds quicker than the "
     "previous course record, dating from 2019. He ran the second half of the race faster than the first.",
     "He ran the second half of the race faster than the first."),
)
item(
    "sports",
    "How long is Rafael Costa's contract and what was the fee?",
    "Atlético Valdés have signed the Brazilian midfielder Rafael Costa from Porto Verde on a four-year "
    "contract, the club announced on Tuesday. The fee is reported to be €28 million, with a further €4 "
    "million in possible add-ons, making him the most expensive signing in the club's history. Costa, 24, "
    "scored 9 goals and provided 11 assists in 33 league appearances last season. He will wear the number "
    "8 shirt. Head coach Sergio Blanco said Costa's ability to break lines with his passing was 'exactly "
    "what we were missing'. Costa becomes the club's fourth summer signing, after goalkeeper Iván Ruiz, "
    "defender Milan Petrović and forward Yusuf Demir.",
    "Atlético Valdés brought Costa in from Porto Verde, and the deal runs for four years. The reported fee is "
    "€28 million, which could rise by as much as €4 million through add-ons.",
    "Atlético Valdés have signed Rafael Costa on a four-year contract. The fee is reported to be €28 "
    "million, with a further €4 million in possible add-ons.",
    ("Porto Verde brought Costa in from Atlético Valdés, and the deal runs for four years. The reported fee is "
     "€28 million, which could rise by as much as €4 million through add-ons.",
     "Porto Verde brought Costa in from Atlético Valdés", "role_swap"),
    ("Atlético Valdés brought Costa in from Porto Verde, and the deal runs for four years. The reported fee is "
     "€28 million, which could rise by as much as €4 million through add-ons, and Porto Verde will also "
     "receive 10% of any future sale.",
     "and Porto Verde will also receive 10% of any future sale"),
)
item(
    "sports",
    "How did the Hawks finish the regular season?",
    "The Northbridge Hawks clinched the regular-season title of the National Basketball League on Friday "
    "with a 98–91 win over the Coastal Kings, their 14th consecutive victory. Guard Terrell Banks led the "
    "Hawks with 31 points and 9 assists, while centre Viktor Novak added 18 points and 12 rebounds. The "
    "Hawks finished the regular season with a record of 29 wins and 7 losses, three games ahead of "
    "second-placed Riverport. As top seed, they will have home advantage throughout the playoffs, which "
    "begin on 18 April. Banks, who leads the league in scoring with 24.6 points per game, is considered "
    "the favourite for the MVP award.",
    "They ended the regular season as champions with 29 victories and 7 defeats, three games clear of "
    "Riverport in second place. The title was sealed by a 98–91 win, their fourteenth in a row.",
    "The Hawks finished the regular season with a record of 29 wins and 7 losses, three games ahead of "
    "second-placed Riverport, and clinched the title with a 98–91 win over the Coastal Kings.",
    ("They ended the regular season as champions with 29 victories and 7 defeats, three games clear of the "
     "Coastal Kings in second place. The title was sealed by a 98–91 win, their fourteenth in a row.",
     "the Coastal Kings", "entity"),
    ("They ended the regular season as champions with 29 victories and 7 defeats, three games clear of "
     "Riverport in second place. The title was sealed by a 98–91 win, their fourteenth in a row, in front "
     "of a sell-out home crowd.",
     "in front of a sell-out home crowd"),
)
item(
    "sports",
    "Who won the women's 200 m butterfly in Rome, and in what time?",
    "At the European Aquatics Championships in Rome, 19-year-old Dutch swimmer Sanne de Vries won the "
    "women's 200 m butterfly in 2:05.31, a championship record. Hungary's Réka Molnár took silver in "
    "2:06.02 and Italy's Giulia Ferri bronze. It was de Vries's first major international title; she had "
    "finished fourth at the World Championships last year. On the same evening, Great Britain won the "
    "men's 4 × 100 m freestyle relay ahead of France and Italy. The championships continue until Sunday, "
    "with 46 swimming events in total, and serve as a qualifying event for next year's World "
    "Championships in Singapore.",
    "The race was won by Sanne de Vries of the Netherlands, aged 19, who touched in 2:05.31, setting a new "
    "championship record.",
    "19-year-old Dutch swimmer Sanne de Vries won the women's 200 m butterfly in 2:05.31, a championship "
    "record.",
    ("The race was won by Sanne de Vries of the Netherlands, aged 19, who touched in 2:05.31, narrowly "
     "missing the championship record.", "narrowly missing", "negation"),
    ("The race was won by Sanne de Vries of the Netherlands, aged 19, who touched in 2:05.31, setting a new "
     "championship record; she led from the first turn.",
     "she led from the first turn"),
)
item(
    "sports",
    "How did Ewan McLeod win the Coastal Links Championship?",
    "Scotland's Ewan McLeod won the Coastal Links Championship by two strokes on Sunday, finishing at 14 "
    "under par after a final-round 66. He started the day three shots behind the leader, Australia's Liam "
    "Porter, who struggled to a 73 and finished tied for third. South Korea's Park Ji-ho was second on 12 "
    "under. McLeod, 31, made six birdies and no bogeys in his final round. The victory, his first on the "
    "tour, earned him £540,000 and an exemption for the next two seasons. Play was suspended for 90 "
    "minutes on Saturday because of lightning.",
    "McLeod began Sunday three strokes off the lead but carded a bogey-free 66, with six birdies, to finish "
    "14 under and win by two shots. It was his first tour victory.",
    "Ewan McLeod won by two strokes, finishing at 14 under par after a final-round 66. He started the day "
    "three shots behind the leader, Liam Porter, and made six birdies and no bogeys in his final round.",
    ("McLeod began Saturday three strokes off the lead but carded a bogey-free 66, with six birdies, to "
     "finish 14 under and win by two shots. It was his first tour victory.", "Saturday", "date"),
    ("McLeod began Sunday three strokes off the lead but carded a bogey-free 66, with six birdies, to finish "
     "14 under and win by two shots. It was his first tour victory, coming in only his second season as a "
     "professional.",
     "coming in only his second season as a professional"),
)

# --------------------------------------------------------------------------- science
item(
    "science",
    "How much carbon do Baltic seagrass meadows store according to the study?",
    "A study published in the Journal of Coastal Ecology found that seagrass meadows in the Baltic Sea "
    "store an average of 27 tonnes of carbon per hectare in their sediments, about three times more than "
    "previously estimated. The researchers, led by Dr Annika Berg of Stockholm University, took 212 "
    "sediment cores from 38 sites in Sweden, Finland and Estonia between 2019 and 2022. The highest carbon "
    "stocks were found in sheltered bays with fine, muddy sediments. The team warned that seagrass cover "
    "in the region has declined by around 40% since the 1960s, mainly due to nutrient pollution, and that "
    "restoring lost meadows could help offset emissions.",
    "On average, the sediments beneath these meadows hold 27 tonnes of carbon for every hectare — roughly "
    "triple earlier estimates.",
    "Seagrass meadows in the Baltic Sea store an average of 27 tonnes of carbon per hectare in their "
    "sediments, about three times more than previously estimated.",
    ("On average, the sediments beneath these meadows hold 27 tonnes of carbon for every square kilometre — "
     "roughly triple earlier estimates.", "square kilometre", "unit_scope"),
    ("On average, the sediments beneath these meadows hold 27 tonnes of carbon for every hectare — roughly "
     "triple earlier estimates and more than most Baltic forests store in their soils.",
     "and more than most Baltic forests store in their soils"),
)
item(
    "science",
    "How far away is HL-472 and where was the water found?",
    "Astronomers using the Atacama Large Millimeter Array have detected water vapour in the "
    "protoplanetary disc around the young star HL-472, located about 450 light-years from Earth in the "
    "constellation Taurus. The star is estimated to be less than one million years old. The water was "
    "found in a ring between 10 and 25 astronomical units from the star, a region where planets similar "
    "to Jupiter are thought to form. The total amount detected is at least three times the volume of "
    "water in Earth's oceans. The results were obtained by an international team led by Dr Stefano Ricci "
    "of the University of Padua.",
    "The star lies roughly 450 light-years away, in Taurus. The water vapour sits in a ring located 10 to "
    "25 astronomical units from it — the zone where Jupiter-like planets are believed to form.",
    "HL-472 is located about 450 light-years from Earth in the constellation Taurus. The water was found in "
    "a ring between 10 and 25 astronomical units from the star.",
    ("The star lies roughly 450 light-years away, in Orion. The water vapour sits in a ring located 10 to "
     "25 astronomical units from it — the zone where Jupiter-like planets are believed to form.",
     "Orion", "entity"),
    ("The star lies roughly 450 light-years away, in Taurus. The water vapour sits in a ring located 10 to "
     "25 astronomical units from it — the zone where Jupiter-like planets are believed to form. A giant "
     "planet may already be taking shape inside the ring.",
     "A giant planet may already be taking shape inside the ring."),
)
item(
    "science",
    "How well does the new sodium-ion cathode hold its capacity?",
    "Researchers at the Technical University of Munich have developed a sodium-ion battery cathode that "
    "retains 92% of its capacity after 3,000 charge cycles, compared with about 70% for the best previous "
    "sodium-ion designs. The material, a layered manganese-iron oxide doped with small amounts of "
    "titanium, avoids the use of cobalt and nickel. In laboratory tests the cells reached an energy "
    "density of 160 watt-hours per kilogram, lower than typical lithium-ion cells but sufficient for "
    "stationary storage. The team estimates that cells using the cathode could cost 30% less than "
    "comparable lithium iron phosphate cells. A pilot production line is planned with an industrial "
    "partner for 2026.",
    "After 3,000 charging cycles it still keeps 92% of its capacity, whereas the strongest earlier "
    "sodium-ion designs managed around 70%.",
    "The cathode retains 92% of its capacity after 3,000 charge cycles, compared with about 70% for the "
    "best previous sodium-ion designs.",
    ("After 300 charging cycles it still keeps 92% of its capacity, whereas the strongest earlier "
     "sodium-ion designs managed around 70%.", "300", "number"),
    ("After 3,000 charging cycles it still keeps 92% of its capacity, whereas the strongest earlier "
     "sodium-ion designs managed around 70%. The titanium doping is what stops the layered structure from "
     "cracking.",
     "The titanium doping is what stops the layered structure from cracking."),
)
item(
    "science",
    "Was the salt substitute tested on people with kidney disease?",
    "In a randomised trial involving 1,480 adults with high blood pressure, participants who replaced "
    "regular table salt with a potassium-enriched salt substitute saw their systolic blood pressure fall "
    "by an average of 7.2 mmHg after six months, compared with 1.9 mmHg in the control group. The trial was "
    "conducted at 24 clinics in northern Italy between 2021 and 2023 and funded by the Italian Ministry of "
    "Health. No increase in dangerous potassium levels was observed, although people with kidney disease "
    "were excluded from the study. The authors cautioned that the results may not apply to people taking "
    "potassium-sparing medicines.",
    "No — anyone with kidney disease was barred from taking part in the trial. It recorded no rise in "
    "harmful potassium levels.",
    "No. People with kidney disease were excluded from the study. No increase in dangerous potassium "
    "levels was observed.",
    ("No — anyone with kidney disease was barred from taking part in the trial. It recorded a rise in "
     "harmful potassium levels.", "a rise", "negation"),
    ("No — anyone with kidney disease was barred from taking part in the trial, because potassium can "
     "build up dangerously in their blood. It recorded no rise in harmful potassium levels.",
     "because potassium can build up dangerously in their blood"),
)
item(
    "science",
    "What kind of fault caused the Kavala earthquake?",
    "A magnitude 6.1 earthquake struck the Kavala region of northern Greece at 03:42 local time on "
    "Thursday, according to the Geodynamic Institute in Athens. The epicentre was located 14 km north-east "
    "of the town of Drama at a depth of 11 km. More than 60 aftershocks were recorded in the following 24 "
    "hours, the largest of magnitude 4.8. Seismologists said the quake occurred on a normal fault, where "
    "the crust is being pulled apart, and that the region had last experienced a comparable event in "
    "1985. Several older stone buildings were damaged, but no deaths were reported.",
    "According to seismologists, it happened on a normal fault, along which the crust is being "
    "stretched apart. The region's previous earthquake of similar size was in 1985.",
    "Seismologists said the quake occurred on a normal fault, where the crust is being pulled apart. The "
    "region had last experienced a comparable event in 1985.",
    ("According to seismologists, it happened on a normal fault, along which the crust is being "
     "stretched apart. The region's previous earthquake of similar size was in 1995.", "1995", "date"),
    ("According to seismologists, it happened on a normal fault roughly 30 km long, along which the "
     "crust is being stretched apart. The region's previous earthquake of similar size was in "
     "1985.",
     "roughly 30 km long"),
)
item(
    "science",
    "How many swifts were tracked in the study and how many loggers were recovered?",
    "A five-year study of the alpine swift colony at Col de Vérane in the French Alps found that the birds "
    "can remain airborne for up to 200 days without landing during their migration to West Africa. "
    "Researchers fitted 48 birds with lightweight data loggers weighing 1.2 grams, recovering 31 of them "
    "the following year. The data showed that the swifts feed, and probably sleep, on the wing. Birds spent "
    "the non-breeding season mostly over Senegal and Guinea. The study, led by ornithologist Claire Dumont, "
    "was funded by the French National Research Agency and published in the journal Animal Movement "
    "Ecology.",
    "The team attached 1.2-gram data loggers to 48 swifts and got 31 of the devices back the next year.",
    "Researchers fitted 48 birds with lightweight data loggers weighing 1.2 grams, recovering 31 of them "
    "the following year.",
    ("The team attached 1.2-gram data loggers to 48 swifts and got 31 of the devices back two years later.",
     "two years later", "date"),
    ("The team attached 1.2-gram data loggers to 48 swifts, all of them adult females, and got 31 of the "
     "devices back the next year.",
     "all of them adult females"),
)
item(
    "science",
    "Why did the Rhodan Glacier lose so much ice in 2023?",
    "The Rhodan Glacier in the Bernese Alps lost 2.9% of its ice volume in 2023, according to the annual "
    "report of the Alpine Glacier Survey. The glacier's tongue retreated by 46 metres, the largest annual "
    "retreat since measurements began in 1894. The losses were attributed to a winter with below-average "
    "snowfall followed by a summer in which the freezing level rose above 5,000 metres for a record 11 "
    "days. The survey uses a combination of stake measurements, drone photography and ground-penetrating "
    "radar. Researchers estimate that the glacier has lost about 60% of its volume since 1900 and could "
    "largely disappear by 2100 if current warming continues.",
    "The report blames two things: less snow than average over the winter, and a summer when the "
    "freezing level went above 5,000 metres on a record eleven days.",
    "The losses were attributed to a winter with below-average snowfall followed by a summer in which the "
    "freezing level rose above 5,000 metres for a record 11 days.",
    ("The report blames two things: more snow than average over the winter, and a summer when the "
     "freezing level went above 5,000 metres on a record eleven days.", "more snow", "negation"),
    ("The report blames two things: less snow than average over the winter, and a summer when the "
     "freezing level went above 5,000 metres on a record eleven days. Saharan dust on the ice "
     "surface also sped up melting.",
     "Saharan dust on the ice surface also sped up melting."),
)

# --------------------------------------------------------------------------- build


def _span(answer: str, text: str, where: str) -> list[int]:
    count = answer.count(text)
    assert count == 1, f"{where}: error_text {text!r} occurs {count} times in its answer"
    start = answer.index(text)
    return [start, start + len(text)]


def build() -> list[dict]:
    rows: list[dict] = []
    per_domain: Counter = Counter()
    for it in ITEMS:
        domain = it["domain"]
        assert domain in DOMAINS, domain
        per_domain[domain] += 1
        group = f"{domain}-{per_domain[domain]:02d}"
        base = {"group": group, "domain": domain, "question": it["question"], "context": it["context"]}
        err_answer, err_text, err_type = it["error"]
        add_answer, add_text = it["addition"]
        assert err_type in ERROR_TYPES, (group, err_type)
        answers = [
            ("paraphrase", it["paraphrase"], 0, None, None),
            ("extractive", it["extractive"], 0, None, None),
            ("single_fact_error", err_answer, 1, err_type, err_text),
            ("unsupported_addition", add_answer, 1, "addition", add_text),
        ]
        for style, answer, label, etype, etext in answers:
            span = _span(answer, etext, f"{group}-{style}") if etext is not None else None
            rows.append({
                "id": f"{group}-{style}", **base, "style": style, "answer": answer, "label": label,
                "error_type": etype, "error_span": span, "error_text": etext,
            })
    # key order as documented
    order = ["id", "group", "domain", "style", "question", "context", "answer", "label",
             "error_type", "error_span", "error_text"]
    return [{k: r[k] for k in order} for r in rows]


def _position(row: dict) -> str:
    start, end = row["error_span"]
    n = len(row["answer"].rstrip(". "))
    if start <= 5:
        return "start"
    if end >= n - 1:
        return "end"
    return "middle"


def main() -> None:
    rows = build()
    with OUT.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    groups = {r["group"] for r in rows}
    print(f"wrote {len(rows)} rows, {len(groups)} contexts -> {OUT}")
    print("contexts per domain:", dict(Counter(r["domain"] for r in rows if r["style"] == "paraphrase")))
    print("rows per style:", dict(Counter(r["style"] for r in rows)))
    print("labels:", dict(Counter(r["label"] for r in rows)))
    print("error types (single_fact_error):",
          dict(Counter(r["error_type"] for r in rows if r["style"] == "single_fact_error")))
    print("addition positions:",
          dict(Counter(_position(r) for r in rows if r["style"] == "unsupported_addition")))
    words = [len(r["context"].split()) for r in rows if r["style"] == "paraphrase"]
    print(f"context words: min {min(words)}, max {max(words)}, mean {sum(words) / len(words):.0f}")


if __name__ == "__main__":
    main()
