"""A formatted answer gets the verdict of its plain form (issue 23: answer styles).

LLM answers come as Markdown: numbered and bulleted lists, bold values, headers, tables,
citation markers and pleasantries around the facts. The markup states nothing, so each
style must get the plain answer's verdict, the flagged node must be the wrong value, and
the result must hold the answer as written. Real spaCy and the shipped default guard.
"""

from __future__ import annotations

import pytest

from guardrail import Guard

pytestmark = pytest.mark.slow

CONTEXT = ("Norvik Robotics is a Swedish maker of warehouse robots founded in 2011 in Gothenburg. "
           "The company employs 340 people. Its chief executive officer is Ingrid Halvorsen, who took over "
           "from the founder Lars Ek in 2019. The Atlas lifter can carry loads of up to 450 kilograms and "
           "runs for ten hours on one charge.")
QUESTION = "Tell me about Norvik Robotics."
FACTS = ("Norvik Robotics was founded in 2011 in Gothenburg", "It employs {n} people",
         "The Atlas lifter carries up to 450 kilograms")

STYLES = {
    "plain": lambda f: ". ".join(f) + ".",
    "bullets": lambda f: "\n".join(f"- {x}" for x in f),
    "numbered": lambda f: "\n".join(f"{i}. {x}" for i, x in enumerate(f, 1)),
    "bold": lambda f: ". ".join(f).replace("2011", "**2011**").replace("people", "people**").replace(
        "It employs ", "It employs **") + ".",
    "citations": lambda f: " ".join(f"{x} [{i}]." for i, x in enumerate(f, 1)),
    "header": lambda f: "## Summary\n" + ". ".join(f) + ".",
    "chatty": lambda f: "Great question! " + ". ".join(f) + ". Let me know if you need anything else!",
    "attribution": lambda f: "According to the provided context, " + ". Based on the documents, ".join(f) + ".",
    "sources": lambda f: ". ".join(f) + " (Source: passage 1).\n\nSources: [1] Norvik fact sheet",
    "steps": lambda f: "\n".join(f"Step {i}: {x}." for i, x in enumerate(f, 1)),
    "lead_in": lambda f: "Here are the key facts:\n" + "\n".join(f"* {x}" for x in f),
    "labelled": lambda f: "TL;DR: " + f[1] + ".\n\n**Answer:** " + ". ".join(f) + ".",
    "qa": lambda f: "Q: What do we know about Norvik Robotics?\nA: " + ". ".join(f) + ".",
    "question_back": lambda f: ". ".join(f) + ". Would you like to know more about its products?",
    "trailing_attribution": lambda f: ", according to the context. ".join(f) + ", according to the context.",
    "context_silent": lambda f: ". ".join(f) + ". The context does not say how many of them are engineers.",
    "partial_decline": lambda f: "The documents do not mention its revenue, but " + f[0][0].lower() + f[0][1:] + ". "
    + ". ".join(f[1:]) + ".",
    "found": lambda f: "I found the following in the documents: " + ". ".join(f) + ".",
    "json": lambda f: '{"answer": "' + ". ".join(f) + '.", "sources": ["doc 1"], "confidence": 0.9}',
    "link": lambda f: ". ".join(f).replace("Norvik Robotics", "[Norvik Robotics](https://norvik.example.com)", 1) + ".",
    "html": lambda f: "<p>" + ". ".join(f).replace("2011", "<b>2011</b>") + ".</p>",
    "emoji": lambda f: "\u2705 " + ". ".join(f) + ". \U0001f680",
    "source_aside": lambda f: f[0] + " (per the company profile). " + ". ".join(f[1:]) + ".",
    "footnote": lambda f: ". ".join(f) + ".[^1]\n\n[^1]: Norvik fact sheet.",
    "semicolons": lambda f: "Key points: " + "; ".join(f) + ".",
    "stance": lambda f: "Funny enough, " + f[0][0].lower() + f[0][1:] + ". Believe it or not, " + f[1][0].lower()
    + f[1][1:] + ". " + f[2] + ", interestingly enough.",
    "verdict_opener": lambda f: "Sadly no. " + ". ".join(f) + ".",
    "closings": lambda f: "Thanks for asking! " + ". ".join(f) + ". Enjoy your visit, and have a great day! Cheers!",
    "ai_disclaimer": lambda f: "As an AI assistant, I can only go by the documents you shared. " + ". ".join(f) + ".",
    "meta_intro": lambda f: "Here is a summary of the relevant information. " + ". ".join(f)
    + ". This answer is based solely on the retrieved passages.",
    "link_citation": lambda f: " ".join(f"{x} ([source](https://docs.example.com/page-{i}))." for i, x in enumerate(f, 1)),
    "reasoning_aloud": lambda f: "Let's think step by step. According to Document 2, " + f[0][0].lower() + f[0][1:]
    + ". " + ". ".join(f[1:]) + ". Please verify with the original source for the latest details.",
    "self_rated": lambda f: " ".join(f"{x} (Document {i}, page 3).\u00b9" for i, x in enumerate(f, 1))
    + "\nConfidence: high",
    "apologetic": lambda f: "Sorry for the confusion earlier. Good choice! " + ". ".join(f)
    + ". I hope that clears things up. Happy to dig into any of these points further.",
    "json_escaped": lambda f: '{"answer": "\\u2022 ' + ".\\n\\u2022 ".join(f) + '."}',
    # fourteenth session: the speaker's view, a break-down opener, a restated question, disclaimers and offers
    "opinion": lambda f: ". ".join(f) + ". Honestly, that sounds great to me. That seems fair to me.",
    "break_down": lambda f: "Let me break this down: " + ". ".join(f) + ".",
    "you_asked": lambda f: "You asked: What do we know about Norvik Robotics? " + ". ".join(f) + ".",
    "disclaimers": lambda f: ". ".join(f) + ". Note that details may vary. Disclaimer: this is not legal advice.",
    "offers": lambda f: ". ".join(f) + ". Feel free to reach out if you have any other questions. Let me know if "
    "you'd like me to go into more detail on any of this.",
    "analysis_opener": lambda f: "Based on my analysis of the documents, " + f[0][0].lower() + f[0][1:] + ". As per "
    "the docs, " + f[1][0].lower() + f[1][1:] + ". I can confirm that " + f[2][0].lower() + f[2][1:] + ".",
    "advice_closing": lambda f: ". ".join(f) + ". I couldn't find anything else on this. Always consult a "
    "professional before making decisions. Please double-check the details before relying on them.",
    "sign_off": lambda f: ". ".join(f) + ". Thanks for your patience!\n\nBest regards,\nAssistant",
    "greeting_checked": lambda f: "Hi there! As requested, here is the information. I checked the documents for you. "
    + ". ".join(f) + ". Happy to clarify anything that's unclear.",
    "source_dash": lambda f: ". ".join(f) + ". [citation needed] \u2014 Source: company handbook",
    "reactions": lambda f: "Exactly! I agree. Wow, " + f[0][0].lower() + f[0][1:] + ". " + ". ".join(f[1:])
    + ". Pretty cool, right? lol",
    "bold_title_table": lambda f: "**Key facts**\n\n| Fact |\n|---|\n" + "\n".join(f"| {x} |" for x in f)
    + "\n\nP.S. Let me know if anything is unclear. #robots #faq",
    "paren_enum": lambda f: " ".join(f"({i}) {x}." for i, x in enumerate(f, 1)),
}
#: Styles whose faithful form is still flagged (issue 23, open): facts joined by dashes are read
#: as one long sentence, which the verifier scores as less supported.
KNOWN_GAPS = {
    "dashes": lambda f: f[0] + " \u2014 " + f[1][0].lower() + f[1][1:] + " \u2014 and " + f[2][0].lower() + f[2][1:] + ".",
}


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard()


_GAP = pytest.mark.xfail(strict=True, reason="one long sentence of three facts scores as less supported")


@pytest.mark.parametrize("style", sorted(STYLES) + [pytest.param(k, marks=_GAP) for k in sorted(KNOWN_GAPS)])
def test_style_gets_the_plain_verdict(guard, style):
    right = {**STYLES, **KNOWN_GAPS}[style]([f.format(n=340) for f in FACTS])
    wrong = {**STYLES, **KNOWN_GAPS}[style]([f.format(n=520) for f in FACTS])
    r_right = guard.check(right, [CONTEXT], QUESTION, log=False)
    r_wrong = guard.check(wrong, [CONTEXT], QUESTION, log=False)
    assert r_right.passed, (style, round(r_right.score, 3))
    assert not r_wrong.passed, (style, round(r_wrong.score, 3))
    assert r_right.answer == right and r_wrong.answer == wrong  # the answer as written
    flagged = [wrong[n.span.start:n.span.end] for n in r_wrong.flagged_nodes if n.span is not None]
    assert flagged and all("520" in t for t in flagged), flagged


@pytest.mark.parametrize("answer", ["You are welcome.", "Ok, great!", "Happy to help!"])
def test_an_answer_of_pleasantries_alone_is_not_flagged_for_them(guard, answer):
    r = guard.check(answer, [CONTEXT], "Thanks!", log=False)
    assert r.detector_scores["verifier"] == 0.0 and not r.flagged_nodes, r.detector_scores
