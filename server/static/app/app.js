// The web app's entry: sign-in (when the server has a token), the Projects list, and one project's page
// (conversation, results, Runs, ask). Views follow the URL hash: "#/" lists projects, "#/p/<id>" opens one.

import { ApiError, getJson, sendJson, setToken } from "./api.js";
import { askQuestion, openConversation, setupConversation } from "./conversation.js";
import { $, clearDraft, countsText, el, formatDate, keepDraft, messageOf, showError } from "./dom.js";
import { apply, lang, setLang, t } from "./i18n.js";
import { setupResults } from "./results.js";
import { reloadRuns, renderRuns, selectedRun, setupRuns } from "./runs.js";

const VIEWS = ["#signin", "#projects-view", "#project-view"];

function show(view) {
  $("#boot").hidden = true;
  for (const id of VIEWS) $(id).hidden = id !== view;
}

async function signInNeeded() {
  show("#signin");
  $("#signout").hidden = true;
  $("#token").focus();
}

async function guarded(action) {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setToken("");
      await signInNeeded();
      return undefined;
    }
    throw error;
  }
}

// -- projects ------------------------------------------------------------------------------------------

async function showProjects() {
  const projects = await getJson("/projects");
  show("#projects-view");
  $("#projects-empty").hidden = projects.length > 0;
  $("#projects-table").hidden = projects.length === 0;
  $("#projects-table tbody").replaceChildren(
    ...projects.map((project) =>
      el("tr", { dataset: { project: project.id } }, [
        el("td", {}, el("a", { href: `#/p/${encodeURIComponent(project.id)}`, text: project.name || project.id })),
        el("td", { text: project.description }),
        el("td", { text: formatDate(project.created_at) }),
        el("td", { className: "runs-cell" }),
      ]),
    ),
  );
  document.title = "ScholarMap";
  // each project's Runs: how many, the newest (status, counts), the one chosen for the map
  for (const project of projects.slice(0, 100)) {
    getJson(`/projects/${encodeURIComponent(project.id)}/overview`)
      .then(({ runs }) => {
        const cell = $(`#projects-table tr[data-project="${CSS.escape(project.id)}"] .runs-cell`);
        if (!cell) return;
        const newest = runs[0];
        const chosen = runs.find((run) => run.chosen);
        cell.replaceChildren(
          el("div", { text: t("projects.runCount", { n: runs.length }) }),
          newest ? el("div", { className: "muted small", text: `${formatDate(newest.created_at)} · ${t(`runs.status.${newest.status}`)} · ${countsText(newest.counts)}` }) : null,
          chosen ? el("div", { className: "small", text: `★ ${t("runs.chosen")}: ${formatDate(chosen.created_at)}` }) : null,
        );
      })
      .catch(() => {});
  }
}

async function createProject(event) {
  event.preventDefault();
  const name = $("#project-name");
  const description = $("#project-description");
  showError($("#project-name-error"), null, name);
  try {
    const project = await sendJson("POST", "/projects", { name: name.value, description: description.value });
    clearDraft(name, "project-name");
    clearDraft(description, "project-description");
    location.hash = `#/p/${encodeURIComponent(project.id)}`;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return signInNeeded();
    showError($("#project-name-error"), error, name);
    name.focus();
  }
}

// -- one project ------------------------------------------------------------------------------------------

let openProjectId = null;

async function showProject(projectId) {
  const overview = await getJson(`/projects/${encodeURIComponent(projectId)}/overview`);
  show("#project-view");
  openProjectId = projectId;
  $("#project-title").textContent = overview.project.name || overview.project.id;
  $("#project-description-text").textContent = overview.project.description;
  document.title = `${overview.project.name || overview.project.id} · ScholarMap`;
  renderRuns(overview);
  await openConversation(projectId);
}

async function route() {
  const match = location.hash.match(/^#\/p\/(.+)$/);
  try {
    await guarded(() => (match ? showProject(decodeURIComponent(match[1])) : showProjects()));
  } catch (error) {
    show("#projects-view");
    showError($("#project-name-error"), new Error(messageOf(error)));
  }
}

function setup() {
  apply();
  $("#lang").value = lang();
  $("#lang").addEventListener("change", (event) => setLang(event.target.value));
  for (const field of document.querySelectorAll("[data-draft]")) keepDraft(field, field.dataset.draft);

  $("#signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    setToken($("#token").value.trim());
    showError($("#token-error"), null, $("#token"));
    try {
      await getJson("/projects");
    } catch (error) {
      setToken("");
      showError($("#token-error"), error instanceof ApiError && error.status === 401 ? new Error(t("signin.wrong")) : error, $("#token"));
      return;
    }
    $("#token").value = "";
    $("#signout").hidden = false;
    await route();
  });
  $("#signout").addEventListener("click", () => {
    setToken("");
    signInNeeded();
  });
  $("#create-form").addEventListener("submit", createProject);

  setupResults();
  setupRuns({ onSelect: () => {} });
  setupConversation({
    // a new Run is selected; one only replayed after a reload leaves the selection as it was
    onRunReady: (runId, fresh) => openProjectId && reloadRuns(fresh ? runId : null),
  });
  $("#ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    askQuestion(selectedRun()?.id);
  });
  $("#question").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      askQuestion(selectedRun()?.id);
    }
  });
  window.addEventListener("hashchange", route);
  if (sessionStorage.getItem("sm.token")) $("#signout").hidden = false;
  route();
}

setup();
