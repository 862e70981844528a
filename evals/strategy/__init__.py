"""`python -m evals.strategy`: the generated PubMed strategy against expert strategies (issue 16).

For every topic of CLEF TAR 2018 (42 training topics carried over from 2017, 30 test topics of 2018)
and of the Seed collection (40 topics; topic 42 is suspect, so Seed is also reported without it), the
review title is the description; the generator writes a PubMed query (by default the product's
`agent.keywords.plan.plan_search` with the rules, no LLM, and the offline MeSH file given by `--mesh`, loaded
once); the query is compared with the expert's. Rules may be chosen on `clef_train`, on the 414
`librarian` topics (the 15 written second also as `librarian2`, the 15 written third as `librarian3`,
the 15 harder ones written fourth as `librarian4`, the 15 as hard as Seed's written fifth as
`librarian5`, sixth as `librarian6`, seventh as `librarian7`, the ten diagnostic-accuracy titles
written eighth as `librarian8`, the fifteen Seed-like titles written ninth as `librarian9` and ten more
diagnostic-accuracy titles written tenth as `librarian10`, ten titles with a population given by age
written eleventh as `librarian11`, ten Seed-like titles of services, policy and the workforce written
twelfth as `librarian12`, ten more written thirteenth as `librarian13`, ten more written fourteenth as
`librarian14`, eight written fifteenth as `librarian15`, ten written sixteenth as `librarian16`, eight
written seventeenth as `librarian17`, ten written eighteenth as `librarian18`, eight written nineteenth as
`librarian19`, ten written twentieth as `librarian20`, ten written twenty-first as `librarian21`, ten written
twenty-second as `librarian22`, ten written twenty-third as `librarian23`, ten written twenty-fourth as `librarian24`, ten written twenty-fifth as `librarian25`, ten written twenty-sixth as `librarian26`, ten written twenty-seventh as `librarian27`, ten written twenty-eighth as `librarian28`, ten written twenty-ninth as `librarian29`, ten written thirtieth as `librarian30`, ten written thirty-first as `librarian31`, ten written thirty-second as `librarian32`, ten written thirty-third as `librarian33`, ten written thirty-fourth as `librarian34`, ten written thirty-fifth as `librarian35`, ten written thirty-sixth as `librarian36`, ten written thirty-seventh as `librarian37`; intervention, exposure, prognosis, prevalence, programme and qualitative reviews with
the query a librarian would write,
`librarian_dev.jsonl`) and on the 150 `engineering` topics outside medicine (the 10 written second also
as `engineering2`, the 10 written third as `engineering3`, the 10 written fourth as `engineering4`, the
5 written fifth as `engineering5`, the 10 written sixth as `engineering6`, the 10 written seventh as
`engineering7`, the 10 written eighth as `engineering8`, the 10 written ninth as `engineering9`, the 10 written tenth as `engineering10`, the 10 written eleventh as `engineering11`, the 10 written twelfth as `engineering12`, the 10 written thirteenth as `engineering13`, the 10 written fourteenth as `engineering14`, the 10 written fifteenth as `engineering15`;
`engineering_dev.jsonl`: the blocks an information specialist would search, in PubMed's syntax; block
coverage is their figure) and on the 456 `descriptions` (researchers' descriptions as typed into the
product, `description_dev.jsonl`; the 24 written second also as `descriptions2`, the 24 written third as `descriptions3`, the 24 written fourth as `descriptions4`, the 24 written fifth as `descriptions5`, the 24 written sixth as `descriptions6`, the 24 written seventh as `descriptions7`, the 24 written eighth as `descriptions8`, the 24 written ninth as `descriptions9`, the 24 written tenth as `descriptions10`, the 24 written eleventh as `descriptions11`, the 24 written twelfth as `descriptions12`, the 24 written thirteenth as `descriptions13`, the 24 written fourteenth as `descriptions14`, the 24 written fifteenth as `descriptions15`, the 24 written sixteenth as `descriptions16`, the 24 written seventeenth as `descriptions17`, the 24 written eighteenth as `descriptions18`, the 24 written nineteenth as `descriptions19`) only (see `topics.py`); `clef_test` and `seed` are measured, never tuned on.
Data: `../shared/data/boolean_queries` (see `topics.py`).

Options: `--split train|test|seed|librarian|engineering|descriptions|descriptions2|descriptions3|descriptions4|descriptions5|descriptions6|descriptions7|descriptions8|descriptions9|descriptions10|descriptions11|descriptions12|descriptions13|descriptions14|descriptions15|descriptions16|descriptions17|descriptions18|descriptions19|all`, `--generator module:function` (see `generate.py`),
`--mesh PATH`, `--show N` (title, expert and generated query side by side for N topics),
`--json FILE` (every figure and its details per topic), `--limit N` (first N topics of each split).

How queries are read (`pubmed_syntax.py`): a tolerant tokenizer and left-to-right parser (PubMed has
no operator precedence). Quoted phrases, field tags (`[mesh]`, `[mesh:noexp]`, `[MeSH Terms]`,
`[majr]`, `[tiab]`, `[Title/Abstract]`, `[Text Word]`, `[tw]`, `[All Fields]`, `[ti]`, `[pt]`, `[sh]`,
`[au]`, dates, ...), truncation, nested parentheses, lowercase operators, Ovid `adj`, a leading `*`
(major topic) and isotope prefixes such as `[11C]` are understood; unbalanced parentheses are
closed at the end or skipped, and recorded as issues.

Figures, per topic, then the mean over the topics of a split where the figure is defined:

1. `syntax_valid`: 1 when the generated query has no syntax issue: balanced parentheses and quotes,
   only known field tags, no empty group, no tag after a group, no operator without an operand or
   lowercase/Ovid operator (a "bare Boolean word" in a term), no two terms without an operator, no
   `?` wildcard, at least one term. Goal: 1.000 (100 %).
2. `mesh_recall` / `mesh_precision` (primary): the MeSH headings of a query are its terms tagged as
   MeSH (`[mesh]`, `[mh]`, `[mesh:noexp]`, `[MeSH Terms]`, `[majr]`; not `[sh]` subheadings; not inside
   the excluded side of a NOT; for the expert, not in a filter block of 4., such as the "Cohort
   Studies"[Mesh] of a study-design filter, which the generator is asked not to write), each normalised to its descriptor through the MeSH file: exact
   case-insensitive match on heading, entry term or permuted term, else on the normalised form (see
   `vocabulary.py`), a `/subheading` suffix ignored. Headings that match nothing are kept as their own
   text and listed in `--json` (`unresolved_*`). recall = |expert ∩ generated| / |expert| (topics with
   no expert heading are left out); precision = |expert ∩ generated| / |generated|, undefined when the
   generated query has no heading or the expert used none: such topics are left out of the mean and
   counted (`mesh_precision_undefined`).
   Goals: recall >= 0.9 x `ceiling`, precision >= 0.70.
   `mesh_recall_explode` / `mesh_precision_explode`: the same, but two headings also match when one is
   an ancestor of the other in some MeSH tree (a tree number of one is a prefix of one of the other's).
3. `ceiling` (recognition ceiling): the share of the expert's headings (resolved or not) that the title
   names: one of the descriptor's heading, entry terms, permuted terms or un-inverted forms
   ("Diabetes, Gestational" -> "Gestational Diabetes") occurs in the title as a run of whole words after
   normalisation (case, accents, apostrophes, hyphens = spaces, British/American spelling, plural).
   The issue expects about 0.25 on CLEF and 0.21 on Seed.
4. `block_coverage` / `strict_block_coverage`: the expert's concept blocks are the operands of its
   top-level AND (AND groups flattened through parentheses, the excluded side of a NOT dropped). When
   that gives fewer than two concept blocks (a query that is one OR), the AND group inside with the most
   concept blocks is used (the first of equals), among those holding at least half of the query's
   concept terms; failing that, the whole query is one block. Filter
   blocks are set aside and counted in `--json`: blocks with no MeSH or free-text term (authors, dates,
   languages) and study-design filters (at least half of the terms are publication types or design
   words: randomised, trial, controlled, blind, cohort, prospective, meta-analysis, review, ... see
   `metrics._DESIGN`; placebo and sham are comparators, not designs). A block's terms are its MeSH terms (normalised to descriptors) and free-text terms
   (untagged, `[tiab]`, `[ti]`, `[ab]`, `[tw]`, `[All Fields]`, `[ot]`, substance names). An expert
   term and a generated term match when they are equal after normalisation, name the same descriptor
   (a free-text term names every descriptor one of whose terms it is), or, when either is truncated,
   agree word by word with the truncated stem a prefix of the other word (`rapid diagnos* test*` ~
   "rapid diagnostic tests"). `block_coverage`: share of expert blocks with a term matching any
   generated term. `strict_block_coverage`: the generated blocks are the top-level AND operands of the
   generated query (an OR at the top is one block); a maximum bipartite matching between expert and
   generated blocks that share a matching term (each generated block covers at most one expert block)
   divided by the number of expert blocks. Goal: strict >= 0.60.
5. `invented_acronym_share`: generated free-text terms that are an all-capital acronym (2 to 6
   letters, digits allowed, an optional plural `s`) attested nowhere: not a word of the description,
   not a heading/entry/permuted term of any MeSH descriptor, not a word of the expert query; divided by
   all generated terms. Goal: 0.
6. `malformed` (total count of distinct bad words per topic, summed over the split): generated
   free-text words with `-es` added to a -sis/-itis word (`Sepsises`), to a Latin -us word known to
   MeSH whose `-uses` form MeSH does not know (`mellituses`), `-s` added to an -is/-us word
   (same test), a plural of a form already plural (`criterias`, `vertebraes`), a "singular" made by
   dropping the `-s` of an -is/-us word (`sepsi`, `mellitu`: a word ending in -i/-u that is neither a
   heading word nor used by two descriptors, while the word + s is a MeSH word; `-a` words are left
   alone because `endometrioma` and `bia` cannot be told apart this way), truncation
   after fewer than 4 letters, truncation of a function word (`versu*`), `*` inside a word, or
   truncation of a word before the last one inside a quoted phrase. Goal: 0.
7. `review_blocks` (count over the split): generated top-level AND blocks made only of study-design
   terms (publication types, meta-analysis, systematic review, review, randomised controlled trial,
   diagnostic accuracy study, cohort study, ...). A search *for* primary studies must not require
   them. Goal: 0.
8. Length: `chars_generated` / `chars_expert` and `terms_generated` / `terms_expert` (means).

Also counted: `unresolved_generated_headings` (generated `[Mesh]` terms that are no MeSH 2024
descriptor, summed), `mesh_precision_undefined`, `generator_errors` (topics where the generator
raised; they are scored as an empty query).

The run ends with `RESULT <split>_<figure> <value>` lines and `RESULT strategy_seconds`.

`python -m evals.strategy.headings` dumps every heading the generator would write with its features and
whether the expert used it, prints the precision of each feature value, and fits and compares a
calibrated decision of which headings to write on the training splits (`--dump`, `--table`, `--compare`,
`--fit`; tried, not shipped: `evals/strategy/heading_features.py`).
"""

from evals.strategy.runner import main

__all__ = ["main"]
