// The client side of the web contract: JSON over HTTP and the table's WebSocket.
//
// The WebSocket client reconnects by itself, asking for the events it missed (`since`), and
// keeps every message that carries an id until the server acknowledges it; after a reconnect
// (or a long silence) it sends the message again with the SAME id, so the server applies it
// at most once (a repeated id is answered with the first ack). It asks for patches: after the
// welcome's View, each update carries a JSON Patch of it, applied here; a patch that does not
// follow the last version, or does not fit, makes it reconnect for the whole View.

import { currentLanguage, t } from "./strings.js";

/** Where a table's seat token is kept in this browser. */
export const seatKey = (tableId) => `paiute.seat.${tableId}`;

export function getSeatToken(tableId) {
  try {
    return localStorage.getItem(seatKey(tableId));
  } catch {
    return null;
  }
}

export function setSeatToken(tableId, token) {
  try {
    if (token) localStorage.setItem(seatKey(tableId), token);
    else localStorage.removeItem(seatKey(tableId));
  } catch {
    // Private browsing may forbid storage: the seat link still works in this tab.
  }
}

/** Small JSON values kept per table in localStorage (invite links, commitments seen, cuts). */
export function remember(key, value) {
  try {
    localStorage.setItem(`paiute.${key}`, JSON.stringify(value));
  } catch {
    // Not fatal: only the extra checks that use it are skipped.
  }
}

export function forget(key) {
  try {
    localStorage.removeItem(`paiute.${key}`);
  } catch {
    // Nothing to do.
  }
}

export function recall(key) {
  try {
    const text = localStorage.getItem(`paiute.${key}`);
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** A fresh client id for an action (1..64 characters). Works outside secure contexts too. */
export function newId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** An error answer of the server: code, message, rule (or null). */
export class ApiError extends Error {
  constructor(code, message, rule = null, status = 0) {
    super(message);
    this.code = code;
    this.rule = rule;
    this.status = status;
  }
}

/** The text to show for an error object {code, message, rule} (the rule ID when there is one). */
export function errorText(error) {
  if (!error) return t("error.unknown");
  const own = {
    not_your_turn: "error.not_your_turn",
    rate_limited: "error.rate_limited",
    network: "error.network",
  }[error.code];
  const message = error.message || (own ? t(own) : t("error.unknown"));
  return error.rule ? t("error.with_rule", { message, rule: error.rule }) : t("error.plain", { message });
}

/**
 * `path` with the page's language (`lang=`): the server's words (error messages, the options'
 * help) come in the language the page is shown in, whatever the cookie or the browser's
 * Accept-Language say (an explicit choice comes first: docs/web-protocol.md, Languages).
 */
export function withLanguage(path) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(currentLanguage())}`;
}

/** fetch JSON from the API with the seat token; throws ApiError with the server's error body. */
export async function api(path, { method = "GET", body = undefined, token = null } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(withLanguage(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError("network", t("error.network"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data?.error ?? {};
    const detail = Array.isArray(data?.detail) ? data.detail.map((d) => d.msg).join("; ") : null;
    throw new ApiError(
      error.code ?? "bad_request",
      error.message ?? detail ?? response.statusText,
      error.rule ?? null,
      response.status,
    );
  }
  return data;
}

/**
 * `path` with a private table's invitation code (`invite=CODE`, as the invitation link has
 * it): how its holder reads the table's GET routes. Unchanged without a code.
 */
export function withInvite(path, invite) {
  if (!invite) return path;
  return `${path}${path.includes("?") ? "&" : "?"}invite=${encodeURIComponent(invite)}`;
}

/**
 * Save the file at `path` (the match's record), fetched with the seat token: a link cannot
 * send the header, and the token never goes into an address (logs, Referer). The name is the
 * server's (Content-Disposition), else `fallbackName`. Throws ApiError like `api`.
 */
export async function downloadWithToken(path, token, fallbackName) {
  let response;
  try {
    const headers = { Authorization: `Bearer ${token}` };
    response = await fetch(withLanguage(path), { headers, credentials: "same-origin" });
  } catch {
    throw new ApiError("network", t("error.network"));
  }
  if (!response.ok) {
    let error = {};
    try {
      error = (await response.json())?.error ?? {};
    } catch {
      error = {};
    }
    const message = error.message ?? response.statusText;
    throw new ApiError(error.code ?? "bad_request", message, error.rule ?? null, response.status);
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "");
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = named ? named[1] : fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/** Apply a JSON Patch (RFC 6902: add, replace, remove; docs/web-protocol.md) to `doc` in place
 * where it can; returns the result. Throws an Error when an operation does not fit. */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new Error("a patch is a list of operations");
  for (const op of ops) {
    if (op.path === "") {
      if (op.op !== "replace") throw new Error("only replace may name the whole document");
      doc = op.value;
      continue;
    }
    const parts = op.path.split("/").slice(1).map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
    const last = parts.pop();
    let parent = doc;
    for (const part of parts) {
      if (parent === null || typeof parent !== "object" || !(part in parent)) throw new Error(`no ${op.path}`);
      parent = parent[part];
    }
    if (parent === null || typeof parent !== "object") throw new Error(`no ${op.path}`);
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      const room = op.op === "add" ? parent.length : parent.length - 1;
      if (!/^(0|[1-9][0-9]*|-)$/.test(last) || index > room || (last === "-" && op.op !== "add")) {
        throw new Error(`no ${op.path}`);
      }
      if (op.op === "add") parent.splice(index, 0, op.value);
      else if (op.op === "replace") parent[index] = op.value;
      else if (op.op === "remove") parent.splice(index, 1);
      else throw new Error(`unknown operation ${op.op}`);
    } else {
      if (op.op !== "add" && !(last in parent)) throw new Error(`no ${op.path}`);
      if (op.op === "add" || op.op === "replace") parent[last] = op.value;
      else if (op.op === "remove") delete parent[last];
      else throw new Error(`unknown operation ${op.op}`);
    }
  }
  return doc;
}

/** What a client does with a presence frame: merge it into the View (the base of the patches). */
export function mergePresence(view, frame) {
  if (!view?.table?.players) return;
  const away = new Map((frame.away ?? []).map((item) => [item.seat, item.deadline]));
  for (const player of view.table.players) {
    player.connected = (frame.connected ?? []).includes(player.seat);
    player.away_until = away.get(player.seat) ?? null;
  }
  view.table.spectators = frame.spectators;
}

const RESEND_AFTER_MS = 6000;
const PING_EVERY_MS = 20000;

/**
 * A table's live connection. Callbacks: onWelcome(msg), onUpdate(msg), onPresence(msg),
 * onService(msg), onError(error, id), onStatus("connecting"|"online"|"offline", pendingCount).
 */
export class TableSocket {
  constructor(tableId, token, callbacks) {
    this.tableId = tableId;
    this.token = token;
    this.callbacks = callbacks;
    this.version = null; // the last version seen: sent as `since` when reconnecting
    this.view = null; // the View at that version, kept up to date by the patches
    this.pending = new Map(); // id -> {message, resolve, reject, sentAt}
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.timer = setInterval(() => this.tick(), 1000);
    this.lastPing = Date.now();
    // A private table shows itself to its seats and to its invitation link only.
    this.invite = new URLSearchParams(location.search).get("invite");
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // The language too: a refusal before the hello (too many connections) is in the page's.
    return withLanguage(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
  }

  connect() {
    if (this.closed) return;
    this.status("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello = { type: "hello", token: this.token, since: this.version, lang: currentLanguage(), patches: true };
      ws.send(JSON.stringify(this.invite ? { ...hello, invite: this.invite } : hello));
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      this.status(this.closed ? "stopped" : "offline"); // stopped: the server said it is no use
      this.scheduleReconnect();
    });
    ws.addEventListener("error", () => {
      // A close event follows; reconnecting happens there.
    });
  }

  scheduleReconnect() {
    if (this.closed) return;
    const delay = Math.min(10000, 300 * 2 ** this.attempt) + Math.random() * 300;
    this.attempt += 1;
    setTimeout(() => this.connect(), delay);
  }

  status(name) {
    this.callbacks.onStatus?.(name, this.pending.size);
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    switch (msg.type) {
      case "welcome":
        this.attempt = 0;
        this.welcomed = true;
        this.version = msg.version;
        this.view = msg.state;
        this.status("online");
        this.callbacks.onWelcome?.({ ...msg, state: structuredClone(msg.state) });
        // Everything not acknowledged goes again, with its own id: applied at most once.
        for (const entry of this.pending.values()) this.transmit(entry);
        break;
      case "update":
        if (this.version !== null && msg.version <= this.version) return; // already seen
        if (msg.patch) {
          try {
            if (this.view === null || msg.version !== this.version + 1) throw new Error("a version is missing");
            this.view = applyPatch(this.view, msg.patch);
          } catch {
            this.resync(); // the whole View again, and the events missed, with the welcome
            return;
          }
        } else {
          this.view = msg.state;
        }
        this.version = msg.version;
        this.callbacks.onUpdate?.({ ...msg, state: structuredClone(this.view) });
        break;
      case "ack": {
        const entry = this.pending.get(msg.id);
        if (entry) {
          this.pending.delete(msg.id);
          entry.resolve(msg);
          this.status("online");
        }
        break;
      }
      case "error": {
        const entry = msg.id ? this.pending.get(msg.id) : null;
        if (entry) {
          this.pending.delete(msg.id);
          entry.reject(new ApiError(msg.error.code, msg.error.message, msg.error.rule));
          this.status("online");
        }
        if (msg.error?.code === "bad_token") this.token = null;
        // No such table, or a private one without a seat or its invitation: reconnecting cannot help.
        if ((msg.error?.code === "not_found" || msg.error?.code === "forbidden") && !msg.id) this.closed = true;
        this.callbacks.onError?.(msg.error, msg.id ?? null);
        break;
      }
      case "presence":
        mergePresence(this.view, msg);
        this.callbacks.onPresence?.(msg);
        break;
      case "service": // the server's database is gone ("unavailable") or back ("ok")
        this.callbacks.onService?.(msg);
        break;
      default:
        break; // pong and anything newer
    }
  }

  transmit(entry) {
    entry.sentAt = Date.now();
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed) {
      this.ws.send(JSON.stringify(entry.message));
    }
  }

  /** Send a message that needs an id (action, cut, chat, start); resolves with the ack. */
  send(message) {
    const full = { id: newId(), ...message };
    return new Promise((resolve, reject) => {
      const entry = { message: full, resolve, reject, sentAt: 0 };
      this.pending.set(full.id, entry);
      this.transmit(entry);
      this.status(this.ws && this.welcomed ? "online" : "offline");
    });
  }

  tick() {
    const now = Date.now();
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.welcomed) return;
    for (const entry of this.pending.values()) {
      if (now - entry.sentAt > RESEND_AFTER_MS) this.transmit(entry);
    }
    if (now - this.lastPing > PING_EVERY_MS) {
      this.lastPing = now;
      this.ws.send(JSON.stringify({ type: "ping" }));
    }
  }

  /** Reconnect at once, asking for what came after the last version applied. */
  resync() {
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    if (ws) ws.close();
    this.connect();
  }

  /** Reconnect at once with another token (after taking a seat). */
  reconnect(token) {
    this.token = token;
    this.version = null;
    this.view = null;
    const ws = this.ws;
    this.ws = null;
    this.welcomed = false;
    if (ws) ws.close();
    this.attempt = 0;
    this.connect();
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    if (this.ws) this.ws.close();
  }
}
