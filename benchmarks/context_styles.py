"""Does the verdict survive the context's format? (issue 23: context styles not in the dev data)

Retrieved passages come as HTML pages, Markdown with lists and tables, key-value records,
FAQs, API output (JSON), PDF text broken at every line, encyclopedia copies with citation markers
("[1]", "[citation needed]"), text with soft hyphens and transcripts with timestamps. Fifteen
hand-written passages, one per format, each with a faithful answer and an answer with one wrong value; reported: whether
the shipped default passes the faithful one and flags the wrong one, with its score and the
flagged nodes. A handful of cases, not a sample: a regression figure for the formats, like
``benchmarks/answer_styles.py`` for answers.

    python benchmarks/context_styles.py

Writes ``benchmarks/results/context_styles.{md,json}`` (``--tag`` appends to the file names, for a
run of another commit from a worktree).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guardrail import Guard  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"

#: (name, passage, faithful answer, wrong answer)
CASES = [
 ("md_bullets",
  "# Norvik R2 delivery robot\n\n## Specifications\n- Weight: 450 kg\n- Top speed: 12 km/h\n- Battery life: 8 hours\n\n## Maker\nNorvik Robotics builds the R2 in Trondheim.",
  "The Norvik R2 weighs 450 kg and its battery lasts 8 hours.",
  "The Norvik R2 weighs 650 kg and its battery lasts 8 hours."),
 ("md_table",
  "## Leadership of Norvik Robotics\n\n| Name | Role | Joined |\n|---|---|---|\n| Anna Lind | Chief Executive Officer | 2015 |\n| Tomas Berg | Chief Technology Officer | 2018 |\n| Eva Holm | Chief Financial Officer | 2020 |",
  "Anna Lind is Norvik Robotics' chief executive officer; she joined in 2015.",
  "Tomas Berg is Norvik Robotics' chief executive officer; he joined in 2015."),
 ("html",
  "<html><body><h1>Harbour Bridge</h1><p>The Harbour Bridge opened to traffic in <b>1932</b>.</p><ul><li>Length: 1,149 m</li><li>Designer: John Bradfield</li></ul></body></html>",
  "The Harbour Bridge opened in 1932 and is 1,149 metres long.",
  "The Harbour Bridge opened in 1936 and is 1,149 metres long."),
 ("pdf_text",
  "The Vessel Museum was estab-\nlished in 1897 by the city\ncouncil of Lund. It holds\nabout 3,400 objects, most of\nthem donated by local families.",
  "The Vessel Museum was established in 1897 by Lund's city council and holds about 3,400 objects.",
  "The Vessel Museum was established in 1897 by Lund's city council and holds about 5,400 objects."),
 ("json_ctx",
  '{"company": "Norvik Robotics", "founded": 2011, "headquarters": "Trondheim", "employees": 340, "ceo": "Anna Lind"}',
  "Norvik Robotics was founded in 2011 and has 340 employees.",
  "Norvik Robotics was founded in 2011 and has 520 employees."),
 ("key_value",
  "Company: Norvik Robotics\nFounded: 2011\nHeadquarters: Trondheim, Norway\nEmployees: 340\nCEO: Anna Lind",
  "Norvik Robotics is headquartered in Trondheim, Norway.",
  "Norvik Robotics is headquartered in Bergen, Norway."),
 ("faq",
  "Q: How long is the warranty on the K3 kettle?\nA: The K3 kettle has a two-year warranty from the date of purchase.\nQ: Can I use it on an induction hob?\nA: No, the K3 is an electric kettle with its own base.",
  "The K3 kettle comes with a two-year warranty from the purchase date.",
  "The K3 kettle comes with a five-year warranty from the purchase date."),
 ("code_doc",
  "`connect(host, timeout=30)` opens a connection to the server. The `timeout` parameter is given in seconds and defaults to 30. If the server does not answer in time, `connect` raises `TimeoutError`.",
  "The timeout parameter of connect defaults to 30 seconds; when the server does not answer in time, it raises TimeoutError.",
  "The timeout parameter of connect defaults to 60 seconds; when the server does not answer in time, it raises TimeoutError."),
 ("title_lines",
  "Marta Oyelaran\nMarta Oyelaran (born 1978) is a Nigerian-Swedish architect.\nCareer\nShe designed the Kista Public Library, completed in 2014.",
  "Marta Oyelaran, born in 1978, designed the Kista Public Library, which was completed in 2014.",
  "Marta Oyelaran, born in 1978, designed the Kista Public Library, which was completed in 2009."),
 ("legal",
  "Section 4.2. The Tenant shall give the Landlord at least sixty (60) days' written notice before terminating this Agreement. Section 4.3. The security deposit of EUR 2,400 shall be returned within thirty (30) days after the end of the tenancy.",
  "The tenant must give at least 60 days' written notice before ending the agreement, and the EUR 2,400 deposit is returned within 30 days after the tenancy ends.",
  "The tenant must give at least 30 days' written notice before ending the agreement, and the EUR 2,400 deposit is returned within 30 days after the tenancy ends."),
 ("medical",
  "Adults: take 1 to 2 tablets every 4 to 6 hours as needed. Do not take more than 8 tablets in 24 hours. Not for children under 12 years.",
  "Adults can take one or two tablets every four to six hours, up to 8 tablets in 24 hours.",
  "Adults can take one or two tablets every two to three hours, up to 8 tablets in 24 hours."),
 ("chat_history",
  "User: My order #4411 hasn't arrived.\nAgent: I'm sorry about that. Order #4411 was shipped on 3 March with DHL and should arrive by 7 March.",
  "Order #4411 was shipped with DHL on 3 March and is expected by 7 March.",
  "Order #4411 was shipped with UPS on 3 March and is expected by 7 March."),
 # added 2026-11-29 (tenth session)
 ("wiki_citations",
  "The Halden Bridge is a stone arch bridge over the river Tista.[1] It was completed in 1932 after four years "
  "of work,[2] and its longest arch spans 48 metres.[1][3] The bridge carries a two-lane road[citation needed].",
  "The Halden Bridge over the Tista was finished in 1932, and its longest arch is 48 metres long.",
  "The Halden Bridge over the Tista was finished in 1932, and its longest arch is 84 metres long."),
 ("soft_hyphens",
  "The Kestrel 40 dehumidi\u00adfier removes up to 40 litres of moisture a day. Its water tank holds 6.5 litres "
  "and the unit switches itself off auto\u00admatically when the tank is full.",
  "The Kestrel 40 removes up to 40 litres of moisture a day and switches off automatically when its 6.5-litre tank is full.",
  "The Kestrel 40 removes up to 40 litres of moisture a day and switches off automatically when its 8.5-litre tank is full."),
 ("transcript",
  "[00:00:04] Host: Welcome back. Today we have Dr Mara Quist from the Lund Institute.\n"
  "[00:00:11] Quist: Thanks. Our survey counted 212 nesting pairs of white storks this spring.\n"
  "[00:00:19] Host: And last year?\n[00:00:21] Quist: Last year we counted 168 pairs.",
  "Dr Mara Quist said the survey counted 212 nesting pairs of white storks this spring, up from 168 last year.",
  "Dr Mara Quist said the survey counted 221 nesting pairs of white storks this spring, up from 168 last year."),
]


def main(argv: list[str] | None = None) -> int:
    """Entry point; see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tag", default="", help="suffix of the result files")
    args = ap.parse_args(argv)
    guard = Guard()
    rows = []
    for name, ctx, good, bad in CASES:
        for kind, answer in (("faithful", good), ("wrong", bad)):
            r = guard.check(answer, [ctx], log=False)
            rows.append({"format": name, "answer": kind, "right": r.passed == (kind == "faithful"),
                         "score": round(r.score, 3), "flagged": [n.text for n in r.flagged_nodes]})
    machine = f"{platform.machine()}, Python {platform.python_version()}"
    name = "context_styles" + (f"_{args.tag}" if args.tag else "")
    faithful = sum(r["right"] for r in rows if r["answer"] == "faithful")
    wrong = sum(r["right"] for r in rows if r["answer"] == "wrong")
    (RESULTS / f"{name}.json").write_text(json.dumps({"machine": machine, "rows": rows}, indent=1))
    lines = ["# Context styles (shipped default)", "",
             f"Machine: {machine}. `benchmarks/context_styles.py`; one passage per format.", "",
             f"Faithful answers passed: {faithful}/{len(CASES)}; wrong answers flagged: {wrong}/{len(CASES)}.", "",
             "| format | answer | judged right | score | flagged |", "|---|---|---|---|---|"]
    lines += [f"| {r['format']} | {r['answer']} | {'yes' if r['right'] else 'no'} | {r['score']:.2f} | "
              f"{', '.join(r['flagged'])} |" for r in rows]
    (RESULTS / f"{name}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
