// The API on the same origin: JSON calls with the bearer token, and SSE streams read with fetch.
// EventSource cannot send an Authorization header, so streams are read from a ReadableStream and parsed
// here (event, id, data lines; comment lines are heartbeats). The token lives in sessionStorage: it is
// forgotten when the tab closes.

const TOKEN_KEY = "sm.token";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

export function authHeaders(extra = {}) {
  const headers = { ...extra };
  if (token()) headers.authorization = `Bearer ${token()}`;
  return headers;
}

async function errorOf(response) {
  let message = `HTTP ${response.status}`;
  try {
    const body = await response.json();
    if (typeof body.detail === "string") message = body.detail;
    else if (body.detail) message = JSON.stringify(body.detail);
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, message);
}

/** fetch with the token; a non-2xx answer throws ApiError with the API's own message. */
export async function request(path, { method = "GET", body, headers = {}, signal } = {}) {
  const init = { method, headers: authHeaders(headers), signal };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network");
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

export async function getJson(path, options) {
  return (await request(path, options)).json();
}

export async function sendJson(method, path, body) {
  return (await request(path, { method, body })).json();
}

/**
 * Read an SSE response event by event. `onEvent` gets the parsed data of each frame ({id, type, data, ts}).
 * Resolves when the server ends the stream; throws ApiError for a refused request (4xx before the stream),
 * or a TypeError/AbortError when the connection drops.
 */
export async function stream(path, { method = "GET", body, lastEventId, signal } = {}, onEvent) {
  const headers = { accept: "text/event-stream" };
  if (lastEventId !== undefined && lastEventId !== null) headers["last-event-id"] = String(lastEventId);
  const response = await request(path, { method, body, headers, signal });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    // Normalise line ends, but keep a trailing "\r" whose "\n" may come in the next chunk.
    const keep = buffer.endsWith("\r") ? "\r" : "";
    buffer = buffer.slice(0, buffer.length - keep.length).replace(/\r\n?/g, "\n") + keep;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length && data.join("").trim()) onEvent(JSON.parse(data.join("\n")));
    }
  }
}

/** Download a response as a file (export buttons): the token rides along, which a plain link cannot do. */
export async function download(path) {
  const response = await request(path);
  const disposition = response.headers.get("content-disposition") || "";
  const match = disposition.match(/filename="?([^";]+)"?/);
  const name = match ? match[1] : path.split("/").pop();
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
