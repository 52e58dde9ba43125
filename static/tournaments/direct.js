// The director's confirmation: a submit button with data-confirm does not send its form at once; the page's
// <dialog> (templates/tournaments/_confirm_dialog.html) says exactly what will be recorded and asks the reason,
// and only its Confirm sends the form, with the reason and confirm=yes (the results' views refuse an act
// without it). A destructive act (data-danger) has a red Confirm. At a table, the dialog lists the places chosen
// with the points each gets (data-points on .place-picks: the match's points by place).

const dialog = document.getElementById("confirm-dialog");
const strings = dialog ? { place: dialog.dataset.place, points: dialog.dataset.points } : {};

function format(template, values) {
  return String(template || "").replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

function written(points) {
  // As a club writes points: 1, ½, 1½.
  const whole = Math.floor(points + 1e-9);
  const half = Math.abs(points - whole - 0.5) < 1e-6;
  const rest = points - whole;
  if (half) return whole ? `${whole}½` : "½";
  return rest > 1e-6 ? String(Math.round(points * 100) / 100) : String(whole);
}

// The places chosen in the form's selects, best first, with the points each gets (shared places share theirs)
// and the place each is recorded in.
function chosenPlaces(form) {
  const picks = form.querySelector(".place-picks");
  if (!picks) return [];
  const byPlace = JSON.parse(picks.dataset.points || "[]");
  const chosen = [...picks.querySelectorAll("select")].map((select) => ({
    name: select.dataset.name,
    place: Number(select.value),
  }));
  chosen.sort((a, b) => a.place - b.place);
  const groups = new Map();
  for (const one of chosen) {
    if (!groups.has(one.place)) groups.set(one.place, []);
    groups.get(one.place).push(one);
  }
  let rank = 0;
  for (const group of [...groups.keys()].sort((a, b) => a - b).map((place) => groups.get(place))) {
    const spanned = byPlace.slice(rank, rank + group.length);
    const share = spanned.reduce((sum, value) => sum + value, 0) / group.length;
    // The place recorded is the rank (a gap in the chosen numbers closes: "2, 3, 3" is 1st and two 2nd).
    for (const one of group) {
      one.points = share;
      one.place = rank + 1;
    }
    rank += group.length;
  }
  return chosen;
}

function hiddenField(form, name) {
  let field = form.querySelector(`input[type="hidden"][name="${name}"]`);
  if (!field) {
    field = document.createElement("input");
    field.type = "hidden";
    field.name = name;
    form.append(field);
  }
  return field;
}

function part(name) {
  return dialog.querySelector(`[data-part="${name}"]`);
}

function ask(form, button) {
  part("what").textContent = button.dataset.confirm;
  const list = part("places");
  list.replaceChildren();
  list.hidden = !("confirmPlaces" in button.dataset);
  if (!list.hidden) {
    for (const one of chosenPlaces(form)) {
      const item = document.createElement("li");
      item.textContent = `${format(strings.place, { n: one.place })}: ${one.name} (${format(strings.points, { points: written(one.points) })})`;
      list.append(item);
    }
  }
  const confirm = part("confirm");
  confirm.className = "danger" in button.dataset ? "button danger" : "button";
  confirm.textContent = button.textContent.trim();
  part("missing").hidden = true;
  const reason = part("reason");
  reason.value = "";
  dialog.returnValue = "";
  dialog.onclose = null;
  dialog.showModal();
  reason.focus();
  dialog.querySelector("form").onsubmit = (event) => {
    const submitter = event.submitter;
    if (submitter && submitter.value === "confirm" && !reason.value.trim()) {
      event.preventDefault();
      part("missing").hidden = false;
      reason.focus();
    }
  };
  dialog.onclose = () => {
    if (dialog.returnValue !== "confirm") return;
    hiddenField(form, "reason").value = reason.value.trim();
    hiddenField(form, "confirm").value = "yes";
    form.dataset.confirmed = "yes";
    form.requestSubmit(button);
  };
}

if (dialog && typeof dialog.showModal === "function") {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    const button = event.submitter;
    if (!(form instanceof HTMLFormElement) || !button || !("confirm" in button.dataset)) return;
    if (form.dataset.confirmed === "yes") {
      delete form.dataset.confirmed;
      return;
    }
    event.preventDefault();
    ask(form, button);
  });
}
