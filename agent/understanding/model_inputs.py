"""What a model or a predicting task learns from: its inputs are the signal features.

"predict injuries from training loads", "a random forest trained on slope and rainfall", "estimate
erosion from Sentinel-2 shoreline positions": the frame (a task, then "from"; a model "trained on" or
"fitted on") makes what follows the data the model reads. Which part is a feature and which is a
method follows from the words themselves, not from a list of features:

- a variable (lower-case words whose head names no instrument, analysis or dataset, and no MeSH
  descriptor) is a feature, even when its head word alone would read as an outcome ("received signal
  strength", "shoreline positions": under this frame they are read, not predicted);
- a name that opens a phrase of three words or more ("Sentinel-2 shoreline positions", "MODIS aerosol
  optical depth") is the instrument or mission the variable comes from: the method, and the words after
  it the feature ("Argo floats", "ISIC archive" are names of one thing);
- "X Y data" is the variable X Y, measured (the data noun says how it was had, not what it is; "wearable
  data" is no variable);
- what a model is trained on and names by a plural head word with no slot is a kind of record ("nursing
  flowsheets"), a method; a variable trained on is singular ("slope", "packet delivery ratio") or its head
  word says it is a quantity;
- anything else (a named dataset, an instrument by its head word, an acronym alone) stays a method.
"""

from __future__ import annotations

from agent.language.morphology import is_acronym, singular
from agent.understanding.phrase import Phrase
from agent.understanding.slot_evidence import LEARNED_ON, en_head_slot, mesh_kind

# slots a phrase may have been given by its cue or head word and still be an input of the frame
_INPUT_SHAPED = frozenset({"method_measurement", "output_target", "signal_feature"})
# head words that only say the variable was recorded ("training load data")
_DATA_NOUNS = frozenset({"data"})
# head words of a body of records, which is what a model learns from, not a variable ("a modern
# training set", "the image archive")
_DATA_CONTAINERS = frozenset(
    {"set", "sets", "archive", "archives", "collection", "collections", "repository", "registry"}
)


def _name(word: str) -> bool:
    """ "Sentinel-2", "GPS", "MODIS", "Landsat": a name or acronym, not a lower-case word."""
    return (
        is_acronym(word)
        or (word[:1].isupper() and any(c.isdigit() or c.isupper() for c in word[1:]))
        or (word[:1].isupper() and word[1:].islower() and len(word) > 2)
    )


def _variable(words: list[str]) -> bool:
    """Lower-case words naming a quantity: no instrument, analysis or dataset by head word or MeSH."""
    if not words or not all(w.islower() for w in words) or words[-1] in _DATA_CONTAINERS:
        return False
    text = " ".join(words)
    return en_head_slot(words) in {None, "output_target", "signal_feature"} and mesh_kind(text) in {
        None,
        "output_target",
    }


def in_learning_frame(phrase: Phrase, task_before: bool) -> bool:
    """The phrase is what a model learns from: "trained on X", or "from X" after a task."""
    return phrase.cue == LEARNED_ON or (phrase.cue == "from" and task_before)


def model_inputs(phrase: Phrase, found: list[tuple[str, str]]) -> list[tuple[str, str]] | None:
    """The (slot, term) pairs of a phrase in a learning frame, or None when its words say it is no
    variable (a named dataset, an instrument, people)."""
    if not found or any(slot not in _INPUT_SHAPED for slot, _ in found):
        return None
    words = list(phrase.words)
    name = []
    if len(words) > 2 and _name(words[0]) and words[1].islower():
        name, words = [words[0]], words[1:]
    if len(words) > 2 and words[-1].lower() in _DATA_NOUNS:
        words = words[:-1]
    if not _variable(words):
        return None
    if phrase.cue == LEARNED_ON and en_head_slot(words) is None and singular(words[-1]) != words[-1]:
        return None  # "trained on nursing flowsheets": kinds of record (plural), not a variable
    instrument = [("method_measurement", word) for word in name]
    return [*instrument, ("signal_feature", " ".join(words))]


__all__ = ["in_learning_frame", "model_inputs"]
