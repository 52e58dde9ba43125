// The end of a game on the game page: the result panel (places, the durak, epaulettes, chips, every
// player's rating before and after), the rematch offer with its answers, and the shuffle's check.
// Drawn by GameTable.renderResult from the last game.view and game.rematch messages; it never decides
// anything itself: the server says who offered, who accepted and where the next game is.

const RED_SUITS = new Set(["D", "H"]);

const SVG_NS = "http://www.w3.org/2000/svg";
// The headline's picture, drawn here (no emoji font is needed): a crown, the fool's cap, two equal cards, a spade.
const EMBLEMS = {
  won: [["path", { d: "M8 46 4 16l16 12 12-20 12 20 16-12-4 30z", fill: "#ffd54a", stroke: "#8a5a00", "stroke-width": "2.5", "stroke-linejoin": "round" }],
    ["rect", { x: "8", y: "48", width: "48", height: "8", rx: "2", fill: "#ffd54a", stroke: "#8a5a00", "stroke-width": "2.5" }],
    ["circle", { cx: "32", cy: "36", r: "4", fill: "#d63b3b" }]],
  lost: [["path", { d: "M6 50C10 30 18 18 30 12 26 24 28 34 32 42 36 34 38 24 34 12 46 18 54 30 58 50z", fill: "#e5484d", stroke: "#5a1414", "stroke-width": "2.5", "stroke-linejoin": "round" }],
    ["path", { d: "M32 42 28 14 M6 50 2 30 M58 50 62 30", stroke: "#5a1414", "stroke-width": "2.5", fill: "none" }],
    ["circle", { cx: "2.5", cy: "28", r: "4", fill: "#ffd54a" }], ["circle", { cx: "61.5", cy: "28", r: "4", fill: "#ffd54a" }],
    ["circle", { cx: "29", cy: "11", r: "4", fill: "#ffd54a" }],
    ["rect", { x: "4", y: "48", width: "56", height: "8", rx: "3", fill: "#ffd54a", stroke: "#5a1414", "stroke-width": "2.5" }]],
  draw: [["rect", { x: "8", y: "10", width: "26", height: "38", rx: "4", fill: "#fff", stroke: "#1a2f57", "stroke-width": "2.5", transform: "rotate(-10 21 29)" }],
    ["rect", { x: "30", y: "10", width: "26", height: "38", rx: "4", fill: "#fff", stroke: "#1a2f57", "stroke-width": "2.5", transform: "rotate(10 43 29)" }],
    ["path", { d: "M20 56h24M20 60h24", stroke: "#fff", "stroke-width": "3" }]],
  neutral: [["path", { d: "M32 6C22 20 8 26 8 38a11 11 0 0 0 20 6l-3 14h14l-3-14a11 11 0 0 0 20-6C56 26 42 20 32 6z", fill: "#fff", stroke: "#0f4a2a", "stroke-width": "2.5", "stroke-linejoin": "round" }]],
};

function emblem(mood) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 64 64");
  for (const [tag, attributes] of EMBLEMS[mood] || EMBLEMS.neutral) {
    const shape = document.createElementNS(SVG_NS, tag);
    for (const [key, value] of Object.entries(attributes)) shape.setAttribute(key, value);
    svg.append(shape);
  }
  return svg;
}

function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => (key in values ? String(values[key]) : ""));
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Places by seat, 1 first: a group of seats that went out together shares its place.
export function placesBySeat(result) {
  const places = new Map();
  let place = 1;
  for (const group of result.places || []) {
    const members = Array.isArray(group) ? group : [group];
    for (const seat of members) places.set(seat, place);
    place += members.length;
  }
  return places;
}

function signed(number) {
  if (number > 0) return `+${number}`;
  if (number < 0) return `\u2212${Math.abs(number)}`;
  return "\u00b10";
}

function losers(result) {
  if (result.losing_team && result.losing_team.length) return new Set(result.losing_team);
  return result.durak === null || result.durak === undefined ? new Set() : new Set([result.durak]);
}

// What the headline says to this reader: his own finish if he played, else the game's.
function headline(table, result, placeOf) {
  const end = table.strings.end;
  const seat = table.mySeat;
  if (result.outcome === "draw") return { text: end.draw_title, mood: "draw" };
  if (seat === null || seat === undefined) return { text: end.game_over, mood: "neutral" };
  const team = result.losing_team && result.losing_team.length;
  if (losers(result).has(seat)) return { text: team ? end.your_team_lost : end.you_durak, mood: "lost" };
  if (team) return { text: end.your_team_won, mood: "won" };
  if (placeOf.get(seat) === 1) return { text: end.you_won, mood: "won" };
  return { text: format(end.you_place, { n: placeOf.get(seat) ?? "" }), mood: "won" };
}

function outcomeText(table, result) {
  const strings = table.strings;
  let text;
  if (result.outcome === "draw") text = strings.draw;
  else if (result.losing_team && result.losing_team.length) {
    text = format(strings.team_lost, { names: result.losing_team.map((seat) => table.playerName(seat)).join(", ") });
  } else text = format(strings.durak_is, { name: table.playerName(result.durak) });
  if (result.surrendered !== null && result.surrendered !== undefined) {
    text += ` ${format(strings.surrendered, { name: table.playerName(result.surrendered) })}`;
  }
  return text.trim();
}

function ratingCell(table, change) {
  const cell = element("td", "rating-cell");
  if (!change) return cell;
  const end = table.strings.end;
  const delta = element("span", `rating-delta ${change.delta > 0 ? "up" : change.delta < 0 ? "down" : "even"}`, signed(change.delta));
  delta.dataset.delta = String(change.delta);
  const numbers = element("span", "rating-numbers", `${change.before} \u2192 ${change.after}${change.provisional ? "?" : ""}`);
  numbers.title = format(end.rating_title, { before: change.before, after: change.after })
    + (change.provisional ? ` (${end.provisional})` : "");
  cell.append(delta, numbers);
  return cell;
}

function drawPlaces(table, result, placeOf) {
  const body = table.parts.places;
  body.replaceChildren();
  const ratings = Array.isArray(result.rating_change) ? result.rating_change : null;
  // A table without a stake wins and loses no chips: no column of dashes then.
  const chipsMoved = Array.isArray(result.chips) && result.chips.some((value) => Number(value) !== 0);
  const lost = losers(result);
  const seats = (table.message.players || []).map((player) => player.seat)
    .sort((a, b) => (placeOf.get(a) ?? 99) - (placeOf.get(b) ?? 99));
  for (const seat of seats) {
    const row = element("tr");
    row.dataset.seat = seat;
    if (seat === table.mySeat) row.classList.add("mine");
    if (lost.has(seat)) row.classList.add("durak-row");
    const place = placeOf.get(seat);
    const placeCell = element("td", "place-cell");
    placeCell.append(element("span", `place-badge place-${lost.has(seat) ? "last" : place}`, place ? String(place) : ""));
    const nameCell = element("td", "name-cell", table.playerName(seat));
    if (seat === result.durak) nameCell.append(element("span", "durak-badge", table.strings.durak));
    const chips = Array.isArray(result.chips) ? Number(result.chips[seat] || 0) : 0;
    const chipsCell = element("td", `chips-cell ${chips > 0 ? "up" : chips < 0 ? "down" : "even"}`, chips ? signed(chips) : "\u2014");
    row.append(placeCell, nameCell);
    if (chipsMoved) row.append(chipsCell);
    if (ratings) row.append(ratingCell(table, ratings[seat]));
    body.append(row);
  }
  table.parts["rating-column"].hidden = !ratings;
  table.parts["chips-column"].hidden = !chipsMoved;
}

function drawEpaulettes(table, result) {
  const node = table.parts.epaulettes;
  if (!result.epaulettes) {
    node.hidden = true;
    return;
  }
  const cards = (result.epaulettes.cards || []).map((card) => table.cardText(card)).join(" ");
  node.textContent = format(table.strings.epaulettes, {
    name: result.epaulettes.seat === null || result.epaulettes.seat === undefined
      ? table.strings.losing_team : table.playerName(result.epaulettes.seat),
    by: table.playerName(result.epaulettes.by),
    cards,
  });
  node.hidden = false;
}

function button(label, kind, onClick, className = "button") {
  const node = element("button", className, label);
  node.type = "button";
  node.dataset.action = kind;
  node.addEventListener("click", onClick);
  return node;
}

// The rematch box: what stands (offered, accepted, declined, started) and what this reader may do now.
function drawRematch(table, result) {
  const box = table.parts.rematch;
  const status = table.parts["rematch-status"];
  const buttons = table.parts["rematch-buttons"];
  buttons.replaceChildren();
  const end = table.strings.end;
  const seat = table.mySeat;
  const seated = seat !== null && seat !== undefined;
  const rematch = result.rematch;
  if (result.tournament || (!seated && !rematch)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.dataset.state = rematch ? rematch.status : "none";
  const send = (type) => () => {
    table.clearError();
    table.send({ type });
  };
  const players = (table.message.players || []).filter((player) => !player.bot).map((player) => player.seat);
  const waitingFor = rematch ? players.filter((one) => !rematch.accepted.includes(one)) : [];
  const names = waitingFor.map((one) => table.playerName(one)).join(", ");
  if (!rematch) {
    status.textContent = "";
    buttons.append(button(end.rematch, "rematch-offer", send("rematch.offer")));
  } else if (rematch.status === "started") {
    status.textContent = end.starting;
    if (rematch.url) {
      const link = element("a", "button", end.go_to_rematch);
      link.href = rematch.url;
      link.dataset.part = "rematch-link";
      buttons.append(link);
    }
  } else if (rematch.status === "declined") {
    status.textContent = format(end.declined, { name: table.playerName(rematch.declined_by) });
    if (seated) buttons.append(button(end.offer_again, "rematch-offer", send("rematch.offer"), "button quiet"));
  } else if (seated && rematch.offered_by === seat) {
    status.textContent = format(end.offered_by_you, { names });
  } else if (seated && rematch.accepted.includes(seat)) {
    status.textContent = format(end.you_accepted, { names });
  } else {
    status.textContent = format(end.offers_rematch, { name: table.playerName(rematch.offered_by) });
    if (seated) {
      buttons.append(button(end.accept, "rematch-accept", send("rematch.accept")));
      buttons.append(button(end.decline, "rematch-decline", send("rematch.decline"), "button quiet"));
    }
  }
}

function drawShuffle(table, result) {
  if (result.deck_held) {
    // A duplicate round: other boards still play this deck; it is shown when the round ends.
    table.parts.deck.textContent = table.strings.deck_held || "";
    table.parts.record.hidden = true;
    return;
  }
  const deckText = Array.isArray(result.deck) ? result.deck.join(" ") : result.deck || "";
  table.parts.salt.textContent = result.salt || "";
  table.parts.deck.textContent = deckText;
  table.parts.commitment.textContent = result.commitment || "";
  table.parts["check-command"].textContent = `printf '%s' '${result.salt || ""}:${deckText}' | sha256sum`;
  const cards = table.parts["deck-cards"];
  if (cards.childElementCount === 0 && deckText) {
    for (const name of deckText.split(" ")) {
      const suit = name.slice(-1);
      cards.append(element("span", `deck-card ${RED_SUITS.has(suit) ? "red" : "black"}`, table.cardText(name)));
    }
  }
  table.parts.record.hidden = false;
}

// The panel from the message the table drew last. Shown as soon as the game is over: until the server's
// result arrives (a moment later, with the chips and the ratings) the engine's outcome in the view fills it.
export function renderResultPanel(table) {
  const section = table.parts.result;
  const message = table.message;
  if (message.result && message.result.decision) drawDecision(table, message.result.decision);
  const finished = message.status === "finished" || (message.view && message.view.finished);
  const result = message.result || (finished && message.view && message.view.result
    ? { ...message.view.result, chips: null, pending: true } : null);
  if (!result) {
    section.hidden = true;
    return;
  }
  const wasHidden = section.hidden;
  section.hidden = false;
  const placeOf = placesBySeat(result.places ? result : { places: fallbackPlaces(result, message) });
  const title = headline(table, result, placeOf);
  table.parts["result-hero"].dataset.mood = title.mood;
  table.parts["result-title"].textContent = title.text;
  if (table.parts["result-emblem"].dataset.mood !== title.mood) {
    table.parts["result-emblem"].replaceChildren(emblem(title.mood));
    table.parts["result-emblem"].dataset.mood = title.mood;
  }
  table.parts.outcome.textContent = outcomeText(table, result);
  // A game the director ordered replayed has no result that counts: only his decision is shown.
  const replayed = Boolean(result.decision && result.decision.kind === "replay");
  table.parts["result-hero"].hidden = replayed;
  section.querySelector(".result-table").hidden = replayed;
  drawPlaces(table, result.places ? result : { ...result, places: fallbackPlaces(result, message) }, placeOf);
  drawEpaulettes(table, result);
  table.parts["rating-pending"].hidden = !result.pending;
  table.parts.shuffle.hidden = Boolean(result.pending);
  table.parts["result-links"].hidden = Boolean(result.pending);
  if (result.pending) {
    table.parts.rematch.hidden = true;
    return;
  }
  drawRematch(table, result);
  drawShuffle(table, result);
  if (wasHidden && message.seat !== null && message.seat !== undefined) {
    section.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
}

// The engine's result has no places yet: the order the players went out, the losers last.
function fallbackPlaces(result, message) {
  const lost = losers(result);
  const out = (result.out_order || []).filter((seat) => !lost.has(seat)).map((seat) => [seat]);
  const rest = (message.players || []).map((player) => player.seat)
    .filter((seat) => !lost.has(seat) && !(result.out_order || []).includes(seat));
  const groups = [...out];
  if (rest.length) groups.push(rest);
  if (lost.size) groups.push([...lost]);
  return groups;
}

// The director stopped the game and decided it (games.decisions): what he decided and why, the same panel for
// every reader, from the game.decision message at once or from the result's `decision` after a reload.
export function drawDecision(table, decision) {
  const panel = table.parts.decision;
  if (!panel || !decision) return;
  const end = table.strings.end;
  let what = "";
  if (decision.kind === "award") {
    const winners = (decision.places && decision.places[0]) || [];
    what = format(end.decision_award, { names: winners.map((seat) => table.playerName(seat)).join(", ") });
  } else if (decision.kind === "draw") {
    what = end.decision_draw;
  } else if (decision.kind === "replay") {
    what = end.decision_replay;
  }
  table.parts["decision-what"].textContent = what;
  table.parts["decision-reason"].textContent = decision.reason ? format(end.decision_reason, { reason: decision.reason }) : "";
  const link = table.parts["decision-link"];
  link.hidden = !decision.url;
  if (decision.url) {
    link.href = decision.url;
    link.textContent = end.go_to_replay;
  }
  panel.dataset.kind = decision.kind || "";
  panel.hidden = false;
}
