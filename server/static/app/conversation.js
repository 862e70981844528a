// The conversation with the agent: one thread per project and browser tab. Messages and replies are
// POSTed and their SSE stream read as it comes; every event id is remembered (sessionStorage), so after a
// dropped connection or a reload the page asks for what it missed with Last-Event-ID. The pauses of the
// thread (clarification, confirmation, keyword review) are drawn in #stage; progress in #activity.

import { ApiError, getJson, sendJson, stream } from "./api.js";
import { $, countsText, el, keepDraft, messageOf, showError } from "./dom.js";
import { has, onLangChange, t } from "./i18n.js";
import { renderReview } from "./keywords.js";

const conv = {
  projectId: null,
  threadId: null,
  lastId: 0,
  busy: false,
  purpose: "search", // what the running message is: "search" (the workflow) or "ask" (a question)
  activeRun: null,
  step: null,
  stepStarted: 0,
  timer: null,
  abort: null,
  onRunReady: () => {},
  onBusy: () => {},
  answer: "",
};

const threadKey = (projectId) => `sm.thread.${projectId}`;
const lastKey = (threadId) => `sm.last.${threadId}`;
// the last event before the message now running: a reloaded page replays from there to redraw it all
const startKey = (threadId) => `sm.start.${threadId}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// -- activity: the step running now, with a ticking clock (the page never looks frozen) -------------------

function stepLabel(node, status) {
  const key = status === "indexing" ? `step.${node}.indexing` : `step.${node}`;
  return has(key) ? t(key) : t("step.working");
}

function setStep(label) {
  conv.step = label;
  conv.stepStarted = performance.now();
  $("#activity").replaceChildren(el("span", { className: "now" }));
  tick();
}

function tick() {
  const now = $("#activity .now");
  if (!conv.busy || !conv.step || !now) return;
  const seconds = Math.floor((performance.now() - conv.stepStarted) / 1000);
  now.replaceChildren(el("span", { className: "spinner", "aria-hidden": "true" }), t("step.seconds", { step: conv.step, s: seconds }));
}

// What #activity and #stage say last, as [key, vars], so a language switch can say it again.
let said = null;
let stageNote = null;

function say(text, className = "") {
  said = null;
  $("#activity").replaceChildren(el("span", { className, text }));
}

function sayKey(key, vars = {}, className = "") {
  say(t(key, vars), className);
  said = [key, vars, className];
}

function noteStage(key, vars) {
  stageNote = [key, vars];
  const text = t(key, { ...vars, counts: countsText(vars.counts) });
  $("#stage").replaceChildren(el("p", { className: "ok", role: "status", text }));
}

function setBusy(busy) {
  conv.busy = busy;
  $("#send").disabled = busy;
  $("#cancel").hidden = !busy;
  $("#ask-button").disabled = busy;
  clearInterval(conv.timer);
  if (busy) conv.timer = setInterval(tick, 1000);
  for (const button of document.querySelectorAll("#stage button, #stage input, #stage select")) button.disabled = busy;
  conv.onBusy(busy);
}

// -- per-source progress bars ------------------------------------------------------------------------------

function progressRow(source) {
  let row = $(`#progress-${source}`);
  if (!row) {
    row = el("div", { id: `progress-${source}`, className: "progress-row", dataset: { source } }, [
      el("span", { className: "name", text: t(`source.${source}`) }),
      el("progress", { max: "1", value: "0", "aria-label": t(`source.${source}`) }),
      el("span", { className: "detail small" }),
    ]);
    $("#source-progress").append(row);
  }
  return row;
}

function showProgress(data) {
  const box = $("#source-progress");
  box.hidden = false;
  const row = progressRow(data.source);
  const bar = row.querySelector("progress");
  const detail = row.querySelector(".detail");
  row.dataset.stage = data.stage;
  if (data.stage === "started") {
    bar.removeAttribute("value");
    detail.textContent = t("progress.started");
  } else if (data.stage === "page") {
    if (data.total) {
      bar.max = data.total;
      bar.value = Math.min(data.fetched, data.total);
      detail.textContent = t("progress.page", data);
    } else detail.textContent = t("progress.pageNoTotal", data);
  } else if (data.stage === "done") {
    bar.max = 1;
    bar.value = 1;
    detail.textContent = t("progress.done", data);
  } else if (data.stage === "failed") {
    bar.max = 1;
    bar.value = 0;
    row.classList.add("failed");
    detail.textContent = t("progress.failed", data);
  }
}

// -- the pauses ------------------------------------------------------------------------------------------------

function list(title, items) {
  if (!items || !items.length) return null;
  return el("div", {}, [el("h5", { text: title }), el("ul", {}, items.map((item) => el("li", { text: item })))]);
}

function slotsList(slots) {
  const entries = Object.entries(slots || {}).filter(([, v]) => (Array.isArray(v) ? v.length : v));
  if (!entries.length) return null;
  return el("div", {}, [
    el("h5", { text: t("conv.slots") }),
    el("dl", { className: "slots" }, entries.flatMap(([k, v]) => [el("dt", { text: has(`slot.${k}`) ? t(`slot.${k}`) : k }), el("dd", { text: Array.isArray(v) ? v.join("; ") : v })])),
  ]);
}

function draftField(field, key) {
  keepDraft(field, `${conv.threadId}.${key}`);
  return field;
}

function renderClarification(payload) {
  const inputs = (payload.questions || []).slice(0, 3).map((q, i) => {
    const id = `answer-${i}`;
    const input = draftField(el("input", { id, className: "answer" }), `answer-${payload.round}-${i}`);
    return el("div", { className: "stack question" }, [
      el("label", { for: id, text: q.question }),
      input,
      q.options && q.options.length
        ? el("div", { className: "row wrap" }, q.options.map((option) => el("button", { type: "button", className: "secondary small", text: option, onclick: () => ((input.value = option), input.dispatchEvent(new Event("input"))) })))
        : null,
    ]);
  });
  const error = el("p", { id: "stage-error", className: "error", role: "alert", hidden: true });
  const heading = el("h4", { id: "stage-title", tabindex: "-1", text: t("conv.interpretation") });
  const form = el(
    "form",
    {
      className: "stack",
      onsubmit: (event) => {
        event.preventDefault();
        const answers = inputs.map((box) => box.querySelector("input").value);
        const keys = inputs.map((_, i) => `sm.draft.${conv.threadId}.answer-${payload.round}-${i}`);
        reply({ answers }, {}, error).then((ok) => ok && keys.forEach((key) => sessionStorage.removeItem(key)));
      },
    },
    [el("h5", { text: t("conv.questions") }), ...inputs, el("div", {}, el("button", { type: "submit", text: t("conv.sendAnswers") })), error],
  );
  $("#stage").replaceChildren(el("section", { className: "interrupt", dataset: { kind: "clarification" } }, [heading, el("p", { className: "summary", text: payload.summary }), list(t("conv.uncertainties"), payload.uncertainties), form]));
  return heading;
}

function renderConfirmation(payload) {
  const feedback = draftField(el("textarea", { id: "feedback", rows: "2" }), "feedback");
  const error = el("p", { id: "stage-error", className: "error", role: "alert", hidden: true });
  const heading = el("h4", { id: "stage-title", tabindex: "-1", text: t("conv.interpretation") });
  $("#stage").replaceChildren(
    el("section", { className: "interrupt", dataset: { kind: "confirmation" } }, [
      heading,
      el("p", { className: "summary", text: payload.summary }),
      slotsList(payload.slots),
      list(t("conv.uncertainties"), payload.uncertainties),
      list(t("conv.notes"), payload.notes),
      el("label", { for: "feedback", text: t("conv.feedback") }),
      feedback,
      el("div", { className: "row" }, [
        el("button", { type: "button", id: "confirm", text: t("conv.confirm"), onclick: () => reply({ accept: true }, {}, error) }),
        el("button", {
          type: "button",
          id: "revise",
          className: "secondary",
          text: t("conv.revise"),
          onclick: async () => {
            // the correction is sent: the next confirmation starts with an empty field (kept if refused)
            const text = feedback.value;
            const key = `sm.draft.${conv.threadId}.feedback`;
            sessionStorage.removeItem(key);
            if (!(await reply({ accept: false, feedback: text.trim() || null }, {}, error))) sessionStorage.setItem(key, text);
          },
        }),
      ]),
      error,
    ]),
  );
  return heading;
}

function reviewQueries(payload) {
  // The queries before the last edit stay with the thread (sessionStorage), so a reload keeps the diff.
  const key = `sm.queries.${conv.threadId}`;
  const current = (payload.queries && payload.queries.queries) || {};
  const stored = JSON.parse(sessionStorage.getItem(key) || "null");
  let before = null;
  if (stored && JSON.stringify(stored.current) !== JSON.stringify(current)) before = stored.current;
  else if (stored) before = stored.before;
  sessionStorage.setItem(key, JSON.stringify({ current, before }));
  return before;
}

function renderInterrupt(payload) {
  conv.shown = payload;
  stageNote = null;
  let heading;
  if (payload.kind === "clarification") heading = renderClarification(payload);
  else if (payload.kind === "confirmation") heading = renderConfirmation(payload);
  else if (payload.kind === "review") {
    heading = renderReview($("#stage"), payload, {
      threadId: conv.threadId,
      previous: reviewQueries(payload),
      edit: (edits) => reply({ edits }, {}, $("#query-error")),
      query: (options) => reply({ accept: true }, options, $("#query-error")),
    });
  }
  // The controls stay usable: the thread waits now (only `done` is still to come), and a reply sent in
  // that instant is retried by `post` while the thread finishes.
  if (heading && !conv.replaying) heading.focus();
}

// -- events ----------------------------------------------------------------------------------------------------

function handle(event) {
  conv.lastId = Math.max(conv.lastId, event.id);
  sessionStorage.setItem(lastKey(conv.threadId), String(conv.lastId));
  const data = event.data || {};
  switch (event.type) {
    case "node":
      if (data.status === "started" || data.status === "indexing") {
        setStep(stepLabel(data.node, data.status));
        if (data.node === "search") {
          $("#stage").replaceChildren();
          $("#source-progress").replaceChildren();
          $("#source-progress").hidden = false;
        }
      }
      break;
    case "search_progress":
      showProgress(data);
      break;
    case "interrupt":
      renderInterrupt(data);
      break;
    case "run_ready":
      conv.activeRun = data.run_id;
      noteStage("conv.ready", { run: data.run_id, counts: data.counts });
      conv.onRunReady(data.run_id, !conv.replaying);
      break;
    case "text":
      if (conv.purpose === "ask") appendAnswer(data.delta);
      else $("#stage").append(el("p", { className: "agent-text", text: data.delta }));
      break;
    case "citation":
      addCitation(data);
      break;
    case "info":
      if (data.kind === "ask_end" && data.note) $("#answer").append(el("p", { className: "muted small", text: data.note }));
      else if (data.message && conv.busy) $("#activity").append(el("div", { className: "muted small", text: data.message }));
      break;
    case "error":
      sayKey("conv.failed", { message: data.message }, "error");
      conv.failed = true;
      break;
    case "done":
      conv.done = true;
      $("#cancel").hidden = true;
      if (data.state === "cancelled") sayKey("conv.cancelled");
      else if (data.state === "waiting") sayKey("conv.waiting");
      else if (data.state === "finished" && !conv.failed) sayKey("conv.finished");
      if (conv.purpose === "ask") linkCitations();
      break;
    default:
      break;
  }
}

/** Read a stream to its end; reconnect with Last-Event-ID when the connection drops before `done`. */
async function follow(path, options) {
  conv.done = false;
  conv.failed = false;
  setBusy(true);
  let request = { path, ...options };
  try {
    for (let attempt = 0; ; attempt++) {
      conv.abort = new AbortController();
      try {
        await stream(request.path, { ...request, signal: conv.abort.signal }, handle);
        if (conv.done) return;
        const state = await getJson(`/threads/${conv.threadId}`);
        if (!state.busy && state.last_event_id <= conv.lastId) return;
      } catch (error) {
        if (error instanceof ApiError && error.status > 0) throw error; // refused: the caller shows it
        if (error.name === "AbortError" || attempt > 30) return;
      }
      sayKey("conv.reconnecting");
      await sleep(Math.min(500 * (attempt + 1), 5000));
      request = { path: `/threads/${conv.threadId}/events`, lastEventId: conv.lastId };
    }
  } finally {
    setBusy(false);
  }
}

// -- sending -----------------------------------------------------------------------------------------------------

async function ensureThread() {
  if (conv.threadId) return conv.threadId;
  const created = await sendJson("POST", "/threads", { project_id: conv.projectId });
  conv.threadId = created.thread_id;
  conv.lastId = 0;
  sessionStorage.setItem(threadKey(conv.projectId), conv.threadId);
  return conv.threadId;
}

async function post(body, errorBox, field) {
  showError(errorBox, null, field);
  try {
    await ensureThread();
    sessionStorage.setItem(startKey(conv.threadId), String(conv.lastId));
    for (let attempt = 0; ; attempt++) {
      try {
        await follow(`/threads/${conv.threadId}/messages`, { method: "POST", body });
        return true;
      } catch (error) {
        // 409: the thread is still finishing the step that asked this question (its `done` is on the way)
        if (!(error instanceof ApiError && error.status === 409 && attempt < 25)) throw error;
        await sleep(200);
      }
    }
  } catch (error) {
    showError(errorBox, error, field);
    if (field) field.focus();
    return false;
  }
}

/** Reply to the pending pause; resolves to whether the server took it. */
function reply(resume, options, errorBox) {
  conv.purpose = "search";
  sessionStorage.setItem(`sm.purpose.${conv.threadId}`, "search");
  const body = { resume };
  if (options && Object.keys(options).length) body.options = options;
  return post(body, errorBox);
}

export async function sendDescription() {
  const field = $("#description");
  conv.purpose = "search";
  sessionStorage.setItem(`sm.purpose.${conv.threadId}`, "search");
  $("#source-progress").hidden = true;
  // A description always starts a new search, also in a conversation that has a Run already.
  await post({ text: field.value, mode: "search" }, $("#description-error"), field);
}

// -- asking --------------------------------------------------------------------------------------------------------

function appendAnswer(delta) {
  conv.answer += delta;
  $("#answer").textContent = conv.answer;
}

function addCitation(data) {
  const passage = [data.heading || data.section, data.quote].filter(Boolean).join(": ");
  const title = `${data.title || data.paper_key}${data.year ? ` (${data.year})` : ""}`;
  $("#citations").append(
    el("li", { id: `cite-${data.n}`, value: String(data.n), dataset: { paperKey: data.paper_key } }, [
      data.doi ? el("a", { href: `https://doi.org/${data.doi}`, target: "_blank", rel: "noopener", text: title }) : el("span", { text: title }),
      el("details", {}, [el("summary", { text: t("ask.passage"), dataset: { i18n: "ask.passage" } }), el("blockquote", { text: passage || data.section_id })]),
    ]),
  );
}

function linkCitations() {
  const box = $("#answer");
  const text = conv.answer;
  const parts = text.split(/(\[\d+\])/);
  box.replaceChildren(
    ...parts.map((part) => {
      const match = part.match(/^\[(\d+)\]$/);
      if (!match || !$(`#cite-${match[1]}`)) return part;
      return el("a", {
        href: `#cite-${match[1]}`,
        className: "cite",
        text: part,
        onclick: (event) => {
          event.preventDefault();
          const item = $(`#cite-${match[1]}`);
          item.querySelector("details").open = true;
          item.scrollIntoView({ block: "nearest" });
          item.querySelector("a, summary").focus();
        },
      });
    }),
  );
}

export async function askQuestion(runId) {
  const field = $("#question");
  const errorBox = $("#question-error");
  showError(errorBox, null, field);
  try {
    await ensureThread();
    if (runId && runId !== conv.activeRun) {
      await sendJson("PUT", `/threads/${conv.threadId}/active-run`, { run_id: runId });
      conv.activeRun = runId;
    }
  } catch (error) {
    showError(errorBox, error, field);
    return;
  }
  conv.purpose = "ask";
  sessionStorage.setItem(`sm.purpose.${conv.threadId}`, "ask");
  conv.answer = "";
  $("#answer").replaceChildren();
  $("#citations").replaceChildren();
  await post({ text: field.value, mode: "ask" }, errorBox, field);
}

// -- opening a project ---------------------------------------------------------------------------------------------

/** Open the project's thread of this tab; after a reload, catch up from the last event seen. */
export async function openConversation(projectId) {
  if (conv.abort) conv.abort.abort();
  conv.projectId = projectId;
  conv.threadId = sessionStorage.getItem(threadKey(projectId));
  conv.lastId = 0;
  conv.activeRun = null;
  conv.answer = "";
  $("#stage").replaceChildren();
  $("#activity").replaceChildren();
  $("#source-progress").replaceChildren();
  $("#source-progress").hidden = true;
  $("#answer").replaceChildren();
  $("#citations").replaceChildren();
  if (!conv.threadId) return;
  conv.lastId = Number(sessionStorage.getItem(lastKey(conv.threadId)) || 0);
  conv.purpose = sessionStorage.getItem(`sm.purpose.${conv.threadId}`) || "search";
  let state;
  try {
    state = await getJson(`/threads/${conv.threadId}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      sessionStorage.removeItem(threadKey(projectId));
      conv.threadId = null;
      return;
    }
    say(messageOf(error), "error");
    return;
  }
  conv.activeRun = state.active_run_id;
  if (state.pending) {
    conv.replaying = true;
    renderInterrupt(state.pending);
    conv.replaying = false;
  }
  // Replay the last message's events from where it started (progress, the pause, the answer), then
  // follow live; the stored id is sent as Last-Event-ID.
  const start = Math.min(conv.lastId, Number(sessionStorage.getItem(startKey(conv.threadId)) ?? conv.lastId));
  if (state.busy || state.last_event_id > start) {
    conv.replaying = !state.busy;
    try {
      await follow(`/threads/${conv.threadId}/events`, { lastEventId: start });
    } catch (error) {
      say(messageOf(error), "error");
    } finally {
      conv.replaying = false;
    }
  }
}

/** After a language switch: say again what the page said, and draw the pending pause again. */
function retranslate() {
  if (said) sayKey(...said);
  if (stageNote) noteStage(...stageNote);
  else if (conv.shown && $("#stage").firstElementChild) {
    conv.replaying = true;
    renderInterrupt(conv.shown);
    conv.replaying = false;
  }
}

export function setupConversation({ onRunReady, onBusy }) {
  onLangChange(retranslate);
  conv.onRunReady = onRunReady;
  conv.onBusy = onBusy || (() => {});
  const field = $("#description");
  $("#describe-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sendDescription();
  });
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      sendDescription();
    }
  });
  $("#cancel").addEventListener("click", async () => {
    if (conv.threadId) await sendJson("POST", `/threads/${conv.threadId}/cancel`, {}).catch(() => {});
  });
}

export function activeRunOfThread() {
  return conv.activeRun;
}
