"""What the English phrase cutter knows while it reads one description, token by token.

`english_phrases` walks the tokens once; each rule (`english_phrase_rules.*`) looks at the token in hand,
its neighbours and this state, and either takes the token (it returns True) or leaves it to the next
rule. The state is what a reader carries along a sentence: the words of the noun phrase being read
(`current`), the cue the next phrase will carry (`cue`, usually the function word or verb before it),
the last word that broke a phrase (`last_break`), and a few flags for constructions that span several
tokens ("the effect of X on Y", "compare X with Y", "relate X to Y", a whether-clause or a question).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.understanding import lexicon as lex
from agent.understanding.english_phrase_rules.phrase_roles import judged_test, people
from agent.understanding.phrase import Phrase

_VERSUS = frozenset({"versus", "vs", "vs."})


@dataclass
class PhraseReading:
    tokens: list[str]
    phrases: list[Phrase] = field(default_factory=list)  # the phrases cut so far
    current: list[str] = field(default_factory=list)  # the words of the phrase being read
    cue: str | None = None  # the cue the phrase being read will carry
    last_break: str | None = None  # the last word that ended a phrase or gave a cue
    effect_mode: bool = False  # "the effect of X on Y": X is the exposure, Y the outcome
    delivered_by: bool = False  # "by" after a participle of delivering was read: people after it deliver
    skip_of: bool = False  # "in terms of": its "of" is still to come
    skip_to: int = 0  # tokens before this index were read with the one before them ("as effective as")
    judged_after_how: str = ""  # "How effective is X": the adjective, whose subject follows the copula
    between: bool = False  # "the association between X and Y": its "and" is still to come
    purpose_opening: bool = (
        False  # the sentence opens with a purpose clause ("To reduce X, ..."): a comma ends it
    )
    compare_open: bool = False  # a verb of comparing was read in this sentence, its "with" not yet
    about_user: bool = False  # the sentence is about the user ("I'm a PhD student in hydrology")
    relating: bool = False  # "relate X to Y" was read up to X
    per_unit: bool = False  # "per" was read: the unit after it is no concept
    clause_open: str = ""  # "clause" after whether/if/that, "question" after an opening auxiliary
    clause_first: int = 0  # the index (in `phrases`) of the first phrase of the sentence or clause
    # the token in hand and its neighbours (lower-case; "." past the end)
    index: int = 0
    token: str = ""
    lower: str = ""
    previous_token: str = ""
    following: str = "."
    after_next: str = "."

    def read(self, index: int) -> None:
        """Take the token at `index` in hand."""
        tokens = self.tokens
        self.index, self.token = index, tokens[index]
        self.lower = self.token.lower()
        self.previous_token = tokens[index - 1].lower() if index else ""
        self.following = tokens[index + 1].lower() if index + 1 < len(tokens) else "."
        self.after_next = tokens[index + 2].lower() if index + 2 < len(tokens) else "."

    def flush(self) -> None:
        """End the phrase being read: it becomes a Phrase with the cue it was read under."""
        current = self.current
        # "X testing versus repeat Y" cut at its verbs: a "versus" at an edge lost its other side
        while current and current[0].lower() in _VERSUS:
            current.pop(0)
        while current and current[-1].lower() in _VERSUS:
            current.pop()
        if current and self.delivered_by:
            self.delivered_by = False
            if people(current):
                # "a programme delivered by lay counsellors": who delivers is part of the intervention
                self.phrases.append(
                    Phrase(
                        " ".join(current),
                        self.cue,
                        list(current),
                        "context",
                        after=self.last_break,
                        stop=self.index,
                    )
                )
                self.current = []
                return
        if current:
            said = "self" if self.about_user else self.cue
            judged = self.judged_after_how and said in lex.BE_FORMS
            if judged and self.judged_after_how not in lex.TEST_JUDGING_ADJECTIVES:
                # "How effective is exercise for X?": the subject judged effective is the intervention
                said = "exposure"
            self.phrases.append(
                Phrase(" ".join(current), said, list(current), after=self.last_break, stop=self.index)
            )
            if judged and self.judged_after_how in lex.TEST_JUDGING_ADJECTIVES:
                judged_test(self.phrases[-1])  # "How accurate is point-of-care ultrasound for X?"
        self.current = []
