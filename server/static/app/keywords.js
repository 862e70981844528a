// Keyword review: the plan's terms and synonyms (origin, hits, kept or dropped and why), facets, edits
// sent to the paused thread as {"edits": [...]}, and the three queries with a visible word diff against
// the queries before the last edit. Keys of the plan this page does not know (e.g. `concepts`) are shown
// as they come, so a richer plan still renders.

import { el } from "./dom.js";
import { t } from "./i18n.js";

const KNOWN = new Set(["kind", "terms", "facets", "concepts", "study_filters", "queries", "source_errors", "diff", "error", "expects"]);
const SLOTS = ["task", "method_measurement", "method_algorithm", "subject_population", "signal_feature", "output_target", "context"];
const SOURCE_ORDER = ["pubmed", "semantic_scholar", "openalex"];

// Query tokens: a quoted phrase with its field tag (`"speech decoding"[tiab]`), a bracket, a word, a space.
const TOKEN = /"[^"]*"(?:\[[^\]]*\])?\*?|[()]|[^\s()"]+|\s+|"/g;

function tokens(text) {
  return text.match(TOKEN) || [];
}

/** Word diff of two queries as [kind, text] pieces: "same", "add", "del". */
export function diffWords(before, after) {
  const a = tokens(before || "");
  const b = tokens(after || "");
  if (a.length * b.length > 4_000_000) return [["add", after]];
  const rows = a.length + 1;
  const cols = b.length + 1;
  const lcs = new Uint16Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * cols + j] = a[i] === b[j] ? lcs[(i + 1) * cols + j + 1] + 1 : Math.max(lcs[(i + 1) * cols + j], lcs[i * cols + j + 1]);
    }
  }
  const out = [];
  const push = (kind, text) => {
    const last = out[out.length - 1];
    if (last && last[0] === kind) last[1] += text;
    else out.push([kind, text]);
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push("same", a[i++]);
      j++;
    } else if (lcs[(i + 1) * cols + j] >= lcs[i * cols + j + 1]) push("del", a[i++]);
    else push("add", b[j++]);
  }
  while (i < a.length) push("del", a[i++]);
  while (j < b.length) push("add", b[j++]);
  return out;
}

function hitsText(hits) {
  return Object.entries(hits || {})
    .map(([source, n]) => `${t(`source.${source}`)} ${n ?? "?"}`)
    .join(" · ");
}

function slotName(slot) {
  const key = `slot.${slot}`;
  const text = t(key);
  return text === key ? slot : text;
}

function generic(value) {
  if (value === null || value === undefined) return el("span", { className: "muted", text: "–" });
  if (Array.isArray(value)) return el("ul", {}, value.map((item) => el("li", {}, generic(item))));
  if (typeof value === "object") {
    return el("dl", {}, Object.entries(value).flatMap(([key, item]) => [el("dt", { text: key }), el("dd", {}, generic(item))]));
  }
  return document.createTextNode(String(value));
}

function copyButton(text, label) {
  const button = el("button", { type: "button", className: "secondary small", "aria-label": `${t("kw.copy")} ${label}`, text: t("kw.copy") });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = el("textarea", {}, text);
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    button.textContent = t("kw.copied");
    setTimeout(() => (button.textContent = t("kw.copy")), 1500);
  });
  return button;
}

function inlineForm(label, buttonText, draftKey, onSubmit, extra = null) {
  const id = `f-${draftKey.replace(/[^a-z0-9]+/gi, "-")}`;
  const input = el("input", { id, "aria-label": label, placeholder: label });
  const saved = sessionStorage.getItem(`sm.draft.${draftKey}`);
  if (saved) input.value = saved;
  input.addEventListener("input", () => sessionStorage.setItem(`sm.draft.${draftKey}`, input.value));
  return el(
    "form",
    {
      className: "inline",
      onsubmit: (event) => {
        event.preventDefault();
        const value = input.value.trim();
        if (!value) {
          input.focus();
          return;
        }
        sessionStorage.removeItem(`sm.draft.${draftKey}`);
        onSubmit(value, extra ? extra.value : undefined);
      },
    },
    [input, extra, el("button", { type: "submit", className: "secondary small", text: buttonText })],
  );
}

/** The concept a term is OR'ed in, as a select: choosing another moves the term (move_term). */
function conceptPicker(term, concepts, edit) {
  const own = "__own__"; // a value no concept id takes (ids are slugs)
  const select = el(
    "select",
    {
      "aria-label": t("kw.conceptOf", { term: term.canonical }),
      dataset: { term: term.canonical },
      onchange: (event) => edit([{ op: "move_term", term: term.canonical, concept: event.target.value === own ? null : event.target.value }]),
    },
    [
      ...concepts.map((c) => el("option", { value: c.id, text: c.label, selected: c.id === term.concept })),
      el("option", { value: own, text: t("kw.ownConcept") }),
    ],
  );
  return select;
}

/** Concepts (the query's blocks): required or optional, on or off, merged; study types asked for. */
function conceptsPanel(payload, concepts, terms, edit) {
  const rows = concepts.map((concept) => {
    const members = terms.filter((term) => term.concept === concept.id).map((term) => term.canonical);
    return el("div", { className: "concept", dataset: { concept: concept.id } }, [
      el("div", { className: "row wrap" }, [
        el("strong", { text: concept.label }),
        el("span", { className: "badge", text: concept.role }),
        el("label", {}, [
          el("input", { type: "checkbox", checked: concept.required, onchange: (e) => edit([{ op: "set_concept", concept: concept.id, required: e.target.checked }]) }),
          ` ${t("kw.required")}`,
        ]),
        el("label", {}, [
          el("input", { type: "checkbox", checked: concept.enabled, onchange: (e) => edit([{ op: "set_concept", concept: concept.id, enabled: e.target.checked }]) }),
          ` ${t("kw.enabled")}`,
        ]),
      ]),
      el("div", { className: "muted small", text: [members.join(" OR "), concept.reason].filter(Boolean).join(" · ") }),
    ]);
  });
  const parts = [el("legend", { text: t("kw.concepts") }), el("p", { className: "muted small", text: t("kw.conceptsHelp") }), ...rows];
  if (concepts.length > 1) {
    const options = () => concepts.map((c) => el("option", { value: c.id, text: c.label }));
    const into = el("select", { "aria-label": t("kw.mergeInto") }, options());
    const from = el("select", { "aria-label": t("kw.mergeFrom") }, options());
    from.value = concepts[1].id;
    const error = el("span", { className: "error small", role: "alert" });
    parts.push(
      el(
        "form",
        {
          className: "inline merge",
          onsubmit: (event) => {
            event.preventDefault();
            if (into.value === from.value) {
              error.textContent = t("kw.mergeSame");
              return;
            }
            edit([{ op: "merge_concepts", concepts: [into.value, from.value] }]);
          },
        },
        [el("span", { text: t("kw.mergeFrom") }), from, el("span", { text: t("kw.mergeIntoText") }), into, el("button", { type: "submit", className: "secondary small", text: t("kw.merge") }), error],
      ),
    );
  }
  const filters = payload.study_filters || [];
  if (filters.length) {
    // a kind of study the description asked for: off until the user switches it on (then AND'ed)
    parts.push(
      el("div", { className: "study-filters small" }, [
        el("strong", { text: `${t("kw.studyFilters")}: ` }),
        ...filters.map((f) =>
          el("label", { dataset: { filter: f.text } }, [
            el("input", { type: "checkbox", checked: Boolean(f.enabled), onchange: (e) => edit([{ op: "set_study_filter", filter: f.text, enabled: e.target.checked }]) }),
            ` ${f.text}${f.heading ? ` (MeSH ${f.heading})` : ""} `,
          ]),
        ),
      ]),
    );
  }
  return el("fieldset", { className: "concepts" }, parts);
}

/**
 * Render the review interrupt into `root`. `edit(edits)` sends edits; `query(options)` accepts the plan and
 * starts the Run. `previous` are the queries shown before the last edit (for the diff).
 */
export function renderReview(root, payload, { edit, query, previous, threadId }) {
  const terms = payload.terms || [];
  const concepts = payload.concepts || [];
  const queries = (payload.queries && payload.queries.queries) || {};
  const heading = el("h4", { id: "review-title", tabindex: "-1", text: t("kw.title") });
  const parts = [heading, el("p", { className: "muted", text: t("kw.help") })];

  if (payload.error) parts.push(el("p", { id: "review-error", className: "error", role: "alert", text: payload.error }));
  if (payload.diff && payload.diff.summary) {
    parts.push(el("div", { className: "changes", role: "status" }, [el("strong", { text: `${t("kw.changes")}: ` }), el("pre", { text: payload.diff.summary })]));
  }

  // terms with their synonyms
  const rows = terms.map((term) =>
    el("tr", { dataset: { term: term.canonical } }, [
      el("th", { scope: "row" }, [term.canonical, term.mesh ? el("div", { className: "muted small", text: `MeSH ${term.mesh.heading}` }) : null]),
      concepts.length ? el("td", {}, conceptPicker(term, concepts, edit)) : el("td", { text: slotName(term.slot) }),
      el("td", { className: "small", text: hitsText(term.hits) }),
      el("td", {}, [
        el(
          "ul",
          { className: "synonyms" },
          (term.synonyms || []).map((syn) =>
            el("li", { className: syn.kept ? "kept" : "dropped", dataset: { synonym: syn.text } }, [
              el("span", { className: "syn", text: syn.text }),
              el("span", { className: "muted small", text: ` ${(syn.origins || []).join(", ")}` }),
              Object.keys(syn.hits || {}).length ? el("span", { className: "muted small", text: ` · ${hitsText(syn.hits)}` }) : null,
              el("span", { className: syn.kept ? "badge ok" : "badge no", text: syn.kept ? t("kw.kept") : `${t("kw.dropped")}${syn.reason ? `: ${syn.reason}` : ""}` }),
              syn.kept
                ? el("button", {
                    type: "button",
                    className: "link small",
                    "aria-label": t("kw.remove", { synonym: syn.text }),
                    text: "×",
                    onclick: () => edit([{ op: "remove_synonym", term: term.canonical, synonym: syn.text }]),
                  })
                : null,
            ]),
          ),
        ),
        inlineForm(t("kw.synonymFor", { term: term.canonical }), t("kw.addSynonym"), `${threadId}.syn.${term.canonical}`, (value) =>
          edit([{ op: "add_synonym", term: term.canonical, synonym: value }]),
        ),
      ]),
      el("td", {}, [
        inlineForm(t("kw.newName", { term: term.canonical }), t("kw.rename"), `${threadId}.rename.${term.canonical}`, (value) =>
          edit([{ op: "rename_term", term: term.canonical, new: value }]),
        ),
        el("button", {
          type: "button",
          className: "secondary small danger",
          "aria-label": `${t("kw.delete")} ${term.canonical}`,
          text: t("kw.delete"),
          onclick: () => edit([{ op: "delete_term", term: term.canonical }]),
        }),
      ]),
    ]),
  );
  parts.push(
    terms.length
      ? el("table", { className: "grid terms", role: "table" }, [
          el("thead", {}, el("tr", {}, ["kw.term", concepts.length ? "kw.concept" : "kw.slot", "kw.hits", "kw.synonyms", "kw.actions"].map((k) => el("th", { scope: "col", text: t(k) })))),
          el("tbody", {}, rows),
        ])
      : el("p", { className: "muted", text: t("kw.noTerms") }),
  );

  const slot = el("select", { "aria-label": t("kw.slot") }, SLOTS.map((s) => el("option", { value: s, text: slotName(s) })));
  parts.push(
    inlineForm(t("kw.newTerm"), t("kw.addTerm"), `${threadId}.newterm`, (value, chosen) => edit([{ op: "add_term", text: value, slot: chosen }]), slot),
  );

  if (concepts.length) parts.push(conceptsPanel(payload, concepts, terms, edit));
  else if ((payload.facets || []).length) {
    parts.push(
      el("fieldset", { className: "facets" }, [
        el("legend", { text: t("kw.facets") }),
        ...payload.facets.map((facet) =>
          el("div", { className: "row" }, [
            el("strong", { text: slotName(facet.slot) }),
            el("label", {}, [
              el("input", { type: "checkbox", checked: facet.enabled, onchange: (e) => edit([{ op: "toggle_facet", slot: facet.slot, enabled: e.target.checked }]) }),
              ` ${t("kw.enabled")}`,
            ]),
            el("label", {}, [
              el("input", { type: "checkbox", checked: facet.required, onchange: (e) => edit([{ op: "toggle_facet", slot: facet.slot, required: e.target.checked }]) }),
              ` ${t("kw.required")}`,
            ]),
          ]),
        ),
      ]),
    );
  }

  if ((payload.source_errors || []).length) {
    parts.push(el("div", { className: "warn" }, [el("strong", { text: t("kw.sourceErrors") }), generic(payload.source_errors.map((e) => `${e.source}: ${e.message}`))]));
  }
  // ids (e.g. `pause_id`) are for machines; anything else the plan gains is shown as it comes
  const extra = Object.entries(payload).filter(([key]) => !KNOWN.has(key) && !key.endsWith("_id"));
  if (extra.length) {
    parts.push(el("details", { className: "extra", open: true }, [el("summary", { text: t("kw.more") }), generic(Object.fromEntries(extra))]));
  }

  // the queries, with what the last edit changed
  parts.push(el("h5", { text: t("kw.queries") }), el("p", { className: "muted small", text: t("kw.diffLegend") }));
  const ordered = [...SOURCE_ORDER.filter((s) => s in queries), ...Object.keys(queries).filter((s) => !SOURCE_ORDER.includes(s))];
  for (const source of ordered) {
    const item = queries[source];
    const before = previous && previous[source] ? previous[source].query : null;
    const pre = el("pre", { className: "query", id: `query-${source}`, dataset: { source } });
    if (before !== null && before !== item.query) {
      for (const [kind, text] of diffWords(before, item.query)) {
        pre.append(kind === "same" ? text : el(kind === "add" ? "ins" : "del", { text }));
      }
    } else pre.textContent = item.query;
    parts.push(
      el("div", { className: "query-box" }, [
        el("div", { className: "row" }, [
          el("strong", { text: t(`source.${source}`) }),
          copyButton(item.query, t(`source.${source}`)),
          item.url ? el("a", { href: item.url, target: "_blank", rel: "noopener", className: "small", text: t("kw.openSearch") }) : null,
        ]),
        pre,
      ]),
    );
  }

  // options and the Query button
  const max = el("input", { id: "max-per-source", type: "number", min: "1", max: "10000", step: "1", inputmode: "numeric" });
  const savedMax = sessionStorage.getItem("sm.draft.max-per-source");
  if (savedMax) max.value = savedMax;
  max.addEventListener("input", () => sessionStorage.setItem("sm.draft.max-per-source", max.value));
  const boxes = SOURCE_ORDER.map((s) => el("input", { type: "checkbox", value: s, checked: true, id: `use-${s}` }));
  const snowball = el("input", { type: "checkbox", id: "snowball" });
  const depth = el("input", { id: "snowball-depth", type: "number", min: "1", max: "5", step: "1", value: "2", inputmode: "numeric" });
  parts.push(
    el(
      "form",
      {
        id: "query-form",
        className: "row wrap query-form",
        onsubmit: (event) => {
          event.preventDefault();
          const options = {};
          if (max.value) options.max_per_source = Number(max.value);
          const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
          if (chosen.length !== boxes.length) options.sources = chosen;
          if (snowball.checked) {
            options.snowball = true;
            if (depth.value) options.snowball_depth = Number(depth.value);
          }
          query(options);
        },
      },
      [
        el("label", { for: "max-per-source", text: t("kw.maxPerSource") }),
        max,
        el("fieldset", { className: "inline" }, [
          el("legend", { className: "small", text: t("kw.sources") }),
          ...boxes.map((box) => el("label", {}, [box, ` ${t(`source.${box.value}`)}`])),
        ]),
        el("label", {}, [snowball, ` ${t("kw.snowball")}`]),
        el("label", { for: "snowball-depth", text: t("kw.snowballDepth") }),
        depth,
        el("button", { type: "submit", id: "query-button", text: t("kw.query") }),
        el("p", { id: "query-error", className: "error", role: "alert", hidden: true }),
      ],
    ),
  );
  root.replaceChildren(el("section", { className: "review", "aria-labelledby": "review-title" }, parts));
  return heading;
}
