// Results of the selected Run: one tab per database plus Aggregated, each a sortable, filterable table
// paged on the client. The rows live in a worker (results-worker.js); this module asks it for one page at
// a time and draws only that page, so thousands of rows never freeze the page.

import { download, token } from "./api.js";
import { $, countsText, el, messageOf, showError, SOURCES, sourceName } from "./dom.js";
import { onLangChange, t } from "./i18n.js";

const TABS = [...SOURCES, "aggregated"];
const PAGE_SIZE = 50;

let worker = null;
let nextReq = 1;
const pending = new Map();

export function ask(message) {
  if (!worker) {
    worker = new Worker("/app/results-worker.js");
    worker.onmessage = (event) => {
      const reply = event.data;
      const entry = pending.get(reply.reqId);
      if (!entry) return;
      pending.delete(reply.reqId);
      if (reply.type === "error") entry.reject(Object.assign(new Error(reply.message), { status: reply.status }));
      else entry.resolve(reply);
    };
  }
  const reqId = nextReq++;
  return new Promise((resolve, reject) => {
    pending.set(reqId, { resolve, reject });
    worker.postMessage({ ...message, reqId, token: token() });
  });
}

export function datasetOf(runId, tab) {
  const url = tab === "aggregated" ? `/runs/${runId}/results` : `/runs/${runId}/results/${tab}`;
  return { id: `${runId}:${tab}`, url, aggregated: tab === "aggregated" };
}

const state = { run: null, tab: "aggregated", sort: "rank", dir: "asc", filter: "", offset: 0, shown: 0 };
let drawToken = 0;

function columns() {
  const cols = [
    ["rank", t("col.rank")],
    ["title", t("col.title")],
    ["authors", t("col.authors")],
    ["year", t("col.year")],
    ["venue", t("col.venue")],
    ["doi", t("col.doi")],
    ["sources", t("col.sources")],
  ];
  if (state.tab === "aggregated") cols.push(["score", t("col.score")], ["evidence", t("col.evidence")]);
  return cols;
}

const SORTABLE = new Set(["rank", "title", "authors", "year", "venue", "doi", "score"]);

function renderTabs() {
  const list = $("#tabs");
  list.setAttribute("aria-label", t("results.title"));
  list.replaceChildren(
    ...TABS.map((tab) => {
      const count = state.run?.counts?.[tab];
      const failed = (state.run?.errors || []).some((e) => e.source === tab);
      return el(
        "button",
        {
          type: "button",
          role: "tab",
          id: `tab-${tab}`,
          "aria-controls": "tab-panel",
          "aria-selected": String(tab === state.tab),
          tabindex: tab === state.tab ? "0" : "-1",
          className: failed ? "tab failed" : "tab",
          dataset: { tab },
          onclick: () => selectTab(tab),
          onkeydown: (event) => tabKeys(event, tab),
        },
        [t(`source.${tab}`), count !== undefined ? el("span", { className: "count", text: ` ${count}` }) : null],
      );
    }),
  );
  $("#tab-panel").setAttribute("aria-labelledby", `tab-${state.tab}`);
}

function tabKeys(event, tab) {
  const index = TABS.indexOf(tab);
  const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: TABS.length - 1 - index };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const next = TABS[(index + moves[event.key] + TABS.length) % TABS.length];
  selectTab(next);
  $(`#tab-${next}`).focus();
}

function renderHead() {
  const row = el(
    "tr",
    {},
    columns().map(([key, label]) => {
      if (!SORTABLE.has(key)) return el("th", { scope: "col", text: label });
      const sorted = state.sort === key;
      return el("th", { scope: "col", "aria-sort": sorted ? (state.dir === "asc" ? "ascending" : "descending") : "none" }, [
        el("button", { type: "button", className: "sort", onclick: () => sortBy(key) }, [
          label,
          el("span", { "aria-hidden": "true", text: sorted ? (state.dir === "asc" ? " ▲" : " ▼") : "" }),
        ]),
      ]);
    }),
  );
  $("#papers thead").replaceChildren(row);
}

function cell(key, row) {
  switch (key) {
    case "title":
      return el("td", { className: "title" }, [
        row.link ? el("a", { href: row.link, target: "_blank", rel: "noopener", text: row.title || row.doi || row.key }) : row.title,
        el("details", { className: "abstract" }, [
          el("summary", { text: t("results.abstract") }),
          el("p", { text: row.abstract || t("results.noAbstract") }),
        ]),
      ]);
    case "doi":
      return el("td", { className: "doi" }, row.doi ? el("a", { href: `https://doi.org/${row.doi}`, target: "_blank", rel: "noopener", text: row.doi }) : "");
    case "sources":
      return el("td", { text: row.sources.map(sourceName).join(", ") });
    case "score":
      return el("td", { className: "num" }, [
        row.score === null ? "" : row.score.toFixed(3),
        el("details", { className: "breakdown" }, [
          el("summary", { text: t("results.breakdown") }),
          el(
            "dl",
            {},
            Object.entries(row.breakdown || {})
              .filter(([, v]) => v !== null)
              .flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: typeof v === "number" ? v.toFixed(3) : String(v) })]),
          ),
        ]),
      ]);
    case "evidence":
      return el("td", { className: "evidence" }, [
        row.origin && row.origin !== "query" ? el("span", { className: "badge", text: t(`results.origin.${row.origin}`) }) : null,
        el(
          "ul",
          {},
          row.evidence.map((e) =>
            el("li", {
              text: e.via
                ? t(`results.via.${e.via.relation}`, { linked: e.via.linked, depth: e.via.depth, source: t(`source.${e.source}`) })
                : t("results.rankIn", { rank: e.rank ?? "?", source: t(`source.${e.source}`) }),
            }),
          ),
        ),
        row.merged_by.length ? el("span", { className: "muted small", text: t("results.mergedBy", { keys: row.merged_by.join(", ") }) }) : null,
      ]);
    case "year":
    case "rank":
      return el("td", { className: "num", text: row[key] ?? "" });
    default:
      return el("td", { text: row[key] ?? "" });
  }
}

async function draw() {
  const mine = ++drawToken;
  const run = state.run;
  const tab = state.tab;
  const body = $("#papers tbody");
  showError($("#tab-error"), null);
  const failure = (run.errors || []).find((e) => e.source === tab);
  if (failure) {
    // a failed source shows its error in its own tab; the other tabs work as usual
    showError($("#tab-error"), new Error(t("results.sourceFailed", { source: t(`source.${tab}`), message: failure.message })));
  }
  if (!state.shown) $("#row-count").textContent = t("results.loading");
  renderHead();
  let page;
  try {
    page = await ask({
      type: "page",
      ...datasetOf(run.id, tab),
      sort: state.sort,
      dir: state.dir,
      filter: state.filter,
      offset: state.offset,
      limit: PAGE_SIZE,
    });
  } catch (error) {
    if (mine !== drawToken) return;
    body.replaceChildren();
    $("#row-count").textContent = "";
    if (!failure) showError($("#tab-error"), new Error(messageOf(error)));
    return;
  }
  if (mine !== drawToken) return;
  const cols = columns().map(([key]) => key);
  body.replaceChildren(...page.rows.map((row) => el("tr", { dataset: { key: row.key } }, cols.map((key) => cell(key, row)))));
  state.shown = page.rows.length;
  const from = page.filtered ? state.offset + 1 : 0;
  const to = state.offset + page.rows.length;
  const vars = { from, to, filtered: page.filtered, total: page.total };
  $("#row-count").textContent = page.filtered
    ? t(page.filtered === page.total ? "results.rows" : "results.rowsFiltered", vars)
    : t("results.none");
  const pages = Math.max(1, Math.ceil(page.filtered / PAGE_SIZE));
  $("#page-info").textContent = t("results.page", { page: Math.floor(state.offset / PAGE_SIZE) + 1, pages });
  $("#prev-page").disabled = state.offset === 0;
  $("#next-page").disabled = to >= page.filtered;
  $("#papers").dataset.ready = `${run.id}:${tab}:${state.offset}`;
  $("#papers").dataset.view = `${state.sort}:${state.dir}:${state.filter}`;
}

function selectTab(tab) {
  if (tab === state.tab) return;
  state.tab = tab;
  state.offset = 0;
  state.shown = 0;
  state.sort = tab === "aggregated" || state.sort !== "score" ? state.sort : "rank";
  renderTabs();
  draw();
}

function sortBy(key) {
  if (state.sort === key) state.dir = state.dir === "asc" ? "desc" : "asc";
  else {
    state.sort = key;
    state.dir = key === "year" || key === "score" ? "desc" : "asc";
  }
  state.offset = 0;
  draw();
}

/** Show a Run (an entry of the project overview) in the tabs. */
export function showRun(run) {
  const changed = state.run?.id !== run.id;
  state.run = run;
  if (changed) {
    state.offset = 0;
    state.shown = 0;
  }
  $("#run-summary").textContent = t("runs.summary", { status: t(`runs.status.${run.status}`), counts: countsText(run.counts) });
  // what the Run itself says went wrong or was capped, as stored with it
  const remarks = [...(run.errors || []).map((e) => `${sourceName(e.source)}: ${e.message}`), ...(run.warnings || [])];
  $("#run-warnings").replaceChildren(...remarks.map((text) => el("li", { text })));
  renderTabs();
  draw();
}

export function setupResults() {
  let filterTimer = null;
  $("#filter").addEventListener("input", (event) => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => {
      state.filter = event.target.value;
      state.offset = 0;
      if (state.run) draw();
    }, 150);
  });
  state.filter = $("#filter").value;
  $("#prev-page").addEventListener("click", () => {
    state.offset = Math.max(0, state.offset - PAGE_SIZE);
    draw();
  });
  $("#next-page").addEventListener("click", () => {
    state.offset += PAGE_SIZE;
    draw();
  });
  for (const button of document.querySelectorAll("[data-export]")) {
    button.addEventListener("click", async () => {
      const status = $("#export-status");
      status.textContent = "";
      try {
        const name = await download(`/runs/${state.run.id}/export?format=${button.dataset.export}`);
        status.textContent = t("export.done", { file: name });
      } catch (error) {
        status.textContent = messageOf(error);
      }
    });
  }
  onLangChange(() => state.run && showRun(state.run));
}
