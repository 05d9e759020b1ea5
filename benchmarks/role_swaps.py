"""Role-swap probes (issue 23): a faithful rewording and the same facts with the parties exchanged.

Twelve invented contexts, each with a faithful answer (voice, synonym, clause order) and a wrong one
that binds the context's own names the wrong way round (exchanged parties, a title held by another
name, a rival party), checked with the shipped default ``Guard()``. Prints each verdict and the
totals; nothing is written.

    python benchmarks/role_swaps.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guardrail import Guard  # noqa: E402

#: (context, faithful answer, wrong answer)
PROBES = [
    ("Google acquired YouTube in 2006 for $1.65 billion.", "YouTube was bought by Google in 2006.", "YouTube bought Google in 2006."),
    ("Marta Kowalczyk defeated Ayumi Tanaka in the final on Sunday.", "Tanaka lost the final to Kowalczyk on Sunday.", "Tanaka beat Kowalczyk in the final on Sunday."),
    ("Nordvik Foods has agreed to acquire Krøll, the Danish snack maker.", "Nordvik Foods is buying Krøll.", "Krøll is acquiring Nordvik Foods."),
    ("In 2019 Anna Lind succeeded Tomas Berg as chair of the board.", "Anna Lind took over from Tomas Berg as chair in 2019.", "Tomas Berg succeeded Anna Lind as chair in 2019."),
    ("Microsoft acquired LinkedIn in 2016.", "LinkedIn was purchased by Microsoft in 2016.", "LinkedIn acquired Microsoft in 2016."),
    ("Arsenal beat Chelsea 2-1 at the Emirates.", "Chelsea lost 2-1 to Arsenal.", "Chelsea beat Arsenal 2-1 at the Emirates."),
    ("The Food Standards Agency fined Greenleaf Dairy £40,000.", "Greenleaf Dairy was fined £40,000 by the Food Standards Agency.", "Greenleaf Dairy fined the Food Standards Agency £40,000."),
    ("Maria Lopez is the chief executive of Brightwave. Tom Reed is its chief technology officer.", "Brightwave's chief executive is Maria Lopez.", "Tom Reed is the chief executive of Brightwave."),
    ("Maria Lopez is the chief executive of Brightwave. Tom Reed is its chief technology officer.", "Tom Reed is Brightwave's chief technology officer.", "Maria Lopez is the chief technology officer of Brightwave."),
    ("YouTube was founded in 2005 by Chad Hurley, Steve Chen and Jawed Karim. Google acquired it in 2006.", "Steve Chen co-founded YouTube in 2005.", "Chad Hurley founded Google in 2005."),
    ("Dr Priya Nair supervised Liam Ortega's doctoral thesis at Leeds.", "Liam Ortega's doctorate at Leeds was supervised by Priya Nair.", "Liam Ortega supervised Priya Nair's doctoral thesis at Leeds."),
    ("Halcott Scientific supplies lenses to Ardwyn Optics.", "Ardwyn Optics gets its lenses from Halcott Scientific.", "Ardwyn Optics supplies lenses to Halcott Scientific."),
]


def main() -> int:
    """Check every probe with the shipped default and print the verdicts."""
    g = Guard()
    g.warm_up()
    fp = caught = 0
    for ctx, ok, bad in PROBES:
        a = g.check(ok, [ctx])
        b = g.check(bad, [ctx])
        fp += not a.passed
        caught += not b.passed
        print(f"{'ok ' if a.passed else 'FP '}{a.score:.2f} {ok}")
        print(f"{'CAUGHT' if not b.passed else 'missed'} {b.score:.2f} {bad} {[n.text for n in b.flagged_nodes]}")
    print(f"faithful flagged {fp}/{len(PROBES)}, swaps caught {caught}/{len(PROBES)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
