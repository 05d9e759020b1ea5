"""The word lists, in one place: stop, function, polar, hedge and pronoun words.

Every English (or foreign) word list of the library lives here (tag sets such as spaCy labels
stay with their code). Each list keeps the contents its step was tuned with (changing one changes verdicts, so they
are not merged into one list); they only live here, named by what they are for.
"""

from __future__ import annotations

__all__ = ["LEADING_WORDS", "STOP_WORDS", "EVIDENCE_STOP_WORDS", "LABEL_STOP_WORDS", "POLAR_WORDS",
           "POLAR_FALLBACK_WORDS", "NEGATION_WORDS", "NEGATING_VERBS", "ANTONYM_PAIRS",
           "HEDGES", "ENGLISH_ONLY_WORDS", "FOREIGN_FUNCTION_WORDS", "ABBREVIATIONS", "PERSONAL_PRONOUNS",
           "NEUTER_PRONOUNS", "PLURAL_PRONOUNS", "RELATIVE_PRONOUNS", "ENTITY_LINK_STOP_WORDS", "NGRAM_SKIP_WORDS",
           "CHAT_FUNCTION_WORDS", "NON_ANSWER_WORDS", "DECLINE_WORDS", "PLEASANTRY_WORDS", "PLEASANTRY_HEADS",
           "VERDICT_WORDS", "LIGHT_VERBS", "RELATION_SKIP_WORDS", "VERB_SYNONYMS", "SYMMETRIC_VERBS", "PARTY_PREPOSITIONS",
           "DECLINE_PREAMBLES", "DECLINE_SOURCES", "DECLINE_SOURCE_VERBS", "DECLINE_SELF_VERBS",
           "DECLINE_SHORT", "DECLINE_TOPIC_WORDS", "DECLINE_BREAK_WORDS", "DECLINE_CLAUSE_VERBS",
           "OPINION_HEADS", "OPINION_MARKERS", "OPINION_WORDS"]

#: Words removed from the start of a label (repeatedly): articles, demonstratives,
#: possessive pronouns, quantifiers and wh-determiners.
LEADING_WORDS: frozenset[str] = frozenset(
    """the a an this that these those his her hers its their theirs our ours my
    your yours some any every each which what whose""".split()
)

#: A compact English stop-word list for :func:`content_tokens` (function words only).
STOP_WORDS: frozenset[str] = frozenset(
    """a an the and or but nor so yet if then than as of in on at to for from by
    with without about into onto over under after before between through during
    is am are was were be been being do does did done have has had having will
    would shall should can could may might must not no yes n't it its it's this
    that these those he she him her his hers they them their theirs we us our ours
    i me my mine you your yours who whom whose which what when where why how there
    here all any each every some such very also just only too more most other
    own same both either neither up down out off again once isn't aren't wasn't
    weren't don't doesn't didn't can't couldn't won't wouldn't hasn't haven't
    hadn't""".split()
)

#: Words left out of the evidence ranking (IDF overlap of claim and context sentences).
EVIDENCE_STOP_WORDS: frozenset[str] = frozenset(
    "the a an and or of to in on at for with by from is are was were be been it this that "
    "he she they we you i his her their its as not no but which who what when where how "
    "has have had do does did will would can could should there than then so if also".split()
)

#: Words dropped from node labels drawn in report pictures.
LABEL_STOP_WORDS: frozenset[str] = frozenset("the a an of in on at to for and or by with is was be".split())

#: Words that answer a polar question without asserting content of their own.
POLAR_WORDS: frozenset[str] = frozenset({"yes", "no", "yeah", "yep", "nope", "true", "false", "not", "neither"})

#: Answer words of a polar question; kept as fallback nodes although spaCy lists
#: some ("no", "not") as stop words, so a bare "No." is judged, not abstained on.
POLAR_FALLBACK_WORDS: frozenset[str] = frozenset({"yes", "no", "not", "yeah", "yep", "nope"})

#: Words that negate the predicate they attach to (the ``kg_negation`` check).
NEGATION_WORDS: frozenset[str] = frozenset({"not", "n't", "never", "no", "without", "none", "nor", "neither",
                                            "cannot", "nobody", "nothing"})

#: Verbs whose complement is negated ("stopped offering" = no longer offers).
NEGATING_VERBS: frozenset[str] = frozenset({"stop", "cease", "fail", "refuse", "avoid", "prevent", "deny",
                                            "decline", "lack", "omit", "halt", "quit"})

#: Opposite predicates (lemmas), read both ways; antonyms formed by a negative prefix
#: (un-, in-, dis-, non-...) are found without a list.
ANTONYM_PAIRS: frozenset[tuple[str, str]] = frozenset({
    ("allow", "forbid"), ("allow", "prohibit"), ("allow", "ban"), ("permit", "forbid"), ("permit", "prohibit"),
    ("permit", "ban"), ("increase", "decrease"), ("rise", "fall"), ("raise", "lower"), ("raise", "cut"),
    ("grow", "shrink"), ("gain", "lose"), ("win", "lose"), ("accept", "reject"), ("approve", "reject"),
    ("include", "exclude"), ("add", "remove"), ("open", "close"), ("start", "stop"), ("begin", "end"),
    ("buy", "sell"), ("import", "export"), ("enter", "leave"), ("arrive", "depart"), ("before", "after"),
    ("above", "below"), ("over", "under"), ("more", "less"), ("more", "fewer"), ("high", "low"),
    ("higher", "lower"), ("maximum", "minimum"), ("first", "last"), ("early", "late"), ("earlier", "later"),
    ("required", "optional"), ("mandatory", "optional"), ("public", "private"), ("same", "different"),
    ("success", "failure"), ("succeed", "fail"), ("pass", "fail"), ("true", "false"), ("hot", "cold"),
    ("strong", "weak"), ("stronger", "weaker"), ("positive", "negative"), ("internal", "external"),
    ("full", "empty"), ("free", "paid"), ("stay", "leave"), ("keep", "remove"), ("remain", "leave"),
    ("expand", "contract"), ("hire", "fire"), ("borrow", "lend"), ("inside", "outside"), ("always", "never"),
    ("increase", "reduce"), ("improve", "worsen"), ("profit", "loss"), ("surplus", "deficit"),
    ("on", "off"), ("enable", "disable"), ("confirm", "deny"), ("support", "oppose"), ("agree", "disagree"),
})

#: Predicates that state one relation between two parties (lemmas; a phrasal verb with its
#: particle, "set up"), so that a claim with the parties exchanged is a role swap whichever
#: of them it uses (``kg_roles``). A closed list of common relations: two verbs outside it
#: are compared by lemma only.
VERB_SYNONYMS: tuple[frozenset[str], ...] = tuple(frozenset(g.split(",")) for g in (
    "acquire,buy,purchase,take over", "beat,defeat,overcome,edge,outplay,knock out,eliminate",
    "found,establish,set up,start,launch,create,co-found", "succeed,replace", "employ,hire,recruit,sign,bring in",
    "lead,head,run,manage,chair", "own,control", "sue", "supply,provide", "pay,compensate",
    "appoint,name,nominate", "invite", "fund,finance,back,sponsor", "coach,train,teach,mentor",
    "kill,murder,assassinate", "write,author,compose,pen", "direct", "design", "discover",
    "invent", "sell", "overtake,surpass,outsell,outnumber,exceed", "precede", "follow", "inspire,influence",
))

#: Predicates that hold both ways ("A married B" = "B married A"): exchanged parties are no error.
SYMMETRIC_VERBS: frozenset[str] = frozenset(
    "marry,wed,meet,face,play,draw,tie,fight,battle,date,divorce,partner,merge,match,resemble,equal,"
    "know,collaborate,debate,share,split,trade,swap,exchange,join,accompany,contact,call,email,"
    "see,visit,encounter,neighbour,border,touch,rival".split(","))

#: Verbs whose party follows a preposition ("supplies lenses to Ardwyn", "lost the final to
#: Kowalczyk"): ``"<predicate> <preposition>"`` -> (the relation it states, whether its parties
#: are the other way round). "Ardwyn gets lenses from Halcott" is Halcott supplying Ardwyn;
#: "Tanaka lost to Kowalczyk" is Kowalczyk beating Tanaka.
PARTY_PREPOSITIONS: dict[str, tuple[str, bool]] = {
    "supply to": ("supply", False), "provide to": ("supply", False), "sell to": ("supply", False),
    "get from": ("supply", True), "receive from": ("supply", True), "obtain from": ("supply", True),
    "source from": ("supply", True), "buy from": ("supply", True), "purchase from": ("supply", True),
    "lose to": ("beat", True), "take over from": ("succeed", False),
    "lend to": ("lend", False), "borrow from": ("lend", True),
}

#: Hedges before a number or date ("about 40", "more than 3"): the value is approximate.
HEDGES: frozenset[str] = frozenset(
    "about around approximately roughly nearly almost some circa over under "
    "more than less than close to up to just".split()
)

#: Function words that are English and not function words of the other languages checked.
ENGLISH_ONLY_WORDS: frozenset[str] = frozenset(
    "the and or of to at for with by from is was are were been be it this that he she they we "
    "you i his her their its not yes but which who what when where has have had does did will "
    "would can could should there than then if".split()
)

#: Function words of French, Spanish, German, Italian, Portuguese and Dutch.
FOREIGN_FUNCTION_WORDS: frozenset[str] = frozenset(
    """le la les un une des du de et est sont été était il elle ils elles au aux par pour avec
    dans sur qui que ne pas oui non ce cette c'est l'on d'un d'une qu'il
    el los las una unos del y es son fue era por para con sí se su muy
    der die das den dem ein eine einer und ist sind war wurde wurden nicht mit von zu im auf
    für ja nein sie er auch
    lo gli di della è sono stato per che sì
    os as um uma da dos é são foi em com não sim
    het een en zijn werd niet met op voor nee a in no an""".split()
)

#: Words whose trailing period is not a sentence end ("Dr. Smith", "e.g. this").
ABBREVIATIONS: frozenset[str] = frozenset(
    "mr mrs ms dr prof st jr sr vs etc e.g i.e inc ltd co corp fig approx dept mt ft cf al "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)

#: Pronouns that refer back to a person (anaphora resolution of the triple extractor).
PERSONAL_PRONOUNS: frozenset[str] = frozenset("he she him her his hers himself herself".split())

#: Pronouns that refer back to a thing.
NEUTER_PRONOUNS: frozenset[str] = frozenset("it its itself".split())

#: Pronouns that refer back to a group.
PLURAL_PRONOUNS: frozenset[str] = frozenset("they them their theirs themselves".split())

#: Relative pronouns (resolved to the noun a relative clause hangs on).
RELATIVE_PRONOUNS: frozenset[str] = frozenset("who whom which that whose".split())

#: Words never linked to a graph entity by GGA's question and answer matching.
ENTITY_LINK_STOP_WORDS: frozenset[str] = frozenset(
    "a an the it its he she they them his her their this that these those "
    "who what which when where why how is are was were be i you we".split()
)

#: Articles and possessive determiners: they vary freely between a paraphrase and its
#: source ("has its head office" / "has head office") and state no fact, so the novelty
#: n-grams leave them out.
NGRAM_SKIP_WORDS: frozenset[str] = frozenset("the a an its his her their our my your this that these those".split())

#: Function and small-talk words: a claim made only of these (and evidence words) states no fact of its own.
CHAT_FUNCTION_WORDS: frozenset[str] = frozenset(
    "the a an and or of to in on at for with by from is are was were be been it this that he she they we you i "
    "his her their its as not no yes but which who what when where how has have had do does did will would can "
    "could should there than then so if also me my your our us them him about all any some more most very "
    "just really sure yes yeah ok okay well good great nice like love know think see one two new old first "
    "last many much out up down over after before because only own same other into through during "
    "thanks thank please hi hello oh wow cool fun favorite favourite agree lot movie book song".split()
)

#: Words that make a sentence decline to answer ("I don't know.", "Sorry, I'm not sure.").
NON_ANSWER_WORDS: frozenset[str] = frozenset(
    "know knows sure unsure sorry idea certain uncertain afraid unable cannot".split()
)

#: The only other words a declining sentence may hold. Deliberately narrow: a sentence with
#: any other word ("No, I don't think he was the first.") may state something and is scored.
DECLINE_WORDS: frozenset[str] = frozenset(
    "i i'm m am me my not no don t do does didn s re ve ll d can could really quite entirely completely "
    "totally exactly honestly so that this the a an to about of on it answer question information info "
    "enough have tell say help you with unfortunately sorry but well hmm ok okay oh thanks thank please "
    "at moment right now anything any".split()
)

#: Words that make a sentence a pleasantry around the answer ("Great question!", "I hope this
#: helps.", "Let me know if you need anything else."): it needs one of them ...
PLEASANTRY_HEADS: frozenset[str] = frozenset(
    "great good excellent interesting hope helps helpful glad happy welcome feel free certainly absolutely "
    "course let assist assistance clarification else "
    # closings ("Enjoy your visit!", "Thanks for asking!", "Good luck!", "Take care!", "Cheers!")
    "enjoy enjoying thanks thank luck cheers care fun pleasure nice wonderful lovely wishes bye goodbye "
    # apologies and offers around the answer ("Sorry for the confusion earlier.", "Good choice!")
    "sorry apologies apologize apologise choice pick "
    # sign-offs, thanks and greetings ("Best regards,", "Thanks for your patience!", "Hi there!")
    "regards patience hi hello hey clarify lol haha hehe lmao".split()
)

#: ... and every other word from here or :data:`DECLINE_WORDS`. A closed list, as for declines: a
#: sentence with any other word may state something and is scored.
PLEASANTRY_WORDS: frozenset[str] = PLEASANTRY_HEADS | frozenset(
    "question questions ask asking need needs further more other else additional details detail here s "
    "is are be what found there if your have has any anything can i'd love happy of for let's me know "
    "hear hearing from more always "
    # what a closing wishes well: "Have a nice day!", "Happy reading!", "Enjoy the movie!"
    "you it this a an the with and to too so much all again take stay safe day days evening weekend week "
    "trip visit time reading watching listening exploring cooking learning travels travelling "
    "traveling meal movie film book show asking chatting talking see soon "
    # "I hope that clears things up.", "Happy to dig into any of these points further."
    "confusion earlier mistake misunderstanding oversight clears clear things up makes sense dig into "
    "points point these those go deeper explain expand elaborate on "
    # "Feel free to reach out if you have any other questions.", "Let me know if you'd like me to ..."
    "reach out contact touch get d ll re ve like would best kind warm sincerely understanding everything "
    "unclear clarify".split()
)

#: Words that make a sentence one about the answer or the assistant, not the world ("As an AI
#: assistant, I can only go by the documents you shared.", "Here is a summary of the relevant
#: information."): it needs one of them ...
META_HEADS: frozenset[str] = frozenset(
    "i me my we our us you your ai assistant chatbot bot here below following let answer answers response reply "
    "summary overview recap rundown breakdown note disclaimer above "
    # advice to check the answer ("Always consult a professional ...", "Please double-check the details ...")
    "consult verify double "
    # the sources themselves: "That's the key information from the documents."
    "context contexts documents document docs passages passage sources source excerpts excerpt".split()
)

#: ... and every other word from here, :data:`META_HEADS`, :data:`PLEASANTRY_WORDS`, :data:`DECLINE_WORDS`
#: or :data:`NON_ANSWER_WORDS`. A closed list: a sentence with any other word may state something and is scored.
META_WORDS: frozenset[str] = frozenset(
    # the assistant and its sources
    "as an a the am is are was were be been being will would can could may might should must shall "
    "only just solely purely strictly entirely mainly go going goes went by on upon based base from in "
    "within of to for with without and or but shared share provided provide providing given give supplied "
    "uploaded attached retrieved above below following follows earlier previous "
    "information info documents document docs context contexts passages passage sources source sourced "
    "excerpts excerpt text texts material materials content data results result search "
    "relevant key main important essential brief short quick concise general simple high level "
    "details detail points point findings finding highlights facts overview summary summaries "
    "what which that this these those it its they them there here found find finding see look looked "
    "say says said state states stated according using use used uses rely relying draw drawing drawn "
    "language large model models real time access browse browsing internet web knowledge beyond outside "
    "training cutoff please note noted comes come came taken take pulled directly collected gathered "
    "compiled put together answer answering answered respond responding response reply replying "
    "question questions query best ability abilities help how i'll ll going summarize summarise "
    "summarized summarised summarizing summarising "
    # reasoning aloud: "Let's think step by step.", "Let me work through this carefully."
    "think thinking step steps carefully break down work through reason reasoning "
    # caveats about the sources: "Please verify with the original source for the latest details."
    "verify check confirm double original official latest current up date updated accurate accuracy "
    "cover covers covered address addresses addressed directly explicitly clearly mention mentions "
    "mentioned "
    # "In conclusion, that is what the documents say.", "The documents may not cover every case."
    "conclusion conclude sum short brief not every all each case cases situation situations fully "
    "completely "
    # caveats and disclaimers: "Note that details may vary.", "Disclaimer: this is not legal advice."
    "vary varies differ differs change changes subject disclaimer legal medical financial professional "
    "advice substitute consult qualified always before making decisions decision relying rely them "
    # what the search did not find: "I couldn't find anything else on this."
    "couldn t cannot nothing anything else further "
    # what the assistant did: "As requested, here is the information.", "I checked the documents for you."
    "requested request asked checked checking searched looked gist".split()
)

#: The words a bare verdict is made of ("No.", "Not really!", "It was!", "Sadly no.", "Partly!"),
#: with :data:`DECLINE_WORDS` and :data:`NON_ANSWER_WORDS`; a fragment with any other word ("Paris.",
#: "It is red.", "Shockingly short!") may be the answer itself and is scored.
VERDICT_WORDS: frozenset[str] = frozenset(
    "is are was were did does do has have had will would can could isn't aren't wasn't weren't didn't "
    "doesn't don't hasn't haven't won't wouldn't can't couldn't it's that's he she they we you too much "
    "yes no nope yeah yep yup not it that this sure indeed true false correct incorrect right wrong exactly "
    "maybe perhaps both neither either none all some only just quite really very pretty well oh ah alas "
    "sort kind sadly partly mostly largely probably possibly definitely absolutely certainly actually "
    "basically apparently surprisingly shockingly naturally obviously clearly technically roughly nearly "
    "almost hardly barely arguably generally usually sometimes rarely never always "
    # reactions: "I agree.", "Agreed!", "Wow!", "Oh cool!", "Haha!"
    "i agree agreed wow cool nice awesome great haha hehe lol yay ooh".split()
)

#: Light verbs: too general to be the predicate a negation is checked on.
LIGHT_VERBS: frozenset[str] = frozenset({"be", "have", "do", "get", "make", "take", "go", "say", "use"})

#: Auxiliaries and articles left out of a relation's words when it is matched to a KB predicate.
RELATION_SKIP_WORDS: frozenset[str] = frozenset("be is are was were been being has have had do does did the a an".split())

# --- declined answers (:mod:`guardrail.text.declines`): phrases, not single words, so that a
# real answer holding "not" or "no" is never read as a decline.

#: Openers that may precede a decline ("Sorry, but ...", "Based on the context, ...").
DECLINE_PREAMBLES: tuple[str, ...] = (
    "i am sorry", "sorry", "unfortunately", "i apologize", "i apologise", "apologies", "i am afraid",
    "regrettably", "based on the provided context", "based on the given context", "based on the context",
    "based on the provided documents", "based on the provided information", "based on the information provided",
    "according to the provided context", "according to the context", "from the provided context",
    "from the context", "from the given context",
)

#: What an answer may say is silent: "the (provided) context does not say".
DECLINE_SOURCES: tuple[str, ...] = (
    "context", "contexts", "document", "documents", "passage", "passages", "source", "sources", "text",
    "texts", "excerpt", "excerpts", "article", "articles", "information", "material", "materials",
    "retrieved documents", "provided information",
)

#: Verbs of "the context does not ...".
DECLINE_SOURCE_VERBS: tuple[str, ...] = (
    "say", "mention", "state", "contain", "include", "provide", "specify", "give", "indicate", "tell",
    "discuss", "cover", "address", "describe", "offer", "answer", "list", "reveal", "explain", "clarify",
    "detail", "identify", "have", "talk about", "refer to",
)

#: Verbs of "I cannot ..." / "I am unable to ...".
DECLINE_SELF_VERBS: tuple[str, ...] = (
    "answer", "tell", "say", "find", "determine", "provide", "confirm", "verify", "know", "give", "locate",
    "identify", "help", "infer", "deduce", "establish", "access",
)

#: Whole answers (a sentence each) that decline on their own.
DECLINE_SHORT: tuple[str, ...] = (
    "no idea", "unknown", "not sure", "unsure", "not known", "unclear", "cannot say", "cannot tell",
    "hard to say", "not stated", "not mentioned", "not specified", "not enough information",
    "insufficient information", "n/a", "no answer", "i cannot answer", "i do not know",
    "no information", "no information available", "not enough context", "insufficient context",
)

#: Words that may open what a decline is about ("... does not say when it opened").
DECLINE_TOPIC_WORDS: frozenset[str] = frozenset(
    "who whom whose what when where why how which whether if about regarding concerning on of".split())

#: Words after which a decline goes on to assert something ("I don't know, but it was 1921").
DECLINE_BREAK_WORDS: frozenset[str] = frozenset(
    "but however although though yet nevertheless nonetheless instead whereas except actually "
    "probably likely perhaps maybe guess think believe assume suspect".split())

#: Finite verbs that make a clause an assertion unless a topic word comes before them
#: ("I'm not sure it was 1921" asserts; "I'm not sure when it was" does not).
DECLINE_CLAUSE_VERBS: frozenset[str] = frozenset(
    "is was are were has had have did does do will would won became becomes held holds got made "
    "took gave lies lay opened founded built invented wrote published".split())

#: Words that make a sentence an evaluation (:func:`guardrail.text.opinions.opinion_sentence`):
#: it needs one of them ("good", "fair", "helpful", "like") ...
OPINION_HEADS: frozenset[str] = frozenset(
    "good great excellent fair reasonable sensible nice lovely wonderful fantastic amazing awesome brilliant "
    "impressive interesting helpful useful handy convenient simple easy straightforward neat cool generous "
    "solid smart clever decent worthwhile reassuring appealing attractive exciting enjoyable beautiful perfect "
    "bad poor unfair disappointing annoying frustrating confusing complicated awkward odd strange cool "
    "like likes love loves prefer appreciate".split())
#: ... a mark that the speaker gives it as their own ("personally", "I think", "to me") ...
OPINION_MARKERS: frozenset[str] = frozenset(
    "i i'm im i'd i've me my personally honestly frankly opinion "
    # a tag question asks the user to share it: "Pretty cool, right?", "Fantastic, isn't it?"
    "right isn't isnt".split())
#: ... and no word outside these, :data:`OPINION_HEADS` and :data:`PLEASANTRY_WORDS`. A closed list:
#: a sentence with a name, a number or any other content word may state something and is scored.
OPINION_WORDS: frozenset[str] = OPINION_HEADS | OPINION_MARKERS | frozenset(
    "think thinks find finds feel feels believe guess reckon say must would should could really quite very "
    "pretty rather fairly so such too overall definitely certainly genuinely truly actually kind sort bit "
    "that that's thats this it it's its s is was be been seems seem sounds sound looks look appears to in "
    "view how what which option options choice idea deal approach one thing things solution plan setup "
    "arrangement move way and but also as well not no just".split())
