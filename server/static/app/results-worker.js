// The result lists live in this worker: it downloads and parses a Run's JSON, keeps the rows, and
// answers the page asked for (sorted, filtered). Parsing megabytes of JSON and sorting thousands of rows
// here keeps the page's main thread free: it only ever receives one page of small, flat rows.
"use strict";

const datasets = new Map(); // id -> {rows, views: Map}
const KEEP = 8; // datasets kept (least recently used dropped first)

function link(paper) {
  if (paper.doi) return "https://doi.org/" + paper.doi;
  if (paper.pmid) return "https://pubmed.ncbi.nlm.nih.gov/" + paper.pmid + "/";
  if (paper.openalex_id) {
    return paper.openalex_id.startsWith("http") ? paper.openalex_id : "https://openalex.org/" + paper.openalex_id;
  }
  if (paper.semantic_scholar_id) return "https://www.semanticscholar.org/paper/" + paper.semantic_scholar_id;
  return paper.oa_url || "";
}

function authorsOf(paper) {
  const names = (paper.authors || []).map((a) => a.name);
  return names.length > 6 ? names.slice(0, 6).join(", ") + " et al." : names.join(", ");
}

function abstractOf(paper) {
  if (paper.abstract) return paper.abstract;
  return (paper.abstract_sections || []).map((s) => (s.label ? s.label + ": " : "") + s.text).join("\n");
}

function rowOf(item, index, aggregated) {
  const paper = aggregated ? item.paper || {} : item;
  const row = {
    key: aggregated ? item.key : paper.doi ? "doi:" + paper.doi.toLowerCase() : "row:" + index,
    rank: aggregated ? item.rank ?? index + 1 : paper.source_rank ?? index + 1,
    title: paper.title || paper.vernacular_title || "",
    link: link(paper),
    authors: authorsOf(paper),
    year: paper.year ?? null,
    venue: paper.venue || "",
    doi: paper.doi || "",
    sources: aggregated ? [...new Set((item.evidence || []).map((e) => e.source))] : paper.source ? [paper.source] : [],
    abstract: abstractOf(paper),
    score: aggregated ? (item.score || {}).total ?? null : null,
    breakdown: aggregated ? item.score || {} : null,
    evidence: aggregated ? (item.evidence || []).map((e) => ({ source: e.source, rank: e.rank, id: e.source_id, via: e.via || null })) : null,
    merged_by: aggregated ? item.merged_by || [] : null,
    origin: aggregated ? item.origin || "query" : null,
  };
  return row;
}

function haystack(row) {
  if (row._hay === undefined) {
    row._hay = [row.title, row.authors, row.venue, row.doi, row.year, row.abstract].join(" ").toLowerCase();
  }
  return row._hay;
}

const COMPARE = {
  rank: (a, b) => (a.rank ?? 1e12) - (b.rank ?? 1e12),
  year: (a, b) => (a.year ?? -1) - (b.year ?? -1),
  score: (a, b) => (a.score ?? -1) - (b.score ?? -1),
  title: (a, b) => a.title.localeCompare(b.title),
  authors: (a, b) => a.authors.localeCompare(b.authors),
  venue: (a, b) => a.venue.localeCompare(b.venue),
  doi: (a, b) => a.doi.localeCompare(b.doi),
};

function view(dataset, sort, dir, filter) {
  const cacheKey = sort + "|" + dir + "|" + filter;
  let rows = dataset.views.get(cacheKey);
  if (rows) return rows;
  rows = dataset.rows;
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length) rows = rows.filter((row) => words.every((w) => haystack(row).includes(w)));
  const compare = COMPARE[sort] || COMPARE.rank;
  rows = rows.slice().sort(dir === "desc" ? (a, b) => compare(b, a) : compare);
  if (dataset.views.size > 6) dataset.views.clear();
  dataset.views.set(cacheKey, rows);
  return rows;
}

function strip(row) {
  const { _hay, ...rest } = row;
  return rest;
}

async function load(message) {
  const headers = message.token ? { authorization: "Bearer " + message.token } : {};
  const response = await fetch(message.url, { headers });
  if (!response.ok) {
    let detail = "HTTP " + response.status;
    try {
      detail = (await response.json()).detail || detail;
    } catch (e) {
      // keep the status
    }
    throw Object.assign(new Error(detail), { status: response.status });
  }
  const items = JSON.parse(await response.text());
  const rows = items.map((item, index) => rowOf(item, index, message.aggregated));
  datasets.delete(message.id);
  datasets.set(message.id, { rows, views: new Map() });
  while (datasets.size > KEEP) datasets.delete(datasets.keys().next().value);
  return rows.length;
}

const loading = new Map(); // id -> promise

function ensure(message) {
  if (datasets.has(message.id)) return Promise.resolve(datasets.get(message.id).rows.length);
  if (!loading.has(message.id)) {
    loading.set(message.id, load(message).finally(() => loading.delete(message.id)));
  }
  return loading.get(message.id);
}

function compareRuns(a, b, limit) {
  const keysA = new Set(a.rows.map((r) => r.key));
  const keysB = new Set(b.rows.map((r) => r.key));
  const onlyA = a.rows.filter((r) => !keysB.has(r.key));
  const onlyB = b.rows.filter((r) => !keysA.has(r.key));
  const short = (r) => ({ key: r.key, title: r.title, link: r.link, year: r.year, rank: r.rank });
  return {
    onlyA: onlyA.slice(0, limit).map(short),
    onlyB: onlyB.slice(0, limit).map(short),
    countA: onlyA.length,
    countB: onlyB.length,
    both: a.rows.length - onlyA.length,
  };
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    if (message.type === "load") {
      const total = await ensure(message);
      self.postMessage({ type: "loaded", reqId: message.reqId, total });
    } else if (message.type === "page") {
      await ensure(message);
      const dataset = datasets.get(message.id);
      const rows = view(dataset, message.sort, message.dir, message.filter || "");
      const page = rows.slice(message.offset, message.offset + message.limit).map(strip);
      self.postMessage({ type: "page", reqId: message.reqId, total: dataset.rows.length, filtered: rows.length, rows: page });
    } else if (message.type === "compare") {
      await Promise.all([ensure(message.a), ensure(message.b)]);
      const result = compareRuns(datasets.get(message.a.id), datasets.get(message.b.id), message.limit || 200);
      self.postMessage({ type: "compare", reqId: message.reqId, ...result });
    }
  } catch (error) {
    self.postMessage({ type: "error", reqId: message.reqId, status: error.status || 0, message: error.message });
  }
};
