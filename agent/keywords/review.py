"""Keyword review: the user's edits to a keyword plan, applied with as few outside calls as possible.

Edits (`KeywordEdit`, discriminated by `op`): add, delete or rename a canonical term, add or remove a
synonym, switch a facet on or off (or make it required or optional). Only added and renamed terms are
expanded again (MeSH, OpenAlex, Wikidata/Wikipedia, LLM, morphology, hit counts); a synonym the user adds
is counted once so its hits can be shown, and kept whatever they are; nothing else touches a source.
`apply_edits` returns the new plan and a `PlanDiff`: terms, synonyms, facets and query items added or
removed, readable as text (`PlanDiff.text()`).

`parse_edit_text` reads plain-text edits from chat clients, one per line or separated by ";", in English
or Chinese ("add term: speech synthesis", "remove synonym BCI from brain-computer interface",
"rename ECoG to electrocorticography", "disable facet context", "添加关键词：语音合成", "删除 BCI").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, computed_field, field_validator

from agent.keywords.concepts import concept_for_term, new_term
from agent.keywords.querybuild import build_queries
from agent.keywords.synonyms import Session, SynonymSources, count_hits, expand_terms, variant_key
from agent.language.morphology import singular
from agent.language.text import clean_term, has_content, normalize_whitespace, to_half_width
from agent.llm import LLM
from agent.models import LIST_SLOT_NAMES, Concept, Facet, KeywordPlan, Source, Synonym, SynonymOrigin, Term
from agent.understanding.facets import effective_facets, facets_for_terms
from agent.understanding.rules import classify_phrase

# ----------------------------------------------------------------------------------------------
# Edits
# ----------------------------------------------------------------------------------------------


class _Edit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("text", "term", "new", "synonym", mode="before", check_fields=False)
    @classmethod
    def _tidy(cls, value: Any) -> Any:
        return clean_term(value) if isinstance(value, str) else value

    @field_validator("slot", mode="before", check_fields=False)
    @classmethod
    def _known_slot(cls, value: Any) -> Any:
        if value is None or not isinstance(value, str):
            return value
        slot = resolve_slot(value)
        if slot is None:
            raise ValueError(f"unknown slot {value!r}; use one of {', '.join(LIST_SLOT_NAMES)}")
        return slot


class AddTerm(_Edit):
    op: Literal["add_term"] = "add_term"
    text: str = Field(min_length=1)
    slot: str | None = None  # None: the slot the phrase's head word suggests
    concept: str | None = None  # a concept's id or label to OR it into; None: a concept of its own


class DeleteTerm(_Edit):
    op: Literal["delete_term"] = "delete_term"
    term: str = Field(min_length=1)


class RenameTerm(_Edit):
    op: Literal["rename_term"] = "rename_term"
    term: str = Field(min_length=1)
    new: str = Field(min_length=1)


class AddSynonym(_Edit):
    op: Literal["add_synonym"] = "add_synonym"
    term: str = Field(min_length=1)
    synonym: str = Field(min_length=1)


class RemoveSynonym(_Edit):
    op: Literal["remove_synonym"] = "remove_synonym"
    synonym: str = Field(min_length=1)
    term: str | None = None  # None: whichever term has this synonym


class ToggleFacet(_Edit):
    op: Literal["toggle_facet"] = "toggle_facet"
    slot: str
    enabled: bool | None = None  # None with required None: flip enabled
    required: bool | None = None


class SetConcept(_Edit):
    """Make a concept required (AND'ed) or optional, or switch it off altogether."""

    op: Literal["set_concept"] = "set_concept"
    concept: str = Field(min_length=1)  # id or label
    required: bool | None = None
    enabled: bool | None = None


class MoveTerm(_Edit):
    """OR a term into another concept, or split it into a concept of its own (`concept` None)."""

    op: Literal["move_term"] = "move_term"
    term: str = Field(min_length=1)
    concept: str | None = None


class MergeConcepts(_Edit):
    """One concept from several: their terms are OR'ed in the first one."""

    op: Literal["merge_concepts"] = "merge_concepts"
    concepts: list[str] = Field(min_length=2)


class SetStudyFilter(_Edit):
    """Switch the filter for a kind of study (one the description asked for) on or off."""

    op: Literal["set_study_filter"] = "set_study_filter"
    filter: str = Field(min_length=1)  # its text, as the plan lists it
    enabled: bool | None = None  # None: flip it


AnyEdit = Annotated[
    AddTerm
    | DeleteTerm
    | RenameTerm
    | AddSynonym
    | RemoveSynonym
    | ToggleFacet
    | SetConcept
    | MoveTerm
    | MergeConcepts
    | SetStudyFilter,
    Field(discriminator="op"),
]


class KeywordEdit(RootModel[AnyEdit]):
    """One review edit; validates `{"op": "add_term", ...}` into the right edit model (`.root`)."""


def _unwrap(edit: KeywordEdit | BaseModel) -> BaseModel:
    return edit.root if isinstance(edit, KeywordEdit) else edit


# ----------------------------------------------------------------------------------------------
# Diff
# ----------------------------------------------------------------------------------------------


class QueryChange(BaseModel):
    before: str = ""
    after: str = ""
    added: list[str] = Field(default_factory=list)  # OR items new in the query
    removed: list[str] = Field(default_factory=list)


class PlanDiff(BaseModel):
    terms_added: list[str] = Field(default_factory=list)
    terms_removed: list[str] = Field(default_factory=list)
    terms_renamed: list[tuple[str, str]] = Field(default_factory=list)
    synonyms_added: dict[str, list[str]] = Field(default_factory=dict)
    synonyms_removed: dict[str, list[str]] = Field(default_factory=dict)
    facets_changed: list[str] = Field(default_factory=list)
    concepts_changed: list[str] = Field(default_factory=list)
    queries: dict[str, QueryChange] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    outside_calls: int = 0  # requests to outside services the edits needed (0 for deletions and toggles)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> str:
        """The readable form, included when the diff is sent to a client as JSON."""
        return self.text()

    @property
    def empty(self) -> bool:
        return not (
            self.terms_added
            or self.terms_removed
            or self.terms_renamed
            or self.synonyms_added
            or self.synonyms_removed
            or self.facets_changed
            or self.concepts_changed
            or self.queries
        )

    def text(self) -> str:
        """The change as lines a person reads: "+ term: ...", "- synonym: ...", "~ PubMed query: ..."."""
        lines = [f"+ term: {t}" for t in self.terms_added]
        lines += [f"- term: {t}" for t in self.terms_removed]
        lines += [f"~ term: {old} -> {new}" for old, new in self.terms_renamed]
        for term, items in self.synonyms_added.items():
            lines += [f"+ synonym of {term}: {s}" for s in items]
        for term, items in self.synonyms_removed.items():
            lines += [f"- synonym of {term}: {s}" for s in items]
        lines += [f"~ facet {f}" for f in self.facets_changed]
        lines += [f"~ concept {c}" for c in self.concepts_changed]
        for source, change in self.queries.items():
            parts = [f"+{a}" for a in change.added] + [f"-{r}" for r in change.removed]
            lines.append(f"~ {source} query: " + (", ".join(parts) if parts else "reordered"))
        lines += [f"! {w}" for w in self.warnings]
        return "\n".join(lines) if lines else "no change"


_ITEM = re.compile(r'"[^"]*"(?:\[[^\]]+\])?|[^\s()|+,"]+(?:\[[^\]]+\])?')
_OPERATORS = frozenset({"AND", "OR", "NOT", "+", "|"})


def _query_items(query: str) -> list[str]:
    query = query.replace("title_and_abstract.search:", " ")
    return [item for item in _ITEM.findall(query) if item not in _OPERATORS]


def _diff_queries(before: KeywordPlan, after: KeywordPlan) -> dict[str, QueryChange]:
    old, new = build_queries(before).queries, build_queries(after).queries
    out: dict[str, QueryChange] = {}
    for source in Source:
        a = old[source].query if source in old else ""
        b = new[source].query if source in new else ""
        if a == b:
            continue
        items_a, items_b = _query_items(a), _query_items(b)
        out[source.value] = QueryChange(
            before=a,
            after=b,
            added=[i for i in dict.fromkeys(items_b) if i not in items_a],
            removed=[i for i in dict.fromkeys(items_a) if i not in items_b],
        )
    return out


def _kept(term: Term) -> list[str]:
    return [s.text for s in term.kept_synonyms()]


def _diff_plans(before: KeywordPlan, after: KeywordPlan, renamed: list[tuple[str, str]]) -> PlanDiff:
    old_terms = {variant_key(t.canonical): t for t in before.terms}
    new_terms = {variant_key(t.canonical): t for t in after.terms}
    renamed_old = {variant_key(a) for a, _ in renamed}
    renamed_new = {variant_key(b) for _, b in renamed}
    diff = PlanDiff(terms_renamed=list(renamed))
    diff.terms_added = [
        t.canonical for k, t in new_terms.items() if k not in old_terms and k not in renamed_new
    ]
    diff.terms_removed = [
        t.canonical for k, t in old_terms.items() if k not in new_terms and k not in renamed_old
    ]
    pairs = [(old_terms[k], t) for k, t in new_terms.items() if k in old_terms]
    pairs += [
        (old_terms[variant_key(a)], new_terms[variant_key(b)])
        for a, b in renamed
        if variant_key(a) in old_terms and variant_key(b) in new_terms
    ]
    pairs += [
        (Term(canonical=t.canonical, slot=t.slot), t) for t in after.terms if t.canonical in diff.terms_added
    ]
    for old, new in pairs:
        added = [s for s in _kept(new) if s not in _kept(old)]
        removed = [s for s in _kept(old) if s not in _kept(new)]
        if added:
            diff.synonyms_added[new.canonical] = added
        if removed:
            diff.synonyms_removed[new.canonical] = removed
    old_concepts = {c.id: c for c in before.concepts}
    for concept in after.concepts:
        was = old_concepts.get(concept.id)
        members = sorted(t.canonical for t in after.terms_of(concept.id))
        moved = was is not None and members != sorted(t.canonical for t in before.terms_of(concept.id))
        if was is None or moved or (was.enabled, was.required) != (concept.enabled, concept.required):
            state = "off" if not concept.enabled else ("required" if concept.required else "optional")
            diff.concepts_changed.append(f"{concept.label}: {state} ({' OR '.join(members)})")
    diff.concepts_changed += [f"{c.label}: removed" for c in before.concepts if not after.concept(c.id)]
    old_facets = {f.slot: f for f in effective_facets(before)} if not after.concepts else {}
    for facet in effective_facets(after) if not after.concepts else []:
        was_facet = old_facets.get(facet.slot)
        if was_facet is None or (was_facet.enabled, was_facet.required) != (facet.enabled, facet.required):
            state = "off" if not facet.enabled else ("required" if facet.required else "optional")
            diff.facets_changed.append(f"{facet.slot}: {state}")
    diff.queries = _diff_queries(before, after)
    return diff


# ----------------------------------------------------------------------------------------------
# Applying edits
# ----------------------------------------------------------------------------------------------


def _find(plan: KeywordPlan, text: str) -> Term | None:
    key = variant_key(text)
    return next((t for t in plan.terms if variant_key(t.canonical) == key), None)


def _facet(plan: KeywordPlan, slot: str) -> Facet:
    for facet in plan.facets:
        if facet.slot == slot:
            return facet
    facet = next((f for f in facets_for_terms(plan.terms) if f.slot == slot), Facet(slot=slot))
    plan.facets.append(facet)
    plan.facets.sort(key=lambda f: LIST_SLOT_NAMES.index(f.slot) if f.slot in LIST_SLOT_NAMES else 99)
    return facet


def _concept(plan: KeywordPlan, name: str | None) -> Concept | None:
    """A concept by id or label (case-insensitive), or the concept of the term so named."""
    if not name:
        return None
    key = variant_key(name)
    for concept in plan.concepts:
        if concept.id == name or variant_key(concept.label) == key:
            return concept
    term = _find(plan, name)
    return plan.concept(term.concept) if term else None


def _own_concept(plan: KeywordPlan, term: Term) -> Concept:
    """A new concept for `term`, required or optional by the role its slot gives it."""
    concept = concept_for_term(term, {c.id for c in plan.concepts})
    plan.concepts.append(concept)
    return concept


def _drop_empty_concepts(plan: KeywordPlan) -> None:
    used = {t.concept for t in plan.terms}
    plan.concepts = [c for c in plan.concepts if c.id in used]


def _number_free(text: str) -> str:
    """A phrase's key in either number ("randomised controlled trial" names the filter "... trials")."""
    return " ".join(singular(word) for word in variant_key(text).split())


def _set(concept: Concept, enabled: bool | None, required: bool | None, reason: str) -> None:
    if enabled is None and required is None:
        concept.enabled = not concept.enabled
    if enabled is not None:
        concept.enabled = enabled
    if required is not None:
        concept.required = required
        concept.enabled = concept.enabled or required
    concept.reason = reason


async def apply_edits(
    plan: KeywordPlan, edits: Sequence[KeywordEdit | BaseModel], llm: LLM, sources: Any
) -> tuple[KeywordPlan, PlanDiff]:
    """The edited plan and what changed; synonyms are regenerated for added and renamed terms only."""
    new = plan.model_copy(deep=True)
    session = Session(SynonymSources.coerce(sources))
    warnings: list[str] = []
    renamed: list[tuple[str, str]] = []
    to_expand: list[Term] = []  # new Term objects in `new.terms` that need synonyms
    user_synonyms: list[Synonym] = []  # added by the user: counted, never dropped
    term: Term | None

    for raw in edits:
        edit = _unwrap(raw)
        if isinstance(edit, AddTerm):
            if _find(new, edit.text):
                warnings.append(f"'{edit.text}' is already a term")
                continue
            slot = edit.slot or classify_phrase(edit.text)
            term = new_term(edit.text, slot)
            if new.concepts:
                target = _concept(new, edit.concept) if edit.concept else None
                if edit.concept and target is None:
                    warnings.append(
                        f"there is no concept '{edit.concept}'; '{edit.text}' is a concept of its own"
                    )
                term.concept = target.id if target else _own_concept(new, term).id
            else:
                _facet(new, slot)
            new.terms.append(term)
            to_expand.append(term)
        elif isinstance(edit, DeleteTerm):
            term = _find(new, edit.term)
            if term is None:
                warnings.append(f"there is no term '{edit.term}' to delete")
                continue
            new.terms = [t for t in new.terms if t is not term]
            to_expand = [t for t in to_expand if t is not term]
            _drop_empty_concepts(new)
        elif isinstance(edit, RenameTerm):
            term = _find(new, edit.term)
            if term is None:
                warnings.append(f"there is no term '{edit.term}' to rename")
                continue
            if variant_key(edit.new) == variant_key(term.canonical):
                if edit.new != term.canonical:
                    term.canonical = edit.new  # only the spelling changes: no new expansion
                continue
            if _find(new, edit.new):
                warnings.append(f"'{edit.new}' is already a term; delete '{edit.term}' instead")
                continue
            mine = [s for s in term.synonyms if SynonymOrigin.USER in s.origins and s.kept]
            replacement = Term(canonical=edit.new, slot=term.slot, synonyms=mine, concept=term.concept)
            new.terms[new.terms.index(term)] = replacement
            to_expand = [replacement if t is term else t for t in to_expand]
            if term not in to_expand:
                to_expand.append(replacement)
            renamed.append((term.canonical, edit.new))
        elif isinstance(edit, AddSynonym):
            term = _find(new, edit.term)
            if term is None:
                warnings.append(f"there is no term '{edit.term}' to add a synonym to")
                continue
            existing = next(
                (s for s in term.synonyms if variant_key(s.text) == variant_key(edit.synonym)), None
            )
            if existing is None:
                existing = Synonym(text=edit.synonym, origins=[SynonymOrigin.USER])
                term.synonyms.insert(0, existing)
            elif SynonymOrigin.USER not in existing.origins:
                existing.origins.insert(0, SynonymOrigin.USER)
            existing.kept, existing.reason = True, ""
            if term not in to_expand:
                user_synonyms.append(existing)
        elif isinstance(edit, RemoveSynonym):
            found = False
            for term in new.terms:
                if edit.term and variant_key(term.canonical) != variant_key(edit.term):
                    continue
                for synonym in term.synonyms:
                    if variant_key(synonym.text) == variant_key(edit.synonym) and synonym.kept:
                        synonym.kept, synonym.reason, found = False, "removed in the review", True
            if not found:
                where = f" of '{edit.term}'" if edit.term else ""
                warnings.append(f"there is no synonym '{edit.synonym}'{where} to remove")
        elif isinstance(edit, SetConcept):
            concept = _concept(new, edit.concept)
            if concept is None:
                warnings.append(f"there is no concept '{edit.concept}'")
                continue
            _set(concept, edit.enabled, edit.required, "changed in the review")
        elif isinstance(edit, MoveTerm):
            term = _find(new, edit.term)
            target = _concept(new, edit.concept) if edit.concept else None
            if term is None or (edit.concept and target is None):
                missing = f"term '{edit.term}'" if term is None else f"concept '{edit.concept}'"
                warnings.append(f"there is no {missing} to move to or from")
                continue
            term.concept = target.id if target else _own_concept(new, term).id
            _drop_empty_concepts(new)
        elif isinstance(edit, MergeConcepts):
            named = [_concept(new, name) for name in edit.concepts]
            if any(c is None for c in named):
                names = [n for n, c in zip(edit.concepts, named, strict=True) if c is None]
                warnings.append("there is no concept " + ", ".join(f"'{n}'" for n in names) + " to merge")
                continue
            first, *rest = [c for c in named if c is not None]
            for term in new.terms:
                if any(term.concept == c.id for c in rest):
                    term.concept = first.id
            _drop_empty_concepts(new)
        elif isinstance(edit, SetStudyFilter):
            study = next(
                (f for f in new.study_filters if _number_free(f.text) == _number_free(edit.filter)), None
            )
            if study is None:
                listed = ", ".join(f"'{f.text}'" for f in new.study_filters) or "none"
                warnings.append(f"there is no study filter '{edit.filter}' (the plan has: {listed})")
                continue
            study.enabled = not study.enabled if edit.enabled is None else edit.enabled
        elif isinstance(edit, ToggleFacet) and new.concepts:
            slot_concepts = {t.concept for t in new.terms if t.slot == edit.slot}
            for concept in new.concepts:
                if concept.id in slot_concepts:
                    _set(
                        concept,
                        edit.enabled,
                        edit.required,
                        f"the {edit.slot} slot was changed in the review",
                    )
        elif isinstance(edit, ToggleFacet):
            facet = _facet(new, edit.slot)
            if edit.enabled is None and edit.required is None:
                facet.enabled = not facet.enabled
            if edit.enabled is not None:
                facet.enabled = edit.enabled
            if edit.required is not None:
                facet.required = edit.required
                facet.enabled = facet.enabled or edit.required

    if to_expand:
        others = [t.canonical for t in new.terms if all(t is not e for e in to_expand)]
        expansion = await expand_terms(to_expand, llm, session, context_canonicals=others)
        replaced = dict(zip((id(t) for t in to_expand), expansion.terms, strict=True))
        new.terms = [replaced.get(id(t), t) for t in new.terms]
        new.notes = [*new.notes, *expansion.notes]
        new.fields_of_study = list(dict.fromkeys([*new.fields_of_study, *expansion.fields_of_study]))
    for synonym in user_synonyms:
        if not synonym.hits:
            synonym.hits = await count_hits(session, synonym.text)
        if (
            synonym.hits
            and all(n == 0 for n in synonym.hits.values() if n is not None)
            and any(n is not None for n in synonym.hits.values())
        ):
            warnings.append(f"'{synonym.text}' has no hits; it is kept because you added it")
    if session.errors:
        known = {(e.source, e.kind) for e in new.source_errors}
        new.source_errors = [
            *new.source_errors,
            *(e for e in session.errors if (e.source, e.kind) not in known),
        ]
    diff = _diff_plans(plan, new, renamed)
    diff.warnings = warnings
    diff.outside_calls = session.calls
    return new, diff


# ----------------------------------------------------------------------------------------------
# Plain-text edits
# ----------------------------------------------------------------------------------------------

_SLOT_ALIASES: dict[str, str] = {
    "task": "task",
    "tasks": "task",
    "measurement": "method_measurement",
    "measurements": "method_measurement",
    "method measurement": "method_measurement",
    "recording": "method_measurement",
    "algorithm": "method_algorithm",
    "algorithms": "method_algorithm",
    "method algorithm": "method_algorithm",
    "model": "method_algorithm",
    "population": "subject_population",
    "subject population": "subject_population",
    "subjects": "subject_population",
    "subject": "subject_population",
    "feature": "signal_feature",
    "features": "signal_feature",
    "signal feature": "signal_feature",
    "signal": "signal_feature",
    "output": "output_target",
    "output target": "output_target",
    "target": "output_target",
    "outcome": "output_target",
    "context": "context",
    "setting": "context",
    "application": "context",
    "任务": "task",
    "研究任务": "task",
    "测量": "method_measurement",
    "测量方法": "method_measurement",
    "采集方法": "method_measurement",
    "算法": "method_algorithm",
    "模型": "method_algorithm",
    "研究对象": "subject_population",
    "对象": "subject_population",
    "人群": "subject_population",
    "特征": "signal_feature",
    "信号特征": "signal_feature",
    "输出": "output_target",
    "输出目标": "output_target",
    "结局": "output_target",
    "场景": "context",
    "背景": "context",
    "应用背景": "context",
    "应用场景": "context",
}


def resolve_slot(text: str) -> str | None:
    """A slot name from its own name or a common alias ("population", "测量方法"); None if unknown."""
    key = normalize_whitespace(to_half_width(text)).strip().lower().replace("_", " ")
    if key.replace(" ", "_") in LIST_SLOT_NAMES:
        return key.replace(" ", "_")
    return _SLOT_ALIASES.get(key)


_Q = r"[\"'“”‘’「」]?"
_X = r"(?P<{}>.+?)"
_SLOT_NAME = r"(?P<slot>[A-Za-z_ ]+?|[\u4e00-\u9fff]+)"

_EN_PATTERNS: list[tuple[str, str]] = [
    (
        rf"^add (?:a )?synonyms? {_Q}{_X.format('synonym')}{_Q} (?:to|for) (?:the )?(?:term )?{_Q}{_X.format('term')}{_Q}$",
        "add_synonym",
    ),
    (
        rf"^(?:remove|delete|drop) (?:the )?synonyms? {_Q}{_X.format('synonym')}{_Q} (?:from|of|for) (?:the )?(?:term )?{_Q}{_X.format('term')}{_Q}$",
        "remove_synonym",
    ),
    (rf"^(?:remove|delete|drop) (?:the )?synonyms? {_Q}{_X.format('synonym')}{_Q}$", "remove_synonym"),
    (
        rf"^(?:rename|change|replace) (?:the )?(?:term |keyword )?{_Q}{_X.format('term')}{_Q} (?:to|into|with|as|->|=>) {_Q}{_X.format('new')}{_Q}$",
        "rename_term",
    ),
    (
        rf"^(?:switch on|turn on|enable|use|apply) (?:the )?(?:study[- ]type )?filter:? {_Q}{_X.format('filter')}{_Q}$",
        "filter_on",
    ),
    (
        rf"^(?:switch off|turn off|disable|remove|drop) (?:the )?(?:study[- ]type )?filter:? {_Q}{_X.format('filter')}{_Q}$",
        "filter_off",
    ),
    (
        rf"^split:? (?:the )?(?:term )?{_Q}{_X.format('term')}{_Q}(?: into a concept of its own| off)?$",
        "split",
    ),
    (
        rf"^move (?:the )?(?:term )?{_Q}{_X.format('term')}{_Q} (?:to|into|under) (?:the )?(?:concept )?{_Q}{_X.format('concept')}{_Q}$",
        "move",
    ),
    (
        rf"^merge (?:the )?(?:concepts? )?{_Q}{_X.format('term')}{_Q} (?P<how>and|with|into) {_Q}{_X.format('concept')}{_Q}$",
        "merge",
    ),
    (
        rf"^(?:disable|turn off|switch off|exclude|ignore) (?:the )?(?:facet |slot )?{_SLOT_NAME}(?: facet)?$",
        "facet_off",
    ),
    (
        rf"^(?:enable|turn on|switch on|include) (?:the )?(?:facet |slot )?{_SLOT_NAME}(?: facet)?$",
        "facet_on",
    ),
    (
        rf"^(?:make|set) (?:the )?(?:facet |slot )?{_SLOT_NAME}(?: facet)? (?P<state>required|optional)$",
        "facet_state",
    ),
    (rf"^(?:require) (?:the )?(?:facet |slot )?{_SLOT_NAME}(?: facet)?$", "facet_required"),
    (
        rf"^add (?:a |the )?(?:new )?(?:term|keyword|concept)s?:? {_Q}{_X.format('text')}{_Q}(?: (?:to|in|under|as) (?:the )?{_SLOT_NAME}(?: slot| facet)?)?$",
        "add_term",
    ),
    (rf"^add:? {_Q}{_X.format('text')}{_Q}$", "add_term"),
    (
        rf"^(?:remove|delete|drop) (?:the )?(?:term|keyword|concept)s?:? {_Q}{_X.format('term')}{_Q}$",
        "delete_term",
    ),
    (rf"^(?:remove|delete|drop):? {_Q}{_X.format('term')}{_Q}$", "delete_term"),
]
_ZH_PATTERNS: list[tuple[str, str]] = [
    # before renaming: "把 X 改为可选" makes X optional, it does not rename it
    (rf"^(?:把|将){_Q}{_X.format('term')}{_Q}(?:设为|改为|设置为)(?P<state>可选|必选|必需)$", "facet_state"),
    (
        rf"^(?:为|给){_Q}{_X.format('term')}{_Q}(?:添加|增加|加)同义词[:：]?\s*{_Q}{_X.format('synonym')}{_Q}$",
        "add_synonym",
    ),
    (
        rf"^(?:从){_Q}{_X.format('term')}{_Q}(?:中)?(?:删除|移除|去掉)同义词[:：]?\s*{_Q}{_X.format('synonym')}{_Q}$",
        "remove_synonym",
    ),
    (rf"^(?:删除|移除|去掉)同义词[:：]?\s*{_Q}{_X.format('synonym')}{_Q}$", "remove_synonym"),
    (
        rf"^(?:把|将){_Q}{_X.format('term')}{_Q}(?:改为|改成|替换为|重命名为)\s*{_Q}{_X.format('new')}{_Q}$",
        "rename_term",
    ),
    (rf"^(?:重命名)\s*{_Q}{_X.format('term')}{_Q}\s*(?:为)\s*{_Q}{_X.format('new')}{_Q}$", "rename_term"),
    (
        rf"^(?:启用|开启|打开|使用)(?:研究类型)?(?:筛选|过滤|过滤器)[:：]?\s*{_Q}{_X.format('filter')}{_Q}$",
        "filter_on",
    ),
    (
        rf"^(?:关闭|停用|取消)(?:研究类型)?(?:筛选|过滤|过滤器)[:：]?\s*{_Q}{_X.format('filter')}{_Q}$",
        "filter_off",
    ),
    (rf"^(?:拆分|拆开)[:：]?\s*{_Q}{_X.format('term')}{_Q}$", "split"),
    (
        rf"^(?:把|将){_Q}{_X.format('term')}{_Q}(?:移到|移入|并入){_Q}{_X.format('concept')}{_Q}(?:中|里)?$",
        "move",
    ),
    (rf"^合并[:：]?\s*{_Q}{_X.format('term')}{_Q}(?P<how>和|与){_Q}{_X.format('concept')}{_Q}$", "merge"),
    (rf"^(?:关闭|禁用|停用)(?:分面|维度|槽位)?[:：]?\s*{_SLOT_NAME}$", "facet_off"),
    (rf"^(?:开启|启用|打开)(?:分面|维度|槽位)?[:：]?\s*{_SLOT_NAME}$", "facet_on"),
    (rf"^(?:添加|增加|加入)(?:关键词|关键字|术语|检索词)?[:：]?\s*{_Q}{_X.format('text')}{_Q}$", "add_term"),
    (
        rf"^(?:删除|移除|去掉)(?:关键词|关键字|术语|检索词)?[:：]?\s*{_Q}{_X.format('term')}{_Q}$",
        "delete_term",
    ),
]
_COMPILED = [(re.compile(p, re.IGNORECASE), kind) for p, kind in _EN_PATTERNS + _ZH_PATTERNS]

EDIT_EXAMPLES = (
    "'add term: speech synthesis', 'remove synonym BCI from brain-computer interface', "
    "'add synonym ECoG to electrocorticography', 'rename ECoG to electrocorticography', "
    "'delete term: EEG', 'make nurses optional', 'require burnout', 'split ICU', 'merge ICU and nurses', "
    "'move ICU to nurses', 'switch on filter randomised controlled trials', 'disable facet context', "
    "or in Chinese '添加关键词：语音合成', '删除 BCI', '把 ECoG 改为 electrocorticography', '把 护士 设为可选', "
    "'合并 ICU 和 护士', '启用筛选 随机对照试验', '关闭 场景'"
)


def _edit_from(kind: str, groups: dict[str, str], line: str) -> BaseModel:
    slot_text = groups.get("slot") or groups.get("term")
    if kind in {"filter_on", "filter_off"}:
        return SetStudyFilter(filter=groups["filter"], enabled=kind == "filter_on")
    if kind == "split":
        return MoveTerm(term=groups["term"], concept=None)
    if kind == "move":
        return MoveTerm(term=groups["term"], concept=groups["concept"])
    if kind == "merge":
        into_second = groups.get("how") == "into"
        first, second = groups["term"], groups["concept"]
        return MergeConcepts(concepts=[second, first] if into_second else [first, second])
    says_facet = re.search(r"\b(?:facet|slot)\b|分面|维度|槽位", line, re.IGNORECASE) is not None
    if kind.startswith("facet") and resolve_slot(slot_text or "") is None and slot_text and not says_facet:
        # "make nurses optional", "require burnout", "disable Kenya": a concept, not a slot, is named
        state = groups.get("state", "").lower()
        if kind == "facet_off":
            return SetConcept(concept=slot_text, enabled=False)
        if kind == "facet_on":
            return SetConcept(concept=slot_text, enabled=True)
        return SetConcept(
            concept=slot_text, required=kind == "facet_required" or state in {"required", "必选", "必需"}
        )
    if kind.startswith("facet"):
        slot = resolve_slot(slot_text or "")
        if slot is None:
            raise ValueError(
                f"unknown facet {slot_text!r} in {line!r}; facets are {', '.join(LIST_SLOT_NAMES)}"
            )
        if kind == "facet_off":
            return ToggleFacet(slot=slot, enabled=False)
        if kind == "facet_on":
            return ToggleFacet(slot=slot, enabled=True)
        if kind == "facet_required":
            return ToggleFacet(slot=slot, required=True)
        return ToggleFacet(
            slot=slot, required=groups.get("state", "").lower() in {"required", "必选", "必需"}
        )
    if kind == "add_term":
        slot = resolve_slot(slot_text) if slot_text else None
        if slot_text and slot is None:
            raise ValueError(
                f"unknown slot {slot_text!r} in {line!r}; slots are {', '.join(LIST_SLOT_NAMES)}"
            )
        return AddTerm(text=groups["text"], slot=slot)
    if kind == "delete_term":
        return DeleteTerm(term=groups["term"])
    if kind == "rename_term":
        return RenameTerm(term=groups["term"], new=groups["new"])
    if kind == "add_synonym":
        return AddSynonym(term=groups["term"], synonym=groups["synonym"])
    return RemoveSynonym(synonym=groups["synonym"], term=groups.get("term"))


def parse_edit_text(text: str) -> list[KeywordEdit]:
    """Edits from plain text, one per line (or separated by ';'); ValueError naming a line it cannot read."""
    if not text or not has_content(text):
        raise ValueError(f"no edit found; write one edit per line, for example {EDIT_EXAMPLES}")
    edits: list[KeywordEdit] = []
    for raw_line in re.split(r"[\n;；]+", text):
        line = normalize_whitespace(raw_line).strip(" .。!！")
        line = re.sub(r"^(?:[-*•]|\d+[.)、])\s*", "", line)
        if not line:
            continue
        for pattern, kind in _COMPILED:
            match = pattern.match(line)
            if match:
                groups = {k: v.strip() for k, v in match.groupdict().items() if v is not None}
                edits.append(KeywordEdit(_edit_from(kind, groups, line)))
                break
        else:
            raise ValueError(
                f"could not understand the edit {line!r}; write one edit per line, for example {EDIT_EXAMPLES}"
            )
    if not edits:
        raise ValueError(f"no edit found; write one edit per line, for example {EDIT_EXAMPLES}")
    return edits
