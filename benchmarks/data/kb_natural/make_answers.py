"""Write ``answers.jsonl``: hand-written answers about the Vellmark KB (CC BY 4.0).

Each row: ``fact`` (subject and predicate local names), ``kind`` (``right``: the fact in
other words; ``swap``: one object, date or number swapped, ``swapped`` naming it),
``answer``, ``question``. Run once; the JSONL is what the benchmark reads.
"""

import json
from pathlib import Path

# (subject, predicate, question, [right answers], [(swapped answer, swapped text)])
DATA = [
    ("Lina_Marwick", "bornIn", "Where was Lina Marwick born?",
     ["Lina Marwick was born in Tarrow.", "Tarrow is where Lina Marwick was born."],
     [("Lina Marwick was born in Dunmore.", "Dunmore"), ("Marwick was born in Corran.", "Corran")]),
    ("Lina_Marwick", "wrote", "Which novel did Lina Marwick write?",
     ["Lina Marwick wrote The Salt Orchard.", "The Salt Orchard was written by Lina Marwick."],
     [("Lina Marwick wrote Glass Harbour.", "Glass Harbour"), ("Marwick wrote Winter Ferry.", "Winter Ferry")]),
    ("Lina_Marwick", "won", "Which prize did Lina Marwick win?",
     ["Lina Marwick won the Calder Prize.", "The Calder Prize was won by Marwick."],
     [("Lina Marwick won the Orla Medal.", "Orla Medal"), ("Marwick won the Vellmark Museum award.", "Vellmark Museum")]),
    ("Lina_Marwick", "married", "Who did Lina Marwick marry?",
     ["Lina Marwick married Oren Vask.", "Marwick married Vask, the founder of Kestrel Foods."],
     [("Lina Marwick married Idris Fenwick.", "Idris Fenwick"), ("Marwick married Tomas Brandt.", "Tomas Brandt")]),
    ("Oren_Vask", "founded", "Which company did Oren Vask found?",
     ["Oren Vask founded Kestrel Foods.", "Kestrel Foods was founded by Oren Vask."],
     [("Oren Vask founded Tarrow Athletic.", "Tarrow Athletic"), ("Vask founded Halden University.", "Halden University")]),
    ("Oren_Vask", "studiedAt", "Where did Oren Vask study?",
     ["Oren Vask studied at Halden University.", "Vask was a student at Halden University."],
     [("Oren Vask studied at Dunmore College.", "Dunmore College"), ("Vask studied at the Vellmark Museum.", "Vellmark Museum")]),
    ("Marta_Quell", "coaches", "Which team does Marta Quell coach?",
     ["Marta Quell coaches the Dunmore Rovers.", "The Dunmore Rovers are coached by Marta Quell."],
     [("Marta Quell coaches Tarrow Athletic.", "Tarrow Athletic"), ("Quell coaches Halden University.", "Halden University")]),
    ("Marta_Quell", "playedFor", "Which club did Marta Quell play for?",
     ["Marta Quell played for Tarrow Athletic.", "Before coaching the Dunmore Rovers, Quell played for Tarrow Athletic."],
     [("Marta Quell played for the Dunmore Rovers.", "Dunmore Rovers"), ("Quell played for Kestrel Foods.", "Kestrel Foods")]),
    ("Idris_Fenwick", "designed", "What did Idris Fenwick design?",
     ["Idris Fenwick designed Brightwater Bridge.", "Brightwater Bridge was designed by Idris Fenwick."],
     [("Idris Fenwick designed the Vellmark Museum.", "Vellmark Museum"), ("Fenwick designed Quarry Park.", "Quarry Park")]),
    ("Idris_Fenwick", "bornIn", "Where was Idris Fenwick born?",
     ["Idris Fenwick was born in Corran.", "Corran is the birthplace of Idris Fenwick."],
     [("Idris Fenwick was born in Tarrow.", "Tarrow"), ("Fenwick was born in Halden.", "Halden")]),
    ("Saskia_Holt", "directs", "What does Saskia Holt direct?",
     ["Saskia Holt directs the Vellmark Museum.", "The Vellmark Museum is directed by Saskia Holt."],
     [("Saskia Holt directs Halden University.", "Halden University"), ("Saskia Holt directs Kestrel Foods.", "Kestrel Foods")]),
    ("Petra_Lund", "leads", "Who leads Halden University?",
     ["Petra Lund leads Halden University.", "Halden University is led by Petra Lund."],
     [("Petra Lund leads the Vellmark Museum.", "Vellmark Museum"), ("Petra Lund leads Kestrel Foods.", "Kestrel Foods")]),
    ("Tomas_Brandt", "composed", "What did Tomas Brandt compose?",
     ["Tomas Brandt composed Winter Ferry.", "Winter Ferry was composed by Tomas Brandt."],
     [("Tomas Brandt composed The Salt Orchard.", "The Salt Orchard"), ("Tomas Brandt composed Glass Harbour.", "Glass Harbour")]),
    ("Ada_Kerrigan", "discovered", "What did Ada Kerrigan discover?",
     ["Ada Kerrigan discovered Vell Cave.", "Vell Cave was discovered by Ada Kerrigan."],
     [("Ada Kerrigan discovered Lake Orla.", "Lake Orla"), ("Ada Kerrigan discovered Quarry Park.", "Quarry Park")]),
    ("Kestrel_Foods", "foundedIn", "When was Kestrel Foods founded?",
     ["Kestrel Foods was founded in 2003.", "Oren Vask's company Kestrel Foods was founded in 2003."],
     [("Kestrel Foods was founded in 2008.", "2008"), ("Kestrel Foods was founded in 1994.", "1994")]),
    ("Kestrel_Foods", "basedIn", "Where is Kestrel Foods based?",
     ["Kestrel Foods is based in Dunmore.", "Oren Vask's company Kestrel Foods is based in Dunmore."],
     [("Kestrel Foods is based in Tarrow.", "Tarrow"), ("Kestrel Foods is based in Halden.", "Halden")]),
    ("Kestrel_Foods", "makes", "What does Kestrel Foods make?",
     ["Kestrel Foods makes frozen dumplings.", "Frozen dumplings are made by Kestrel Foods."],
     [("Kestrel Foods makes tinned soup.", "tinned soup"), ("Kestrel Foods makes frozen pizzas.", "frozen pizzas")]),
    ("Kestrel_Foods", "employs", "How many people does Kestrel Foods employ?",
     ["Kestrel Foods employs 1,200 people.", "Kestrel Foods has a staff of 1,200 people."],
     [("Kestrel Foods employs 2,100 people.", "2,100"), ("Kestrel Foods employs 120 people.", "120")]),
    ("Halden_University", "foundedIn", "When was Halden University founded?",
     ["Halden University was founded in 1871.", "Halden University dates back to 1871, when it was founded."],
     [("Halden University was founded in 1923.", "1923"), ("Halden University was founded in 1817.", "1817")]),
    ("Halden_University", "locatedIn", "Where is Halden University located?",
     ["Halden University is located in Halden.", "Halden University is located in Halden, the capital of Vellmark."],
     [("Halden University is located in Corran.", "Corran"), ("Halden University is located in Dunmore.", "Dunmore")]),
    ("Dunmore_Rovers", "playsAt", "Where do the Dunmore Rovers play?",
     ["The Dunmore Rovers play at Quarry Park.", "Quarry Park is where the Dunmore Rovers play."],
     [("The Dunmore Rovers play at Ferrow Park.", "Ferrow Park"), ("The Dunmore Rovers play at Brightwater Bridge.",
                                                                     "Brightwater Bridge")]),
    ("Tarrow_Athletic", "foundedIn", "When was Tarrow Athletic founded?",
     ["Tarrow Athletic was founded in 1923.", "Tarrow Athletic, Marta Quell's old club, was founded in 1923."],
     [("Tarrow Athletic was founded in 1932.", "1932"), ("Tarrow Athletic was founded in 1871.", "1871")]),
    ("Vellmark_Museum", "openedIn", "When did the Vellmark Museum open?",
     ["The Vellmark Museum opened in 1958.", "The Vellmark Museum opened its doors in 1958."],
     [("The Vellmark Museum opened in 1985.", "1985"), ("The Vellmark Museum opened in 1911.", "1911")]),
    ("Vellmark_Museum", "locatedIn", "Where is the Vellmark Museum located?",
     ["The Vellmark Museum is located in Tarrow.", "The Vellmark Museum, directed by Saskia Holt, is located in Tarrow."],
     [("The Vellmark Museum is located in Halden.", "Halden"), ("The Vellmark Museum is located in Corran.", "Corran")]),
    ("The_Salt_Orchard", "publishedIn", "When was The Salt Orchard published?",
     ["The Salt Orchard was published in 1994.", "Lina Marwick's The Salt Orchard was published in 1994."],
     [("The Salt Orchard was published in 1997.", "1997"), ("The Salt Orchard was published in 2003.", "2003")]),
    ("The_Salt_Orchard", "setIn", "Where is The Salt Orchard set?",
     ["The Salt Orchard is set in Corran.", "The Salt Orchard takes place in Corran."],
     [("The Salt Orchard is set in Dunmore.", "Dunmore"), ("The Salt Orchard is set in Halden.", "Halden")]),
    ("Winter_Ferry", "premieredIn", "When did Winter Ferry premiere?",
     ["Winter Ferry premiered in 2011.", "Tomas Brandt's Winter Ferry had its premiere in 2011."],
     [("Winter Ferry premiered in 2015.", "2015"), ("Winter Ferry premiered in 1958.", "1958")]),
    ("Brightwater_Bridge", "spans", "Which river does Brightwater Bridge span?",
     ["Brightwater Bridge spans the Ember River.", "The Ember River is spanned by Brightwater Bridge."],
     [("Brightwater Bridge spans the Corran River.", "Corran River"), ("Brightwater Bridge spans Lake Orla.", "Lake Orla")]),
    ("Brightwater_Bridge", "openedIn", "When did Brightwater Bridge open?",
     ["Brightwater Bridge opened in 1911.", "Idris Fenwick's Brightwater Bridge opened in 1911."],
     [("Brightwater Bridge opened in 1921.", "1921"), ("Brightwater Bridge opened in 1958.", "1958")]),
    ("Brightwater_Bridge", "measures", "How long is Brightwater Bridge?",
     ["Brightwater Bridge measures 420 metres.", "Brightwater Bridge is 420 metres long."],
     [("Brightwater Bridge measures 240 metres.", "240"), ("Brightwater Bridge measures 1,200 metres.", "1,200")]),
    ("Ember_River", "flowsInto", "Where does the Ember River flow?",
     ["The Ember River flows into Lake Orla.", "Lake Orla is where the Ember River flows."],
     [("The Ember River flows into the Corran River.", "Corran River"), ("The Ember River flows into Quarry Park.",
                                                                         "Quarry Park")]),
    ("Vell_Cave", "locatedIn", "Where is Vell Cave located?",
     ["Vell Cave is located in Corran.", "Vell Cave, discovered by Ada Kerrigan, is located in Corran."],
     [("Vell Cave is located in Tarrow.", "Tarrow"), ("Vell Cave is located in Dunmore.", "Dunmore")]),
]

if __name__ == "__main__":
    out = Path(__file__).with_name("answers.jsonl")
    n = 0
    with out.open("w", encoding="utf-8") as fh:
        for s, p, q, rights, swaps in DATA:
            for a in rights:
                fh.write(json.dumps({"id": f"r{n}", "fact": [s, p], "kind": "right", "answer": a, "question": q}) + "\n")
                n += 1
            for a, w in swaps:
                fh.write(json.dumps({"id": f"s{n}", "fact": [s, p], "kind": "swap", "answer": a, "question": q,
                                     "swapped": w}) + "\n")
                n += 1
    print(n, "answers ->", out)
