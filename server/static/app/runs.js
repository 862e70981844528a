// A project's Runs: the table, the `Run` switcher that reloads every tab, `Choose for map`, the map page
// (opened with the token when the server has one), and the side-by-side comparison of two Runs.

import { getJson, request, sendJson, token } from "./api.js";
import { $, countsText, el, formatDate, messageOf, showError, SOURCES } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { ask as askWorker, datasetOf, showRun } from "./results.js";

const view = { projectId: null, runs: [], selected: null, onSelect: () => {} };

function runLabel(run) {
  const star = run.chosen ? " ★" : "";
  return `${formatDate(run.created_at)} · ${t(`runs.status.${run.status}`)} · ${countsText(run.counts)}${star}`;
}

function fillSelect(select, selectedId) {
  select.replaceChildren(...view.runs.map((run) => el("option", { value: run.id, text: runLabel(run), selected: run.id === selectedId })));
}

export function selectedRun() {
  return view.runs.find((run) => run.id === view.selected) || null;
}

function select(runId) {
  view.selected = runId;
  sessionStorage.setItem(`sm.run.${view.projectId}`, runId);
  const run = selectedRun();
  $("#run-select").value = runId;
  $("#chosen-note").hidden = !run.chosen;
  $("#choose-run").disabled = run.chosen;
  $("#open-map").href = `/runs/${run.id}/map.html`;
  $("#map-status").textContent = "";
  showRun(run);
  view.onSelect(run);
}

/** Draw the project's Runs; `prefer` is a Run to select (a new one), else the last one selected. */
export function renderRuns(overview, prefer = null) {
  view.projectId = overview.project.id;
  view.runs = overview.runs;
  const has = view.runs.length > 0;
  $("#no-runs").hidden = has;
  $("#run-tools").hidden = !has;
  $("#ask").hidden = !has;
  $("#compare").hidden = view.runs.length < 2;
  $("#runs").hidden = !has;
  $("#runs-table tbody").replaceChildren(
    ...view.runs.map((run) =>
      el("tr", { dataset: { run: run.id } }, [
        el("td", {}, el("button", { type: "button", className: "link", text: formatDate(run.created_at), onclick: () => select(run.id) })),
        el("td", { text: t(`runs.status.${run.status}`) }),
        el("td", { text: countsText(run.counts) }),
        el("td", { text: run.chosen ? `★ ${t("runs.chosen")}` : "" }),
      ]),
    ),
  );
  if (!has) return;
  const remembered = sessionStorage.getItem(`sm.run.${view.projectId}`);
  const wanted = [prefer, view.selected, remembered].find((id) => id && view.runs.some((run) => run.id === id));
  const selectedId = wanted || view.runs[0].id;
  fillSelect($("#run-select"), selectedId);
  fillSelect($("#compare-a"), view.runs[1]?.id || selectedId);
  fillSelect($("#compare-b"), view.runs[0].id);
  select(selectedId);
}

async function reload(prefer) {
  renderRuns(await getJson(`/projects/${view.projectId}/overview`), prefer);
}

async function openMap(event) {
  const run = selectedRun();
  if (!run || !token()) return; // no token: the link opens the page itself
  event.preventDefault();
  // The page needs the token, which a link cannot carry: fetch it and write it into a new tab.
  const tab = window.open("", "_blank");
  const status = $("#map-status");
  status.textContent = t("map.building");
  if (tab) tab.document.title = t("map.building");
  try {
    const html = await (await request(`/runs/${run.id}/map.html`)).text();
    if (!tab) throw new Error("the browser blocked the new tab");
    tab.document.open();
    tab.document.write(html);
    tab.document.close();
    status.textContent = t("map.opened");
  } catch (error) {
    if (tab) tab.close();
    status.textContent = messageOf(error);
  }
}

function queriesColumn(run, queries, only, count) {
  const items = (queries && queries.queries) || {};
  return el("div", { className: "compare-col", dataset: { run: run.id } }, [
    el("h4", { text: runLabel(run) }),
    ...SOURCES.filter((s) => s in items).flatMap((s) => [el("strong", { text: t(`source.${s}`) }), el("pre", { className: "query", text: items[s].query })]),
    el("h5", { text: t("compare.only", { n: count }) }),
    el(
      "ol",
      { className: "only" },
      only.map((paper) => el("li", {}, paper.link ? el("a", { href: paper.link, target: "_blank", rel: "noopener", text: paper.title || paper.key }) : paper.title || paper.key)),
    ),
    count > only.length ? el("p", { className: "muted small", text: t("compare.more", { n: count - only.length }) }) : null,
  ]);
}

async function compare(event) {
  if (event) event.preventDefault();
  const a = view.runs.find((run) => run.id === $("#compare-a").value);
  const b = view.runs.find((run) => run.id === $("#compare-b").value);
  const box = $("#compare-result");
  showError($("#compare-error"), null);
  if (!a || !b || a.id === b.id) {
    showError($("#compare-error"), new Error(t("compare.same")), $("#compare-b"));
    return;
  }
  try {
    const [diff, qa, qb] = await Promise.all([
      askWorker({ type: "compare", a: datasetOf(a.id, "aggregated"), b: datasetOf(b.id, "aggregated"), limit: 200 }),
      getJson(`/runs/${a.id}/files/queries`).catch(() => null),
      getJson(`/runs/${b.id}/files/queries`).catch(() => null),
    ]);
    box.replaceChildren(
      el("p", { className: "muted", text: t("compare.both", { n: diff.both }) }),
      el("div", { className: "columns" }, [queriesColumn(a, qa, diff.onlyA, diff.countA), queriesColumn(b, qb, diff.onlyB, diff.countB)]),
    );
  } catch (error) {
    showError($("#compare-error"), error);
  }
}

export function setupRuns({ onSelect }) {
  view.onSelect = onSelect;
  $("#run-select").addEventListener("change", (event) => select(event.target.value));
  $("#choose-run").addEventListener("click", async () => {
    showError($("#choose-error"), null);
    try {
      await sendJson("PUT", `/projects/${view.projectId}/chosen-run`, { run_id: view.selected });
      await reload(view.selected);
    } catch (error) {
      showError($("#choose-error"), error);
    }
  });
  $("#open-map").addEventListener("click", openMap);
  $("#compare-form").addEventListener("submit", compare);
  onLangChange(() => {
    if (view.projectId && view.runs.length) renderRuns({ project: { id: view.projectId }, runs: view.runs });
    if ($("#compare-result").childElementCount) compare(null);
  });
}

export { reload as reloadRuns };
