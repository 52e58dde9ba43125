// A game stepped move by move: the replay page of a finished game and the analysis board. The server replayed
// the record with the engine and ships every position (#replay-data: steps, players, the analysis if any);
// this script only draws the one asked for, with the game page's cards (cards.js), and never applies a rule.
// Steps: the buttons, the slider, Left/Right and Home/End; the address follows (?move=N: N moves played).

import { SUIT_SYMBOLS, RED_SUITS, cardSvg, cardText, format, sortedCards } from "./cards.js";

// lichess's colours of the marks: inaccuracy ?!, mistake ?, blunder ??.
const MARKS = {
  inaccuracy: { sign: "?!", colour: "#56b4e9" },
  mistake: { sign: "?", colour: "#e69f00" },
  blunder: { sign: "??", colour: "#df5353" },
};
const SEAT_COLOURS = ["#14532d", "#b91c1c", "#1d4ed8", "#a16207", "#7e22ce", "#0f766e"];

function readJson(id) {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : null;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function percent(value) {
  return Math.round(value * 100);
}

export class Replay {
  constructor(root, data, strings) {
    this.root = root;
    this.data = data;
    this.strings = strings;
    this.steps = data.steps;
    this.last = this.steps.length - 1;
    this.parts = {};
    for (const node of root.querySelectorAll("[data-part]")) this.parts[node.dataset.part] = node;
    this.decisions = new Map();
    for (const decision of (data.analysis && data.analysis.decisions) || []) this.decisions.set(decision.ply, decision);
    this.names = new Map((data.players || []).map((player) => [player.seat, player.name]));
    this.bottomSeat = Number.isInteger(data.my_seat) ? data.my_seat : 0;
    this.current = Math.max(0, Math.min(this.last, Number(data.start ?? this.last)));
    this.chart = null;
    this.buildMoveList();
    this.bindControls();
    this.buildAnalysis();
    this.render();
  }

  nameOf(seat) {
    return this.names.get(seat) || format(this.strings.seat_n, { n: seat + 1 });
  }

  // --- controls ------------------------------------------------------------------------------------

  bindControls() {
    const slider = this.parts.slider;
    slider.max = String(this.last);
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    for (const button of this.root.querySelectorAll("[data-go]")) {
      button.addEventListener("click", () => this.go(this.target(button.dataset.go)));
    }
    document.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target;
      // The slider steps itself with these keys; text fields keep theirs.
      if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
      const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
      if (!where) return;
      event.preventDefault();
      this.go(this.target(where));
    });
  }

  target(where) {
    return { first: 0, prev: this.current - 1, next: this.current + 1, last: this.last }[where] ?? this.current;
  }

  go(step) {
    const next = Math.max(0, Math.min(this.last, Number.isFinite(step) ? Math.round(step) : this.current));
    if (next === this.current) return;
    this.current = next;
    this.render();
    const url = new URL(window.location.href);
    url.searchParams.set("move", String(next));
    window.history.replaceState(null, "", url);
  }

  // --- drawing -----------------------------------------------------------------------------------------

  render() {
    const step = this.steps[this.current];
    const position = step.position;
    this.root.dataset.move = String(this.current);
    this.parts.slider.value = String(this.current);
    this.parts.counter.textContent = format(this.strings.move_of, { n: this.current, total: this.last });
    this.parts.line.textContent = step.line || this.strings.deal;
    for (const button of this.root.querySelectorAll("[data-go]")) {
      const back = button.dataset.go === "first" || button.dataset.go === "prev";
      button.disabled = back ? this.current === 0 : this.current === this.last;
    }
    const decision = this.decisions.get(this.current);
    const highlight = this.highlights(step, decision);
    this.renderPlayers(position, highlight);
    this.renderPiles(position);
    this.renderTable(position, highlight);
    this.renderStock(position);
    this.renderEnd(step, position);
    this.renderDecision(decision);
    this.markMoveList();
    if (this.chart) this.chart.update("none");
  }

  // The cards to point at: those the last move laid (on the table), and at a decision of the analysis the
  // move played and the better one (in the hand of the seat deciding).
  highlights(step, decision) {
    const cardsOf = (action) => (action ? [...(action.cards || []), ...(action.card ? [action.card] : [])] : []);
    return {
      laid: new Set(cardsOf(step.action)),
      best: new Set(decision && decision.mark ? cardsOf(decision.best) : []),
      played: new Set(decision && decision.mark ? cardsOf(decision.played) : []),
      // The attack card the better move covers, on the table.
      bestTarget: decision && decision.mark && decision.best ? decision.best.attack || null : null,
      seat: decision ? decision.seat : null,
      mark: decision ? decision.mark : null,
    };
  }

  roleOf(position, seat) {
    if ((position.out || []).includes(seat)) return "out";
    if (position.finished) return null;
    if (seat === position.defender) return position.taken ? "taking" : "defending";
    if (seat === position.attacker) return "attacking";
    if ((position.throwers || []).includes(seat) && position.table.length) return "throwing_in";
    return null;
  }

  renderPlayers(position, highlight) {
    const seats = position.hands.map((_, seat) => seat);
    const bottom = this.bottomSeat < seats.length ? this.bottomSeat : 0;
    // In the order of play from the bottom seat's left, as the game page seats them; the bottom seat below the felt.
    const others = [...seats.filter((seat) => seat > bottom), ...seats.filter((seat) => seat < bottom)];
    this.parts.players.replaceChildren(...others.map((seat) => this.playerPanel(position, seat, highlight)));
    this.parts.me.replaceChildren(this.playerPanel(position, bottom, highlight));
  }

  playerPanel(position, seat, highlight) {
    const panel = element("li", "player replay-player");
    panel.dataset.seat = String(seat);
    // The seat that makes the next move of the record, outlined as the game page outlines the seat to act.
    const next = this.steps[this.current + 1];
    panel.classList.toggle("to-act", Boolean(next) && next.seat === seat);
    const role = this.roleOf(position, seat);
    const head = element("div", "replay-player-head");
    const name = element("strong", "player-name", this.nameOf(seat));
    name.title = name.textContent;
    head.append(name);
    const badge = element("span", `role role-${role || "none"}`, role ? this.strings.roles[role] : "");
    head.append(badge);
    const hand = sortedCards(position.hands[seat], position.trump);
    head.append(element("span", "card-count", format(this.strings.cards_n, { n: hand.length })));
    panel.append(head);
    const cards = element("div", "replay-hand");
    cards.setAttribute("role", "list");
    cards.setAttribute("aria-label", this.nameOf(seat));
    for (const name of hand) {
      const wrap = element("span", "replay-card");
      wrap.setAttribute("role", "listitem");
      wrap.dataset.card = name;
      if (highlight.seat === seat && highlight.best.has(name)) wrap.classList.add("best");
      if (highlight.seat === seat && highlight.played.has(name) && !highlight.best.has(name)) {
        wrap.classList.add("played", `mark-${highlight.mark}`);
      }
      wrap.append(cardSvg(name, this.strings));
      cards.append(wrap);
    }
    // Aktobe: the hidden card still face down beside the hand, shown face up (the game is over) and marked.
    const faceDown = (position.face_down || [])[seat];
    if (faceDown) {
      const wrap = element("span", "replay-card face-down-card");
      wrap.dataset.card = faceDown;
      wrap.title = this.strings.hidden_face_down;
      wrap.append(cardSvg(faceDown, this.strings));
      cards.append(wrap);
    }
    panel.append(cards);
    return panel;
  }

  renderPiles(position) {
    const stock = this.parts.stock;
    stock.replaceChildren();
    if (position.stock.length) {
      const pile = element("div", "stock-pile");
      if (position.stock.length > 1) pile.append(cardSvg(null, this.strings, { back: true }));
      if (position.trump_card) {
        const trump = cardSvg(position.trump_card, this.strings);
        trump.classList.add("trump-card");
        pile.append(trump);
      }
      stock.append(pile);
    }
    const trump = position.trump;
    const mark = this.parts.trump;
    mark.textContent = trump ? SUIT_SYMBOLS[trump] : this.strings.no_trump;
    mark.title = trump ? this.strings.suit_names[trump] : this.strings.no_trump;
    mark.className = `trump-mark ${trump && RED_SUITS.has(trump) ? "red" : "black"}`;
    this.parts["stock-count"].textContent = String(position.stock.length);
    this.parts["discard-count"].textContent = String(position.discard);
    const bout = this.parts.bout;
    const attacker = position.attacker;
    const defender = position.defender;
    bout.textContent = !position.finished && Number.isInteger(attacker) && Number.isInteger(defender)
      ? format(this.strings.bout, { attacker: this.nameOf(attacker), defender: this.nameOf(defender) }) : "";
  }

  renderTable(position, highlight) {
    const area = this.parts.table;
    area.replaceChildren();
    if (!position.table.length) area.append(element("p", "table-empty", position.finished ? "" : this.strings.table_empty));
    for (const pair of position.table) {
      const slot = element("div", "pair");
      const attack = element("div", "card-button attack-card");
      attack.dataset.card = pair.attack;
      if (highlight.laid.has(pair.attack)) attack.classList.add("just-laid");
      if (highlight.bestTarget === pair.attack) attack.classList.add("best-target");
      attack.append(cardSvg(pair.attack, this.strings));
      slot.append(attack);
      if (pair.cover) {
        const cover = element("div", "cover-card");
        cover.dataset.card = pair.cover;
        if (highlight.laid.has(pair.cover)) cover.classList.add("just-laid");
        cover.append(cardSvg(pair.cover, this.strings));
        slot.append(cover);
      }
      area.append(slot);
    }
  }

  // The stock in its order, top first: the card drawn next on the left, the face-up trump last.
  renderStock(position) {
    const list = this.parts["stock-order"];
    list.replaceChildren();
    if (!position.stock.length) {
      list.append(element("li", "muted", this.strings.stock_empty));
      return;
    }
    position.stock.forEach((name, index) => {
      const item = element("li", "replay-card");
      item.dataset.card = name;
      item.append(cardSvg(name, this.strings));
      if (index === position.stock.length - 1 && position.under_trump) {
        const under = element("li", "replay-card face-down-card");
        under.dataset.card = position.under_trump;
        under.title = this.strings.under_trump;
        under.append(cardSvg(position.under_trump, this.strings));
        list.append(item, under);
        item.classList.add("stock-trump");
        item.title = this.strings.trump_bottom;
        return;
      }
      if (index === position.stock.length - 1 && name === position.trump_card) {
        item.classList.add("stock-trump");
        item.title = this.strings.trump_bottom;
      }
      list.append(item);
    });
  }

  renderEnd(step, position) {
    const end = this.parts.end;
    if (!end) return;
    const atEnd = this.current === this.last;
    const words = [];
    if (atEnd && this.data.result_line) words.push(this.data.result_line);
    end.textContent = words.join(" ");
    end.hidden = !words.length;
    // A seat that went out is marked in its panel; the durak too, once the game is over.
    if (atEnd && position.finished && this.data.result && Number.isInteger(this.data.result.durak)) {
      const panel = this.root.querySelector(`.replay-player[data-seat="${this.data.result.durak}"] .role`);
      if (panel) {
        panel.className = "role role-durak";
        panel.textContent = this.strings.roles.durak;
      }
    }
  }

  // --- the analysis --------------------------------------------------------------------------------------

  actionWords(action) {
    if (!action) return "";
    const template = this.strings.actions[action.type] || action.type;
    return format(template, {
      cards: (action.cards || []).map((name) => cardText(name, this.strings)).join(" "),
      card: action.card ? cardText(action.card, this.strings) : "",
      attack: action.attack ? cardText(action.attack, this.strings) : "",
    });
  }

  renderDecision(decision) {
    const panel = this.parts.decision;
    if (!panel) return;
    panel.replaceChildren();
    const next = this.steps[this.current + 1];
    if (!decision) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const mark = decision.mark && MARKS[decision.mark];
    const title = element("p", "decision-played");
    if (mark) {
      const badge = element("span", `move-mark mark-${decision.mark}`, `${mark.sign} ${this.strings.marks[decision.mark]}`);
      title.append(badge, " ");
    }
    title.append(format(this.strings.decision_played, {
      name: this.nameOf(decision.seat), move: next && next.line ? next.line : this.actionWords(decision.played),
    }));
    panel.append(title);
    if (decision.forced) {
      panel.append(element("p", "muted", this.strings.decision_forced));
      return;
    }
    const same = JSON.stringify(decision.best) === JSON.stringify(decision.played);
    const best = element("p", "decision-best", same ? this.strings.decision_best_same
      : format(this.strings.decision_best, { move: this.actionWords(decision.best) }));
    best.dataset.part = "best-move";
    panel.append(best);
    const chances = format(this.strings.decision_chances, {
      before: percent(decision.before), after: percent(decision.after), best: percent(decision.best_after),
    });
    panel.append(element("p", "decision-chances", decision.solved ? `${chances} ${this.strings.decision_solved}` : chances));
  }

  buildMoveList() {
    const list = this.parts.moves;
    if (!list) return;
    list.replaceChildren();
    this.moveItems = [];
    for (let n = 1; n <= this.last; n += 1) {
      const step = this.steps[n];
      const item = element("li");
      item.value = n;
      const button = element("button", "move-line", step.line);
      button.type = "button";
      button.dataset.step = String(n);
      button.addEventListener("click", () => this.go(n));
      item.append(button);
      const decision = this.decisions.get(n - 1);
      const mark = decision && decision.mark && MARKS[decision.mark];
      if (mark) {
        const jump = element("button", `move-mark mark-${decision.mark}`, mark.sign);
        jump.type = "button";
        jump.dataset.decision = String(n - 1);
        jump.title = this.strings.marks[decision.mark];
        jump.setAttribute("aria-label", `${this.strings.marks[decision.mark]}: ${step.line}`);
        jump.addEventListener("click", () => this.go(n - 1));
        item.append(" ", jump);
      }
      list.append(item);
      this.moveItems.push(item);
    }
  }

  markMoveList() {
    if (!this.moveItems) return;
    const list = this.parts.moves;
    // At a decision of the analysis its move, the next one, is marked too: that is the move it judges.
    const deciding = this.decisions.has(this.current) ? this.current + 1 : null;
    this.moveItems.forEach((item, index) => {
      const current = index + 1 === this.current;
      item.classList.toggle("current", current);
      item.classList.toggle("deciding", index + 1 === deciding);
      const button = item.querySelector(".move-line");
      if (current) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    // Scroll the list, not the page, to the move.
    const item = this.moveItems[this.current - 1];
    const scroller = list.closest(".move-list-box") || list;
    if (item && scroller.scrollHeight > scroller.clientHeight) {
      const top = item.offsetTop - scroller.offsetTop;
      if (top < scroller.scrollTop || top + item.offsetHeight > scroller.scrollTop + scroller.clientHeight) {
        scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 2);
      }
    } else if (!item) {
      scroller.scrollTop = 0;
    }
  }

  // Each seat's chance of not being the durak at its decisions: before its move (with its best play) and
  // after it, so that a blunder shows as a drop. A point opens the position of its decision.
  buildAnalysis() {
    const analysis = this.data.analysis;
    const canvas = this.parts.chart;
    if (!analysis || !canvas || typeof window.Chart === "undefined") return;
    const seats = (this.data.players || []).map((player) => player.seat);
    const datasets = seats.map((seat) => {
      const points = [];
      for (const decision of analysis.decisions) {
        if (decision.seat !== seat) continue;
        points.push({ x: decision.ply, y: percent(decision.before), ply: decision.ply });
        points.push({ x: decision.ply + 1, y: percent(decision.after), ply: decision.ply, mark: decision.mark });
      }
      const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      return {
        label: this.nameOf(seat), data: points, borderColor: colour, backgroundColor: colour, tension: 0,
        pointRadius: points.map((point) => (point.mark ? 5 : 2)),
        pointBackgroundColor: points.map((point) => (point.mark ? MARKS[point.mark].colour : colour)),
      };
    });
    const replay = this;
    const nowLine = {
      id: "replayNow",
      afterDatasetsDraw(chart) {
        const x = chart.scales.x.getPixelForValue(replay.current);
        const { top, bottom } = chart.chartArea;
        const context = chart.ctx;
        context.save();
        context.strokeStyle = "rgba(0, 0, 0, 0.45)";
        context.setLineDash([4, 3]);
        context.beginPath();
        context.moveTo(x, top);
        context.lineTo(x, bottom);
        context.stroke();
        context.restore();
      },
    };
    this.chart = new window.Chart(canvas, {
      type: "line",
      data: { datasets },
      plugins: [nowLine],
      options: {
        animation: false, responsive: true, maintainAspectRatio: false, parsing: false,
        interaction: { mode: "nearest", intersect: false },
        scales: {
          x: { type: "linear", min: 0, max: this.last, title: { display: true, text: this.strings.move_axis }, ticks: { precision: 0 } },
          y: { min: 0, max: 100, ticks: { callback: (value) => `${value}%` } },
        },
        plugins: { legend: { position: "bottom" } },
        onClick: (event, elements) => {
          const hit = elements[0];
          if (!hit) return;
          const point = datasets[hit.datasetIndex].data[hit.index];
          this.go(point.ply);
        },
      },
    });
  }
}

const root = document.getElementById("replay-board");
const data = readJson("replay-data");
const strings = readJson("replay-strings");
if (root && data && strings && data.steps && data.steps.length) {
  window.durakReplay = new Replay(root, data, strings);
}
