// The create page of a tournament: the presets fill the form in one click, only the fields that apply to
// the chosen format and seating show, the tie-breaks are ordered by dragging (pointer events: mouse, pen and
// touch) or with the arrow buttons, and the form's checks run as the director types, each message beside
// its field. Without this script every field shows, the cards reload the page with their values, and the
// server checks everything (tournaments.forms.TournamentCreateForm); these checks mirror its own.
const form = document.querySelector("[data-create-form]");
const setupNode = document.getElementById("create-setup");

if (form && setupNode) {
  const setup = JSON.parse(setupNode.textContent);
  const messages = setup.messages;
  const field = (name) => form.elements.namedItem(name);
  const value = (name) => {
    const input = field(name);
    if (!input) return "";
    if (input instanceof RadioNodeList) return input.value;
    if (input.type === "checkbox") return input.checked ? "on" : "";
    return input.value;
  };

  // --- which fields apply ------------------------------------------------------------------------
  // data-show="format=swiss; seating=heads-up|teams": every condition must hold; "name=" means empty,
  // "name=+" means filled in and not 0.
  const conditions = [...form.querySelectorAll("[data-show]")].map((block) => ({
    block,
    rules: block.dataset.show.split(";").map((part) => {
      const [name, wanted] = part.trim().split("=");
      return { name, wanted: wanted ?? "" };
    }),
  }));
  const holds = ({ name, wanted }) => {
    const current = value(name).trim();
    if (wanted === "+") return current !== "" && current !== "0";
    if (wanted === "") return current === "";
    return wanted.split("|").includes(current);
  };
  const showFields = () => {
    for (const { block, rules } of conditions) block.hidden = !rules.every(holds);
  };

  // --- the tie-breaks -------------------------------------------------------------------------------
  const tiebreaks = form.querySelector("[data-tiebreaks]");
  const list = tiebreaks.querySelector("[data-tiebreak-list]");
  const custom = tiebreaks.querySelector("[data-tiebreaks-custom]");
  const pick = tiebreaks.querySelector("[data-tiebreak-pick]");
  const status = tiebreaks.querySelector("[data-tiebreak-status]");
  const template = list.querySelector("li").cloneNode(true);
  const items = () => [...list.querySelectorAll("li")];
  const say = (item) => {
    const place = items().indexOf(item) + 1;
    status.textContent = messages.moved
      .replace("%(name)s", item.querySelector(".tiebreak-name").textContent)
      .replace("%(place)s", place)
      .replace("%(count)s", items().length);
  };
  const relabel = (item, code) => {
    const name = setup.labels[code];
    item.dataset.code = code;
    item.querySelector(".tiebreak-name").textContent = name;
    item.querySelector("input").value = code;
    for (const button of item.querySelectorAll("button")) {
      // "Move up: Buchholz": keep the action's words, put the new name after the colon.
      const label = button.getAttribute("aria-label");
      button.setAttribute("aria-label", `${label.slice(0, label.lastIndexOf(":"))}: ${name}`);
    }
  };
  const refreshPick = () => {
    const chosen = new Set(items().map((item) => item.dataset.code));
    for (const option of [...pick.options].slice(1)) option.remove();
    for (const [code, name] of Object.entries(setup.labels)) {
      if (!chosen.has(code)) pick.add(new Option(name, code));
    }
    pick.value = "";
  };
  const setOrder = (codes) => {
    list.replaceChildren(
      ...codes.map((code) => {
        const item = template.cloneNode(true);
        relabel(item, code);
        return item;
      }),
    );
    refreshPick();
  };
  const changed = () => {
    custom.value = "1";
    refreshPick();
  };
  const move = (item, step) => {
    const all = items();
    const target = all.indexOf(item) + step;
    if (target < 0 || target >= all.length) return;
    if (step < 0) list.insertBefore(item, all[target]);
    else list.insertBefore(item, all[target].nextSibling);
    changed();
    say(item);
  };
  list.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const item = button.closest("li");
    if (button.hasAttribute("data-remove")) {
      if (items().length <= 1) return;
      const next = item.nextElementSibling || item.previousElementSibling;
      item.remove();
      changed();
      next?.querySelector("[data-remove]")?.focus();
      return;
    }
    move(item, Number(button.dataset.move));
    button.focus();
  });
  tiebreaks.querySelector("[data-tiebreak-add-button]").addEventListener("click", () => {
    if (!pick.value) return;
    const item = template.cloneNode(true);
    relabel(item, pick.value);
    list.append(item);
    changed();
    say(item);
  });

  // Dragging: the item follows the pointer and takes the place of the one it passes (pointer capture
  // keeps the events coming when the finger leaves the item; touch-action: none on the grip lets it).
  let dragged = null;
  list.addEventListener("pointerdown", (event) => {
    const item = event.target.closest("li");
    if (!item || event.target.closest("button") || event.button > 0) return;
    // A finger on the row scrolls the page; on the grip it drags (a mouse or a pen drags from anywhere).
    if (event.pointerType === "touch" && !event.target.closest(".grip")) return;
    dragged = item;
    item.classList.add("dragging");
    item.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  list.addEventListener("pointermove", (event) => {
    if (!dragged) return;
    for (const other of items()) {
      if (other === dragged) continue;
      const box = other.getBoundingClientRect();
      if (event.clientY < box.top || event.clientY > box.bottom) continue;
      const before = event.clientY < box.top + box.height / 2;
      const next = before ? other : other.nextSibling;
      if (next !== dragged && next !== dragged.nextSibling) {
        list.insertBefore(dragged, next);
        custom.value = "1";
      }
      break;
    }
  });
  const drop = () => {
    if (!dragged) return;
    dragged.classList.remove("dragging");
    say(dragged);
    dragged = null;
  };
  list.addEventListener("pointerup", drop);
  list.addEventListener("pointercancel", drop);

  // --- the checks -----------------------------------------------------------------------------------
  const number = (name) => (value(name).trim() === "" ? null : Number(value(name)));
  const moment = (name) => (value(name) ? new Date(value(name)) : null);
  const visible = (name) => {
    const input = field(name);
    return input && !(input instanceof RadioNodeList) && !input.closest("[hidden]");
  };
  const checks = {
    name: () => (value("name").trim() ? "" : messages.required),
    rounds: () => {
      const rounds = number("rounds");
      return rounds === null || !Number.isInteger(rounds) || rounds < 1 || rounds > 30 ? messages.rounds : "";
    },
    seating: () => (value("format") !== "swiss" && value("seating") === "tables" ? messages.tables_round_robin : ""),
    table_size: () => {
      const size = number("table_size");
      return size === null || size < 3 || size > 6 ? messages.table_size : "";
    },
    points_win: () => (number("points_win") === null ? messages.required : number("points_win") < 0 ? messages.negative : ""),
    points_draw: () => {
      const win = number("points_win");
      const draw = number("points_draw");
      if (draw === null) return messages.required;
      if (draw < 0) return messages.negative;
      return win !== null && !(win > draw) ? messages.points : "";
    },
    place_points: () =>
      value("place_points")
        .split(/[,;]/)
        .some((part) => part.trim() !== "" && Number.isNaN(Number(part)))
        ? messages.place_points
        : "",
    registration_opens: () => (value("registration_opens") ? "" : messages.required),
    registration_closes: () => {
      if (!value("registration_closes")) return messages.required;
      const opens = moment("registration_opens");
      return opens && moment("registration_closes") < opens ? messages.closes : "";
    },
    starts_at: () => {
      if (!value("starts_at")) return messages.required;
      const closes = moment("registration_closes");
      return closes && moment("starts_at") < closes ? messages.starts : "";
    },
    round_interval: () => (number("round_interval") === null ? messages.required : number("round_interval") < 0 ? messages.negative : ""),
    grace_seconds: () => (number("grace_seconds") === null ? messages.required : number("grace_seconds") < 0 ? messages.negative : ""),
    clock_base: () => {
      const base = number("clock_base");
      return base === null || base < 0.5 || base > 60 ? messages.clock_base : "";
    },
    clock_increment: () => {
      const increment = number("clock_increment");
      return increment !== null && (increment < 0 || increment > 60) ? messages.clock_increment : "";
    },
    capacity: () => (number("capacity") !== null && number("capacity") < 2 ? messages.capacity : ""),
    final_size: () => {
      const size = number("final_size") ?? 0;
      return size !== 0 && (size < 2 || size > 16 || !Number.isInteger(size)) ? messages.final_size : "";
    },
    final_starts_at: () => {
      if (!value("final_starts_at")) return messages.required;
      const starts = moment("starts_at");
      return starts && moment("final_starts_at") <= starts ? messages.final_starts : "";
    },
    qualify_count: () => ((number("qualify_count") ?? 0) < 2 ? messages.qualify_count : ""),
  };
  const touched = new Set();
  const show = (name, message) => {
    const input = field(name);
    const box = input.closest(".field");
    let note = box.querySelector(".client-error");
    // A server's message stays until the field is changed; then the live check speaks for it.
    if (touched.has(name)) for (const old of box.querySelectorAll(".error:not(.client-error)")) old.remove();
    if (!message) {
      note?.remove();
      if (!box.querySelector(".error")) box.classList.remove("has-errors");
      input.removeAttribute("aria-invalid");
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.className = "error client-error";
      note.setAttribute("role", "alert");
      note.id = `${input.id}-error`;
      box.append(note);
    }
    note.textContent = message;
    box.classList.add("has-errors");
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", note.id);
  };
  const check = (names) => {
    let wrong = null;
    for (const name of names) {
      if (!visible(name)) {
        if (field(name)) show(name, "");
        continue;
      }
      const message = checks[name]();
      show(name, message);
      if (message && !wrong) wrong = field(name);
    }
    return wrong;
  };
  // A field's change re-checks the fields whose checks read it.
  const related = {
    format: ["rounds", "seating", "final_size", "final_starts_at"],
    seating: ["seating", "table_size", "points_win", "points_draw", "final_size"],
    points_win: ["points_draw"],
    registration_opens: ["registration_closes", "starts_at"],
    registration_closes: ["starts_at"],
    starts_at: ["final_starts_at"],
    final_size: ["final_starts_at"],
    timing: ["clock_base", "clock_increment"],
    qualifier: ["qualify_count"],
  };
  const onEdit = (event) => {
    const name = event.target.name;
    if (!name) return;
    if (name === "format" && custom.value !== "1") setOrder(setup.orders[value("format")] || setup.orders.swiss);
    showFields();
    if (!(name in checks) && !(name in related)) return;
    touched.add(name);
    check([name, ...(related[name] || [])].filter((one) => one in checks && (touched.has(one) || one === name)));
  };
  form.addEventListener("input", onEdit);
  form.addEventListener("change", onEdit);
  const summary = document.getElementById("create-summary");
  form.addEventListener("submit", (event) => {
    for (const name of Object.keys(checks)) touched.add(name);
    const wrong = check(Object.keys(checks));
    summary.hidden = !wrong;
    if (wrong) {
      summary.textContent = messages.fix;
      event.preventDefault();
      wrong.focus();
    }
  });

  // --- the presets ------------------------------------------------------------------------------------
  const later = (name, hours) => {
    const start = moment(name) || new Date();
    const shifted = new Date(start.getTime() + hours * 3600 * 1000);
    const pad = (part) => String(part).padStart(2, "0");
    return `${shifted.getFullYear()}-${pad(shifted.getMonth() + 1)}-${pad(shifted.getDate())}T${pad(shifted.getHours())}:${pad(shifted.getMinutes())}`;
  };
  const fill = (values) => {
    for (const [name, wanted] of Object.entries(values)) {
      const input = field(name);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = Boolean(wanted);
      else input.value = String(wanted);
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    if (Number(values.final_size)) field("final_starts_at").value = later("starts_at", 3);
    custom.value = "0";
    setOrder(setup.orders[value("format")] || setup.orders.swiss);
    showFields();
  };
  for (const card of document.querySelectorAll("[data-preset]")) {
    card.addEventListener("click", (event) => {
      event.preventDefault();
      fill(setup.presets[card.dataset.preset]);
      for (const other of document.querySelectorAll("[data-preset]")) {
        other.classList.toggle("chosen", other === card);
        if (other === card) other.setAttribute("aria-current", "true");
        else other.removeAttribute("aria-current");
      }
      field("name").focus();
    });
  }

  for (const hidden of tiebreaks.querySelectorAll("[hidden]")) {
    if (!hidden.matches("[data-tiebreak-status]")) hidden.hidden = false;
  }
  for (const item of [...items(), template]) {
    item.querySelector(".tiebreak-buttons").hidden = false;
    item.querySelector(".grip").hidden = false;
  }
  const plain = tiebreaks.querySelector("[data-tiebreak-plain]");
  if (plain) plain.hidden = true;
  refreshPick();
  showFields();
}
