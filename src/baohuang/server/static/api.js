// The HTTP JSON API (errors: 4xx with {"detail": {"code", "key", "params", "message", "zh"}})
// and the session.

import { pick, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, detail) {
    super(typeof detail?.message === "string" ? detail.message : `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

/** Call the API; resolves with the JSON body, rejects with an ApiError. */
export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { message: t("err.network"), zh: t("err.network") });
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data?.detail);
  return data;
}

/** A readable message for an API or protocol error, in the page's language: worded from its
 * `key` and `params` when the catalog has the key and every field is given, else the server's
 * own `zh` / `message`. */
export function errorText(err) {
  const detail = err instanceof ApiError ? err.detail : err;
  if (detail?.key) {
    const text = t(detail.key, detail.params);
    if (text !== detail.key && !/\{\w+\}/.test(text)) return text;
  }
  if (detail && (detail.zh || typeof detail.message === "string")) {
    return pick(detail.zh, detail.message);
  }
  return t("err.generic", { status: err?.status ?? "?" });
}

/** The logged-in user ({id, name, guest}) or null; refreshed by loadMe(). */
export const session = { user: null };

export async function loadMe() {
  try {
    session.user = await api("GET", "/api/me");
  } catch {
    session.user = null;
  }
  return session.user;
}

/** Rules presets, bot levels, signals and option types (GET /api/presets), fetched once. */
let presets = null;
export async function loadPresets() {
  presets = presets || (await api("GET", "/api/presets"));
  return presets;
}
