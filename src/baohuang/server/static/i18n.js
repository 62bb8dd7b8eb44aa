// The page's words (界面文字): Chinese first, English switchable. They are the server's message
// catalog (src/baohuang/text, served at /api/text), so the page and the terminal say the same:
// 皇帝, 保皇派, 反贼, 头科 … 大落, 过, 登基/放弃, 明独, 暗独, 进贡.

const KEY = "bh.lang";
export let lang = localStorage.getItem(KEY) === "en" ? "en" : "zh";

// message id -> [中文, English], loaded by loadText() before the first page is drawn
let S = {};

/** Fetch the catalog, retrying until the server answers (the page has no words without it). */
export async function loadText() {
  for (let wait = 500; ; wait = Math.min(2 * wait, 8000)) {
    const res = await fetch("/api/text", { credentials: "same-origin" }).catch(() => null);
    if (res?.ok) {
      S = await res.json();
      return;
    }
    await new Promise((resume) => setTimeout(resume, wait));
  }
}

/** Switch the language and remember it. */
export function setLang(value) {
  lang = value === "en" ? "en" : "zh";
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang === "en" ? "en" : "zh-CN";
  document.documentElement.classList.toggle("lang-en", lang === "en");
}

/** The message `key` in the current language, `{name}` fields filled from `vars`. */
export function t(key, vars = {}) {
  const pair = S[key];
  const text = pair ? pair[lang === "en" ? 1 : 0] : key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? vars[name] : `{${name}}`));
}

/** Both languages of `key` as an error value {zh, message} (shown later with pick()). */
export function both(key) {
  return { zh: S[key][0], message: S[key][1] };
}

/** Pick from a [zh, en] pair sent by the server (signals, error messages). */
export function pick(zh, en) {
  return lang === "en" ? en || zh : zh || en;
}
