"""Which glossary rows the product renders the same way without them (`python -m evals.bilingual.glossary_audit`).

Why: `agent/language/data/zh_en_glossary.tsv` is a supplement for the senses CC-CEDICT lacks or gets
wrong for research text, not a second dictionary. A row whose word CC-CEDICT and composition already
render exactly as the row does (same renderings, same order, with and without MeSH as the judge, same
modifier forms when the word modifies a head) costs a reader's attention and adds nothing: this audit
lists such rows, so they can be removed, and the glossary's cap in
`tests/agent/language/test_bilingual.py` can stay a rule about content rather than size.

A row is kept (never listed) when it carries a modifier form or a tag (those are senses or roles CC-CEDICT
does not state), when CC-CEDICT gives the word a sense the row does not (a judge may choose it inside a
composition: removing 水平 "level" made 血清尿酸水平 "serum uric acid standard" and lowered the understanding
eval), when CC-CEDICT lacks the whole word (segmentation prefers known words, so the row
decides how sentences are cut), or when the word's rendering changes without it. Rows are removed
together and checked again together until the set is stable: two rows may lean on each other.

    python -m evals.bilingual.glossary_audit [--no-mesh]

prints one redundant headword a line (then a count). The understanding and bilingual evals decide
whether removing them is safe; this audit only says where to look. It does not see segmentation, which
prefers glossary words where cuts tie: of the 28 rows it listed in session 33, 温度 "temperature" stayed
(without it 海表温度 was cut apart and the understanding dev cases lost a concept).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Iterable, Sequence

from agent.language import bilingual, cedict
from agent.language.cedict import GlossaryEntry

Attested = Callable[[str], bool]


def _clear_caches() -> None:
    """Forget every memoised result that may depend on the glossary (per-word caches of agent.language)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("agent.language") or module is None:
            continue
        for value in vars(module).values():
            info = getattr(value, "cache_info", None)
            if isinstance(value, functools._lru_cache_wrapper) and info is not None:
                maxsize = info().maxsize
                if maxsize is not None and maxsize >= 1024:
                    value.cache_clear()


def _signature(word: str, judges: Iterable[Attested | None]) -> tuple[object, ...]:
    """What the product makes of `word`: its renderings under each judge, and its part's nouns and modifiers."""
    renderings = tuple(bilingual.render(word, judge).english for judge in judges)
    part = bilingual._word_part(word)
    shape = (part.nouns, part.modifiers, part.people) if part is not None else None
    return (renderings, shape)


def _candidates(glossary: dict[str, GlossaryEntry], entries: dict[str, str]) -> list[str]:
    """Rows with no modifier form or tag whose word CC-CEDICT knows with no sense but the row's: where
    CC-CEDICT offers another sense ("level", "standard", "horizontal" for 水平), a judge may pick it inside a
    composition (血清尿酸水平 "serum uric acid standard"), so the row decides the word's sense there."""
    return [
        word
        for word, entry in glossary.items()
        if not entry.modifiers
        and not entry.people
        and not entry.affix
        and word in entries
        and {sense.text for sense in cedict.dictionary_senses(word)} <= set(entry.english)
    ]


def redundant_rows(attested: Attested | None, words: Iterable[str] | None = None) -> list[str]:
    """Headwords (of `words`, default all) whose rendering is the same with and without their glossary row
    (the glossary is restored afterwards)."""
    lex = cedict.lexicon()
    full = dict(lex.glossary)
    judges: tuple[Attested | None, ...] = (None, attested) if attested is not None else (None,)
    _clear_caches()
    candidates = _candidates(full, lex.entries)
    if words is not None:
        wanted = set(words)
        candidates = [word for word in candidates if word in wanted]
    baseline = {word: _signature(word, judges) for word in candidates}
    try:
        removable = []
        for word in candidates:  # each row alone
            lex.glossary = {k: v for k, v in full.items() if k != word}
            _clear_caches()
            if _signature(word, judges) == baseline[word]:
                removable.append(word)
        while removable:  # all of them together, until no row depends on another removed one
            gone = set(removable)
            lex.glossary = {k: v for k, v in full.items() if k not in gone}
            _clear_caches()
            still = [word for word in removable if _signature(word, judges) == baseline[word]]
            if still == removable:
                break
            removable = still
        return removable
    finally:
        lex.glossary = full
        _clear_caches()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.bilingual.glossary_audit", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--no-mesh", action="store_true", help="judge without the embedded MeSH vocabulary")
    args = parser.parse_args(argv)
    attested: Attested | None = None
    if not args.no_mesh:
        from agent.language.term_company import company_of
        from agent.understanding.slot_translation import embedded_vocabulary

        vocabulary = embedded_vocabulary()
        attested = company_of(vocabulary) if vocabulary is not None else None
    rows = redundant_rows(attested)
    for word in rows:
        print(word)
    print(f"{len(rows)} of {len(cedict.lexicon().glossary)} glossary rows render the same without them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
