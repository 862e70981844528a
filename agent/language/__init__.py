"""Words and vocabularies every stage shares: clean-up, English morphology, MeSH, Chinese -> English.

Owns: `text` (deterministic clean-up of descriptions and terms), `morphology` (plurals, spellings,
acronyms), `mesh_recognition` (the embedded MeSH vocabulary: descriptors recognised in text, their roles),
`mesh_tails` (phrases MeSH writes only as the end of its terms: "computed tomography"), `mesh_families` (a lone
word MeSH writes only at the head of inverted headings: "fractures" -> Fractures, Bone), `mesh_places` (a
place said with another noun of habitation than MeSH writes: "rural areas" -> Rural Population),
`cedict` (CC-CEDICT and the glossary in `data/`), `chinese_segmentation` (jieba re-cut by the dictionary;
drug and other names written by sound), `bilingual` (a Chinese phrase's English, from the dictionary or
composed from its parts), `chinese_sentences` (sentences cut into noun runs, rendered as English query
text), `drug_stems` (Chinese drug names -> their class by the WHO INN stem, `data/zh_inn_stems.tsv`).
May import: `agent` root modules and `tools` (the MeSH table). Nothing here knows about slots or queries.
"""
