// Small DOM helpers shared by the app's modules: building elements, showing errors next to fields,
// and drafts (typed text kept in sessionStorage so an error or a reload never loses it).

import { ApiError } from "./api.js";
import { has, t } from "./i18n.js";

export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "className") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    // links come from outside data (a record's URL): only web, in-page and same-site ones are followed
    else if (key === "href" && !/^(https?:\/\/|#|\/(?!\/))/i.test(String(value))) continue;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function messageOf(error) {
  if (error instanceof ApiError && error.status === 0) return t("error.network");
  return error && error.message ? error.message : String(error);
}

/** Show `error` (or hide the box for null) in the error element `box`, tied to `field` for screen readers. */
export function showError(box, error, field) {
  if (!box) return;
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    if (field) field.removeAttribute("aria-invalid");
    return;
  }
  box.textContent = messageOf(error);
  box.hidden = false;
  if (field) {
    field.setAttribute("aria-invalid", "true");
    if (!box.id) box.id = `${field.id || "field"}-error`;
    field.setAttribute("aria-describedby", box.id);
  }
}

const DRAFT = "sm.draft.";

/** Keep the field's text in sessionStorage under `key`; restores it now. */
export function keepDraft(field, key) {
  const saved = sessionStorage.getItem(DRAFT + key);
  if (saved !== null && field.value === "") field.value = saved;
  field.addEventListener("input", () => sessionStorage.setItem(DRAFT + key, field.value));
}

export function clearDraft(field, key) {
  sessionStorage.removeItem(DRAFT + key);
  field.value = "";
}

export function formatDate(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export const SOURCES = ["pubmed", "semantic_scholar", "openalex"];

/** A source's display name ("semantic_scholar" -> "Semantic Scholar"); unknown ones as they are. */
export function sourceName(source) {
  return has(`source.${source}`) ? t(`source.${source}`) : source;
}

/** "PubMed 12 · Semantic Scholar 9 · OpenAlex 15 · merged 30" */
export function countsText(counts) {
  const parts = SOURCES.filter((s) => s in (counts || {})).map((s) => `${t(`source.${s}`)} ${counts[s]}`);
  if (counts && "aggregated" in counts) parts.push(`${t("runs.merged")} ${counts.aggregated}`);
  return parts.join(" · ");
}
