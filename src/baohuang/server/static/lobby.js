// The lobby (大厅): join as a guest or log in, the list of tables, creating a table.

import { api, errorText, loadPresets, session } from "./api.js";
import { rooms } from "./conn.js";
import { h, mount, toast } from "./dom.js";
import { t } from "./i18n.js";
import { rulesLink } from "./rules.js";

/** Set by the lobby before it opens a table the user means to sit at (read by table.js), and
 *  to say 准备 at once there (快速开始). */
export const intent = { sit: null, ready: false };

/** `#/room/CODE`, the invite link of a friends' table: its table, the code kept for the
 * table's hello, the user seated when logged in. */
export async function roomPage(root, { id: code }) {
  const { id } = await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
  rooms.set(id, code);
  intent.sit = id;
  location.replace(`#/table/${id}`);
  return () => {};
}

/** The join box: a guest nickname, or log in / register with a password. */
export function loginBox(onDone) {
  let mode = "guest";
  const box = h("section", { class: "panel login", id: "login" });
  const draw = () => {
    const name = h("input", {
      name: "name",
      autocomplete: "username",
      maxlength: 20,
      required: true,
    });
    const password = h("input", {
      name: "password",
      type: "password",
      autocomplete: mode === "register" ? "new-password" : "current-password",
      required: true,
    });
    const submit = async (ev) => {
      ev.preventDefault();
      const body = { name: name.value.trim() };
      if (mode !== "guest") body.password = password.value;
      try {
        session.user = await api("POST", `/api/${mode}`, body);
        onDone();
      } catch (err) {
        toast(errorText(err), "error");
      }
    };
    const tab = (m) =>
      h(
        "button",
        {
          type: "button",
          class: `tab${m === mode ? " on" : ""}`,
          "data-mode": m,
          onclick: () => {
            mode = m;
            draw();
          },
        },
        t(`login.${m}`),
      );
    mount(
      box,
      h("h2", {}, t("login.title")),
      h("div", { class: "tabs" }, tab("guest"), tab("login"), tab("register")),
      h(
        "form",
        { onsubmit: submit },
        h("label", {}, t("login.name"), name),
        mode === "guest" ? null : h("label", {}, t("login.password"), password),
        h(
          "button",
          { class: "primary", type: "submit" },
          t(mode === "guest" ? "login.go_guest" : `login.${mode}`),
        ),
      ),
    );
  };
  draw();
  return box;
}

const seatsTaken = (info) => info.seats.filter(Boolean).length;

/** A table as people call it: its name, else whose table it is, else its rules' (not its id). */
export function tableName(info) {
  if (info.config.name) return info.config.name;
  const host = info.seats.find((seat) => seat && seat.user !== null);
  const preset = t(`preset.${info.config.preset}`);
  return host ? t("table.of", { name: host.name }) : t("table.of_rules", { preset });
}

function tableRow(info) {
  const open = info.status === "waiting" && seatsTaken(info) < 5;
  const go = (sit) => {
    intent.sit = sit ? info.id : null;
    location.hash = `#/table/${info.id}`;
  };
  return h(
    "tr",
    { "data-table": info.id },
    h("td", {}, tableName(info)),
    h("td", {}, t(`preset.${info.config.preset}`)),
    h("td", {}, `${seatsTaken(info)}/5`),
    h("td", {}, String(info.watching)),
    h("td", {}, t(`status.${info.status}`)),
    h(
      "td",
      {},
      h(
        "div",
        { class: "row-actions" },
        open ? h("button", { class: "primary sit", onclick: () => go(true) }, t("btn.sit")) : null,
        h("button", { class: "watch", onclick: () => go(false) }, t("btn.watch")),
      ),
    ),
  );
}

function tablesPanel() {
  const body = h("tbody");
  // GET /api/tables answers a page at a time (lobby.py lobby_page): 上一页/下一页 when several.
  const pager = h("div", { class: "pager" });
  let page = 1;
  const panel = h(
    "section",
    { class: "panel tables" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", {}, t("tables.title")),
      h("button", { onclick: () => refresh() }, t("tables.refresh")),
    ),
    h(
      "table",
      { class: "grid" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["col.name", "col.preset", "col.seats", "col.watching", "col.status"].map((k) =>
            h("th", {}, t(k)),
          ),
          h("th"),
        ),
      ),
      body,
    ),
    pager,
  );
  const turn = (to) => () => {
    page = to;
    refresh();
  };
  const refresh = async () => {
    try {
      const listed = await api("GET", `/api/tables?page=${page}`);
      const { tables, pages, total } = listed;
      page = listed.page;
      if (!tables.length) {
        mount(body, h("tr", {}, h("td", { colspan: 6, class: "empty" }, t("tables.empty"))));
      } else mount(body, tables.map(tableRow));
      mount(
        pager,
        pages > 1
          ? [
              h(
                "button",
                { class: "prev", disabled: page <= 1, onclick: turn(page - 1) },
                t("tables.prev"),
              ),
              h("span", {}, t("tables.page", { page, pages, total })),
              h(
                "button",
                { class: "next", disabled: page >= pages, onclick: turn(page + 1) },
                t("tables.next"),
              ),
            ]
          : [],
      );
    } catch (err) {
      toast(errorText(err), "error");
    }
  };
  refresh();
  return { panel, refresh };
}

function field(label, input) {
  return h("label", {}, h("span", {}, label), input);
}

/** An input for rule option `name` whose value in the chosen preset is `value`. */
function optionInput(name, value, type) {
  if (typeof value === "boolean" || /bool/.test(type)) {
    return h("input", { type: "checkbox", name, checked: Boolean(value) });
  }
  if (name === "ranks_from") {
    return h(
      "select",
      { name },
      ["3", "4", "5", "6"].map((r) => h("option", { value: r, selected: r === value }, r)),
    );
  }
  if (typeof value === "number" || /int/.test(type)) {
    return h("input", { type: "number", name, value: String(value ?? 0), min: 0 });
  }
  return h("input", { name, value: String(value ?? "") });
}

function readOption(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.type === "number") return Number(input.value);
  return input.value;
}

async function createPanel() {
  const { presets, bot_levels: levels, options } = await loadPresets();
  const names = Object.keys(presets);
  const num = (name, value, min, max, step = 1) =>
    h("input", { type: "number", name, value: String(value), min, max, step });
  const preset = h(
    "select",
    { name: "preset" },
    names.map((n) => h("option", { value: n }, t(`preset.${n}`))),
  );
  const optionBox = h("div", { class: "options" });
  const drawOptions = () => {
    const rules = presets[preset.value];
    mount(
      optionBox,
      Object.entries(options).map(([name, type]) =>
        h(
          "label",
          { class: "option" },
          optionInput(name, rules[name], String(type)),
          t(`opt.${name}`),
        ),
      ),
    );
  };
  preset.addEventListener("change", drawOptions);
  drawOptions();
  /** The rule options ticked that differ from the preset's own. */
  const chosenOptions = () => {
    const rules = presets[preset.value];
    const chosen = {};
    for (const input of optionBox.querySelectorAll("input, select")) {
      const value = readOption(input);
      if (value !== rules[input.name]) chosen[input.name] = value;
    }
    return chosen;
  };
  const more = h(
    "details",
    { class: "more" },
    h("summary", {}, t("create.more")),
    h("fieldset", {}, h("legend", {}, t("create.options")), optionBox),
    field(t("create.timer"), num("timer", 30, 0, 600)),
    field(
      t("create.bot_level"),
      h(
        "select",
        { name: "bot_level" },
        levels.map((b) => h("option", { value: b, selected: b === "heuristic" }, t(`bot.${b}`))),
      ),
    ),
    field(t("create.bots"), num("bots", 4, 0, 4)),
    field(t("create.bot_delay"), num("bot_delay", 0.8, 0, 5, "any")),
    field(t("create.pause"), num("pause", 3, 0, 30, "any")),
    field(t("create.grace"), num("grace", 10, 0, 120, "any")),
    h(
      "label",
      { class: "option" },
      h("input", { type: "checkbox", name: "counter", checked: true }),
      t("create.counter"),
    ),
  );
  // The essentials first, the button in view; the rest under 更多选项 (a match of 3 games by
  // default, so that tribute happens: R12).
  const form = h(
    "form",
    { class: "create" },
    field(t("create.name"), h("input", { name: "name", maxlength: 40 })),
    field(t("create.preset"), [
      preset,
      rulesLink(() => preset.value, chosenOptions, "", t("rules.open")),
    ]),
    field(t("create.games"), num("games", 3, 1, 50)),
    h(
      "label",
      { class: "option" },
      h("input", { type: "checkbox", name: "private" }),
      t("create.private"),
    ),
    h("button", { class: "primary", type: "submit" }, t("create.go")),
    more,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const get = (n) => form.elements[n].value;
    const config = {
      name: get("name").trim(),
      preset: get("preset"),
      options: chosenOptions(),
      games: Number(get("games")),
      timer: Number(get("timer")),
      bot_level: get("bot_level"),
      bots: Number(get("bots")),
      bot_delay: Number(get("bot_delay")),
      pause: Number(get("pause")),
      grace: Number(get("grace")),
      counter: form.elements.counter.checked,
      private: form.elements.private.checked,
    };
    try {
      const info = await api("POST", "/api/tables", config);
      if (info.code) rooms.set(info.id, info.code);
      intent.sit = info.id;
      location.hash = `#/table/${info.id}`;
    } catch (err) {
      toast(errorText(err), "error");
    }
  });
  return h("section", { class: "panel create-panel" }, h("h2", {}, t("create.title")), form);
}

/** 快速开始: one click to a match at the preset last played (or the one chosen), seated with
 *  people waiting there or with bots at once (POST /api/quick). */
async function quickPanel() {
  const { presets } = await loadPresets();
  const preset = h(
    "select",
    { class: "quick-preset", "aria-label": t("create.preset") },
    h("option", { value: "" }, t("quick.last")),
    Object.keys(presets).map((n) => h("option", { value: n }, t(`preset.${n}`))),
  );
  const go = h("button", { class: "primary big quick-go", type: "button" }, t("quick.go"));
  go.addEventListener("click", async () => {
    go.disabled = true;
    try {
      const found = await api("POST", "/api/quick", preset.value ? { preset: preset.value } : {});
      intent.sit = found.id;
      intent.ready = true;
      location.hash = `#/table/${found.id}`;
    } catch (err) {
      toast(errorText(err), "error");
      go.disabled = false;
    }
  });
  return h(
    "section",
    { class: "panel quick" },
    go,
    preset,
    h("p", { class: "note" }, t("quick.note")),
  );
}

/** Join a friends' table (好友房) by its room code: look it up, then sit there. */
function roomPanel() {
  const code = h("input", {
    name: "code",
    maxlength: 12,
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    placeholder: "ABC234",
    required: true,
  });
  const submit = async (ev) => {
    ev.preventDefault();
    try {
      const { id } = await api("GET", `/api/rooms/${encodeURIComponent(code.value.trim())}`);
      rooms.set(id, code.value.trim());
      intent.sit = id;
      location.hash = `#/table/${id}`;
    } catch (err) {
      toast(errorText(err), "error");
      code.select();
    }
  };
  return h(
    "section",
    { class: "panel room-join" },
    h("h2", {}, t("room.join.title")),
    h(
      "form",
      { class: "room-join-form", onsubmit: submit },
      field(t("room.join.code"), code),
      h("button", { class: "primary", type: "submit" }, t("room.join.go")),
    ),
  );
}

/** The lobby page; returns its cleanup. */
export async function lobbyPage(root, _params, redraw) {
  if (!session.user) {
    mount(root, h("div", { class: "lobby" }, loginBox(redraw)));
    return () => {};
  }
  const { panel, refresh } = tablesPanel();
  const quick = await quickPanel();
  mount(root, h("div", { class: "lobby" }, quick, panel, roomPanel(), await createPanel()));
  const timer = setInterval(refresh, 5000);
  return () => clearInterval(timer);
}
