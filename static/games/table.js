// The game page: draws the table from the server's game.view messages and sends the player's moves.
// Every move offered comes from view.legal; the page never decides what is legal by itself.
// No build step: a plain ES module, loaded by templates/games/game.html. Cards move between two drawings
// (motion.js), can be dragged (drag.js) or played from the keyboard (T takes, P passes, Enter plays, Esc cancels).

import { CardDrag } from "./drag.js";
import { Motion } from "./motion.js";

import { drawDecision, renderResultPanel } from "./result.js";
import { RED_SUITS, SUIT_SYMBOLS, cardLabel, cardSvg, cardText, format, parseCard, sortedCards } from "./cards.js";

const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 15000];
// A replay ordered by the director: the page shows the decision this long before it moves to the new game.
const DECISION_PAUSE_MS = 2500;
const CLOSE_CODES_FINAL = new Set([4403, 4404]);
// The least width of a card of the hand that shows when the cards overlap: a finger's target, and more.
const MIN_STRIP_PX = 44;

function readJson(id) {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : null;
}

export class GameTable {
  constructor(root) {
    this.root = root;
    this.strings = readJson("game-strings");
    this.gameId = root.dataset.gameId;
    this.selection = [];
    this.message = null;
    this.socket = null;
    this.attempt = 0;
    this.closing = false;
    this.pendingSeq = null;
    this.parts = {};
    for (const element of root.querySelectorAll("[data-part]")) this.parts[element.dataset.part] = element;
    this.motion = new Motion(root);
    this.drawn = null;
    this.held = null;
    this.focusWish = null;
    this.parts.hand.tabIndex = -1;
    this.drag = new CardDrag(this, this.parts.hand);
    document.addEventListener("keydown", (event) => this.key(event));
    // The drawers (rules, log) open over the table and close on a click elsewhere; the log opens at its end.
    for (const drawer of root.querySelectorAll(".game-drawer")) {
      drawer.addEventListener("toggle", () => {
        const body = drawer.querySelector(".drawer-body");
        if (drawer.open && body && drawer.classList.contains("game-log")) body.scrollTop = body.scrollHeight;
      });
    }
    document.addEventListener("click", (event) => {
      for (const drawer of root.querySelectorAll(".game-drawer[open]")) if (!drawer.contains(event.target)) drawer.open = false;
    });
    if (window.ResizeObserver) new ResizeObserver(() => this.layout()).observe(this.parts.felt);
    window.addEventListener("resize", () => this.layout());
    const initial = readJson("game-initial");
    if (initial) this.receive(initial);
    setInterval(() => this.tick(), 250);
    window.addEventListener("beforeunload", () => { this.closing = true; });
    this.connect();
  }

  // --- connection ------------------------------------------------------------------------------

  connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const query = this.root.dataset.socketQuery || "";
    const socket = new WebSocket(`${scheme}${window.location.host}/ws/game/${this.gameId}/${query}`);
    this.socket = socket;
    this.setConnection("connecting");
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.setConnection("connected");
      socket.send(JSON.stringify({ type: "sync" }));
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data.type === "game.view") {
        this.receive(data);
      } else if (data.type === "game.rematch") {
        this.receiveRematch(data);
      } else if (data.type === "game.decision") {
        this.receiveDecision(data);
      } else if (data.type === "game.error") {
        // The refused move is no longer on its way: the card dropped for it goes back to the hand.
        this.pendingSeq = null;
        this.held = null;
        this.showError(data.message || data.code);
        // Whatever was refused, the page must show the game as it really is now.
        this.send({ type: "sync" });
      }
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket || this.closing) return;
      if (CLOSE_CODES_FINAL.has(event.code)) {
        // No such game, or a private one without its link: trying again would not help.
        this.setConnection("refused");
        return;
      }
      const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)];
      this.attempt += 1;
      this.setConnection("reconnecting", Math.ceil(delay / 1000));
      setTimeout(() => this.connect(), delay);
    });
  }

  send(payload) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(payload));
      return true;
    }
    this.showError(this.strings.not_connected);
    return false;
  }

  sendAction(action, { held = null } = {}) {
    if (!this.message) return false;
    this.clearError();
    if (this.send({ type: "action", action, seq: this.message.seq })) {
      this.root.dispatchEvent(new CustomEvent("durak:action-sent", { detail: { action } }));
      this.pendingSeq = this.message.seq;
      this.lastAction = action;
      this.selection = [];
      this.held = held;
      this.render();
      return true;
    }
    return false;
  }

  setConnection(state, seconds) {
    const element = this.parts.connection;
    element.dataset.state = state;
    element.textContent = format(this.strings[state], { s: seconds });
  }

  // --- state ---------------------------------------------------------------------------------

  receive(message) {
    if (this.message && message.seq < this.message.seq && message.game === this.message.game) return;
    const previous = this.message;
    const changed = !previous || previous.seq !== message.seq;
    this.message = message;
    this.held = null;
    if (changed) {
      this.pendingSeq = null;
      this.selection = this.selection.filter((card) => (message.view.hand || []).includes(card));
    }
    this.render();
    // Other modules of the page (sound, attention, clocks) follow the game through this event, never by
    // reaching into the table: detail.previous is the message drawn before (null at the first), detail.message
    // the one drawn now, detail.changed whether the version moved.
    this.root.dispatchEvent(new CustomEvent("durak:view", { detail: { previous, message, changed, seat: message.seat } }));
  }

  get view() {
    return this.message.view;
  }

  get mySeat() {
    return this.message.seat;
  }

  get legal() {
    if (this.message.status !== "playing" || this.pendingSeq === this.message.seq) return [];
    return this.view.legal || [];
  }

  playerName(seat) {
    const player = (this.message.players || []).find((entry) => entry.seat === seat);
    let name = player ? player.name : format(this.strings.seat_n, { n: seat + 1 });
    // Two bots of one level play under one account: the seat number tells them apart.
    if (player && (this.message.players || []).some((other) => other.seat !== seat && other.name === player.name)) {
      name = `${name} ${format(this.strings.seat_n, { n: seat + 1 }).toLowerCase()}`;
    }
    return seat === this.mySeat ? format(this.strings.you_name, { name }) : name;
  }

  cardText(name) {
    return cardText(name, this.strings);
  }

  cardLabel(name) {
    return cardLabel(name, this.strings);
  }

  roleOf(seat) {
    const view = this.view;
    if ((view.out || []).includes(seat)) return "out";
    if (view.finished) return null;
    if (seat === view.defender) return view.taken ? "taking" : "defending";
    if (seat === view.attacker && view.table.length === 0) return "attacking";
    if (seat === view.attacker) return "attacking";
    if ((view.throwers || []).includes(seat)) return "throwing_in";
    return null;
  }

  // The seats the turn timer is waiting on: the server's `waiting`, which every game.view carries
  // (games.selectors.view_common); the page does not work it out from the table.
  waitingOn() {
    if (this.view.finished || this.message.status !== "playing") return [];
    return this.message.waiting;
  }

  sortedHand() {
    return sortedCards(this.view.hand || [], this.view.trump);
  }

  playableCards() {
    const cards = new Set();
    for (const action of this.legal) {
      for (const card of action.cards || []) cards.add(card);
      if (["cover", "show_trump", "give", "duel"].includes(action.type)) cards.add(action.card);
    }
    return cards;
  }

  // The moves the selected cards make: attack, throw and transfer need exactly the selected set.
  selectionActions() {
    const selected = [...this.selection].sort().join(" ");
    const found = [];
    if (!selected) return found;
    for (const action of this.legal) {
      if (["attack", "throw", "transfer"].includes(action.type) && [...action.cards].sort().join(" ") === selected) {
        found.push(action);
      }
      // One-card moves: showing a trump to transfer, giving a card owed, the duel for the first lead (Aktobe).
      if (["show_trump", "give", "duel"].includes(action.type) && this.selection.length === 1 && action.card === this.selection[0]) {
        found.push(action);
      }
    }
    return found;
  }

  coverTargets() {
    if (this.selection.length !== 1) return new Map();
    const targets = new Map();
    for (const action of this.legal) {
      if (action.type === "cover" && action.card === this.selection[0]) targets.set(action.attack, action);
    }
    return targets;
  }

  toggleCard(name) {
    if (!this.playableCards().has(name)) return;
    this.clearError();
    if (this.selection.includes(name)) {
      this.selection = this.selection.filter((card) => card !== name);
    } else if (this.selection.length && parseCard(this.selection[0]).rank !== parseCard(name).rank) {
      this.selection = [name];
    } else {
      this.selection = [...this.selection, name];
    }
    this.render();
  }

  // --- drawing -------------------------------------------------------------------------------

  cardSvg(name, { back = false } = {}) {
    return cardSvg(name, this.strings, { back });
  }

  // Draw the message: measure where the cards are, draw, lay out, then animate from there (motion.js). A
  // render during a running animation cancels it and starts from where the cards are seen.
  render() {
    if (!this.message) return;
    const before = this.motion.measure();
    const focus = this.focusKey();
    const hadFocus = this.root.contains(document.activeElement) && document.activeElement !== this.root;
    this.motion.stop();
    const fresh = this.drawn !== this.message;
    this.renderStatus();
    if (fresh) {
      this.renderPlayers();
      this.renderPiles();
    }
    this.renderTable();
    this.renderHand();
    this.renderActions();
    if (fresh) {
      this.renderLog();
      this.renderResult();
    }
    this.layout();
    const previous = this.drawn;
    this.drawn = this.message;
    this.motion.play(before, {
      previous: fresh ? previous : this.message, message: this.message, mySeat: this.mySeat,
      backSvg: () => this.cardSvg(null, { back: true }),
      shownCard: this.lastAction && this.lastAction.type === "show_trump" ? this.lastAction.card : null,
    });
    if (this.drag) this.drag.redrawn();
    this.restoreFocus(focus, hadFocus);
  }

  renderStatus() {
    const status = this.parts.status;
    const message = this.message;
    let text;
    if (message.status === "finished" || this.view.finished) {
      text = this.strings.finished;
    } else if (this.mySeat === null || this.mySeat === undefined) {
      text = this.strings.spectating;
    } else if (this.pendingSeq === message.seq) {
      text = this.strings.sending;
    } else if (this.legal.length) {
      if (this.coverTargets().size) text = this.strings.hint_cover;
      else if (this.selection.length) text = this.strings.hint_action;
      else text = this.strings.your_move;
    } else {
      const names = this.waitingOn().map((seat) => this.playerName(seat)).join(", ");
      text = format(this.strings.waiting_for, { names });
    }
    status.textContent = text;
    status.classList.toggle("my-turn", this.legal.length > 0);
    status.closest(".status").classList.toggle("my-turn", this.legal.length > 0);
  }

  // The seats in the order of play from the player's left; his own panel below the felt. A seat's panel
  // stays the same element from view to view, so that what other modules put in it (a clock) stays too.
  renderPlayers() {
    const waiting = new Set(this.waitingOn());
    const teams = this.view.teams;
    const players = [...(this.message.players || [])].sort((a, b) => a.seat - b.seat);
    const seated = this.mySeat !== null && this.mySeat !== undefined;
    const after = seated ? players.filter((player) => player.seat > this.mySeat) : players;
    const before = seated ? players.filter((player) => player.seat < this.mySeat) : [];
    const panels = [];
    for (const player of [...after, ...before]) panels.push(this.playerPanel(player, waiting, teams));
    this.parts.players.replaceChildren(...panels);
    const me = players.find((player) => player.seat === this.mySeat);
    this.parts.me.replaceChildren(...(me ? [this.playerPanel(me, waiting, teams)] : []));
  }

  playerPanel(player, waiting, teams) {
    const seat = player.seat;
    const panel = this.root.querySelector(`.player[data-seat="${seat}"]`) || document.createElement("li");
    // What this module drew last time goes; what others added (a clock) stays, after the table's own parts.
    for (const child of [...panel.children]) if (child.dataset.own === "table") child.remove();
    const kept = [...panel.children];
    panel.className = "player";
    panel.dataset.seat = seat;
    panel.classList.toggle("to-act", waiting.has(seat));
    panel.classList.toggle("me-panel", seat === this.mySeat);
    const own = (element) => {
      element.dataset.own = "table";
      return element;
    };
    const parts = [];
    const name = own(document.createElement("strong"));
    name.className = "player-name";
    name.textContent = this.playerName(seat);
    name.title = name.textContent;
    parts.push(name);
    const facts = [];
    if (player.bot) facts.push(format(this.strings.bot_level, { level: this.strings.levels[player.level] || player.level || "" }));
    if (teams) {
      const team = teams.findIndex((members) => members.includes(seat));
      if (team >= 0) facts.push(format(this.strings.team_n, { n: team + 1 }));
    }
    if (!player.bot && player.connected === false) facts.push(this.strings.offline);
    if (player.autopilot) facts.push(this.strings.autopilot);
    else if (player.timeouts) facts.push(format(this.strings.timeouts, { n: player.timeouts }));
    if ((this.view.shown_trump || []).includes(seat)) facts.push(this.strings.showed_trump);
    // Aktobe: a hidden card still face down, "one card!" said or forgotten, a card owed.
    if ((this.view.hidden || [])[seat]) facts.push(this.strings.hidden_face_down);
    if ((this.view.announced || []).includes(seat)) facts.push(this.strings.announced);
    if ((this.view.forgot || []).includes(seat)) facts.push(this.strings.forgot);
    if ((this.view.owed || []).some((entry) => entry.from === seat)) facts.push(this.strings.owes_card);
    if ((this.view.passed || []).includes(seat) && this.view.table.length) facts.push(this.strings.passed);
    const role = this.roleOf(seat);
    const roleBadge = own(document.createElement("span"));
    roleBadge.className = `role role-${role || "none"}`;
    roleBadge.textContent = role ? this.strings.roles[role] : "";
    parts.push(roleBadge);
    const count = (this.view.hand_counts || [])[seat] ?? 0;
    if (seat !== this.mySeat) {
      const fan = own(document.createElement("span"));
      fan.className = "fan";
      fan.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(count, 8); i += 1) fan.append(this.cardSvg(null, { back: true }));
      parts.push(fan);
    }
    const counter = own(document.createElement("span"));
    counter.className = "card-count";
    counter.textContent = format(this.strings.cards_n, { n: count });
    parts.push(counter);
    if (waiting.has(seat)) {
      const timer = own(document.createElement("span"));
      timer.className = "timer";
      timer.dataset.timer = "";
      parts.push(timer);
    }
    if (facts.length) {
      const detail = own(document.createElement("small"));
      detail.className = "player-facts";
      detail.textContent = facts.join(" \u00b7 ");
      detail.title = detail.textContent;
      parts.push(detail);
    }
    panel.replaceChildren(...parts, ...kept);
    return panel;
  }

  renderPiles() {
    const view = this.view;
    const stock = this.parts.stock;
    stock.replaceChildren();
    if (view.stock > 0) {
      const pile = document.createElement("div");
      pile.className = "stock-pile";
      pile.append(this.cardSvg(null, { back: true }));
      if (view.trump_card) {
        // Beside the stock rather than under it, so that its rank stays readable on a phone.
        const trumpCard = this.cardSvg(view.trump_card);
        trumpCard.classList.add("trump-card");
        trumpCard.dataset.card = view.trump_card;
        pile.append(trumpCard);
      }
      stock.append(pile);
    }
    if (view.hidden_trump) {
      // Aktobe: the card under the trump, turned up when the stock ran out; it names the trump from then on.
      const under = this.cardSvg(view.hidden_trump);
      under.classList.add("trump-card");
      under.dataset.card = view.hidden_trump;
      under.setAttribute("aria-label", format(this.strings.under_trump, { card: this.cardLabel(view.hidden_trump) }));
      stock.append(under);
    }
    const trump = view.trump;
    this.parts.trump.textContent = trump ? SUIT_SYMBOLS[trump] : this.strings.no_trump;
    this.parts.trump.title = trump ? this.strings.suit_names[trump] : this.strings.no_trump;
    this.parts.trump.className = `trump-mark ${trump && RED_SUITS.has(trump) ? "red" : "black"}`;
    this.parts["stock-count"].textContent = view.stock;
    this.parts["discard-count"].textContent = view.discard;
    this.parts.limit.textContent = view.limit ?? "";
    const limitShown = view.limit !== null && view.limit !== undefined;
    this.parts.limit.hidden = !limitShown;
    this.parts.limit.previousElementSibling.hidden = !limitShown;
    const discard = this.parts["discard-pile"];
    discard.replaceChildren();
    for (let i = 0; i < Math.min(3, Math.ceil((view.discard || 0) / 4)); i += 1) discard.append(this.cardSvg(null, { back: true }));
  }

  renderTable() {
    const area = this.parts.table;
    area.replaceChildren();
    const targets = this.coverTargets();
    const accusable = new Map();
    for (const action of this.legal) if (action.type === "accuse") accusable.set(action.card, action);
    if (!this.view.table.length) {
      const empty = document.createElement("p");
      empty.className = "table-empty";
      empty.textContent = this.view.finished ? "" : this.strings.table_empty;
      area.append(empty);
    }
    for (const [index, pair] of this.view.table.entries()) {
      const slot = document.createElement("div");
      slot.className = "pair";
      const attack = document.createElement("button");
      attack.type = "button";
      attack.className = "card-button attack-card";
      attack.dataset.card = pair.attack;
      if (Number.isInteger(pair.by)) attack.dataset.fromSeat = pair.by;
      attack.append(this.cardSvg(pair.attack));
      const target = targets.get(pair.attack);
      if (target) {
        attack.classList.add("target");
        attack.setAttribute("aria-label", format(this.strings.cover_this, { card: this.cardLabel(pair.attack) }));
        attack.title = `${format(this.strings.cover_this, { card: this.cardText(pair.attack) })} (${this.keyHint("Enter")})`;
        attack.dataset.index = index;
        attack.addEventListener("click", () => this.sendAction(target));
      } else {
        attack.disabled = true;
      }
      slot.append(attack);
      if (pair.cover) {
        const cover = document.createElement("div");
        cover.className = "cover-card";
        cover.dataset.card = pair.cover;
        if (Number.isInteger(this.view.defender)) cover.dataset.fromSeat = this.view.defender;
        cover.append(this.cardSvg(pair.cover));
        slot.append(cover);
      }
      for (const card of [pair.attack, pair.cover]) {
        const accuse = card && accusable.get(card);
        if (!accuse) continue;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "accuse";
        button.dataset.action = "accuse";
        button.textContent = format(this.strings.accuse_card, { card: this.cardText(card) });
        button.addEventListener("click", () => this.sendAction(accuse));
        slot.append(button);
      }
      area.append(slot);
    }
  }

  renderHand() {
    const area = this.parts.hand;
    area.replaceChildren();
    if (this.mySeat === null || this.mySeat === undefined) {
      area.hidden = true;
      return;
    }
    area.hidden = false;
    const playable = this.playableCards();
    for (const name of this.sortedHand()) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "card-button hand-card";
      button.dataset.card = name;
      button.append(this.cardSvg(name));
      if (playable.has(name)) {
        button.classList.add("playable");
        button.setAttribute("aria-pressed", this.selection.includes(name) ? "true" : "false");
        button.addEventListener("click", () => this.toggleCard(name));
      } else {
        button.disabled = true;
        if (this.legal.length) button.classList.add("idle");
      }
      if (this.selection.includes(name)) button.classList.add("selected");
      if (this.held && this.held.name === name) {
        // Dropped on the table and sent: it waits where it was dropped until the server's view says where it goes.
        button.classList.add("dragging");
        button.style.transform = this.held.transform;
      }
      area.append(button);
    }
  }

  // --- layout: the hand along the bottom edge, the table's cards as large as the felt allows -------------

  layout() {
    this.layoutHand();
    this.layoutTable();
  }

  // One row while the cards fit side by side; then overlapping, each showing at least MIN_STRIP_PX of
  // itself; then more rows, each covering the lower half of the one above. A card's button is the part of it
  // that shows, so that a tap (and a test's click) at its middle reaches it and not its neighbour.
  layoutHand() {
    const area = this.parts.hand;
    const cards = [...area.querySelectorAll(".hand-card")];
    if (!cards.length) {
      area.style.height = "";
      return;
    }
    // The card's own width, not its box on screen: a card that is moving is scaled.
    const cardW = parseFloat(getComputedStyle(cards[0].querySelector(".card-svg")).width);
    if (!cardW) return;
    const cardH = cardW * 1.4;
    const width = area.clientWidth;
    const lift = cardW * 0.22;
    const gap = Math.round(cardW * 0.08);
    const count = cards.length;
    let perRow = count;
    let step = cardW + gap;
    if (count * cardW + (count - 1) * gap > width) {
      perRow = Math.max(1, Math.floor((width - cardW) / MIN_STRIP_PX) + 1);
      const rows = Math.ceil(count / perRow);
      perRow = Math.ceil(count / rows);
      step = perRow > 1 ? Math.min(cardW + gap, (width - cardW) / (perRow - 1)) : cardW;
    }
    const rows = Math.ceil(count / perRow);
    const rowStep = Math.round(cardH * 0.47);
    cards.forEach((card, index) => {
      const row = Math.floor(index / perRow);
      const column = index % perRow;
      const inRow = Math.min(perRow, count - row * perRow);
      const rowWidth = cardW + (inRow - 1) * step;
      const left = Math.max(0, (width - rowWidth) / 2) + column * step;
      card.style.left = `${Math.round(left)}px`;
      card.style.top = `${Math.round(lift + row * rowStep)}px`;
      card.style.width = `${Math.round(column === inRow - 1 ? cardW : Math.min(step, cardW))}px`;
      card.style.height = `${Math.round(row === rows - 1 ? cardH : rowStep)}px`;
      card.style.zIndex = String(index + 1);
    });
    area.style.height = `${Math.ceil(lift + (rows - 1) * rowStep + cardH + 2)}px`;
  }

  // The largest cards that let every pair on the table fit the felt, no larger than the hand's.
  layoutTable() {
    const area = this.parts.table;
    const pairs = this.view ? this.view.table.length : 0;
    const hand = this.parts.hand.querySelector(".card-svg");
    const felt = this.parts.felt;
    const base = hand ? parseFloat(getComputedStyle(hand).width) : parseFloat(getComputedStyle(felt).fontSize) * 4.4;
    const style = getComputedStyle(area);
    const width = area.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const height = felt.clientHeight - 2 * parseFloat(getComputedStyle(felt).paddingTop) - parseFloat(style.paddingTop) * 2;
    if (!pairs || width <= 0 || height <= 0) {
      area.style.setProperty("--table-w", `${Math.round(base)}px`);
      return;
    }
    let best = 0;
    for (let rows = 1; rows <= pairs; rows += 1) {
      const columns = Math.ceil(pairs / rows);
      const size = Math.min(width / (columns * 1.5 - 0.2), height / (rows * 1.85 - 0.15));
      best = Math.max(best, size);
    }
    area.style.setProperty("--table-w", `${Math.floor(Math.min(best, base * 1.25))}px`);
  }

  // --- moves by dragging and by keys ------------------------------------------------------------------

  // Where the dragged card may go: [{element, action}], the most precise place first.
  dropTargets(name) {
    const cards = this.selection.includes(name) ? [...this.selection] : [name];
    const same = (action) => [...(action.cards || [])].sort().join(" ") === [...cards].sort().join(" ");
    const alone = (action) => (action.cards || []).length === 1 && action.cards[0] === name;
    const targets = [];
    for (const action of this.legal) {
      if (action.type === "cover" && action.card === name) {
        const element = this.parts.table.querySelector(`.attack-card[data-card="${CSS.escape(action.attack)}"]`);
        if (element) targets.push({ element, action, kind: "cover" });
      }
    }
    const pick = (types) => this.legal.find((action) => types.includes(action.type) && same(action))
      || this.legal.find((action) => types.includes(action.type) && alone(action));
    const transfer = pick(["transfer"]) || this.legal.find((action) => action.type === "show_trump" && action.card === name);
    if (transfer) targets.push({ element: this.parts["transfer-zone"], action: transfer, kind: "transfer" });
    const lay = pick(["attack", "throw", "transfer"])
      || this.legal.find((action) => ["give", "duel"].includes(action.type) && action.card === name);
    if (lay) targets.push({ element: this.parts.table, action: lay, kind: "table" });
    return targets;
  }

  showDropTargets(targets) {
    this.hideDropTargets();
    for (const target of targets) {
      if (target.kind === "transfer") target.element.hidden = false;
      target.element.classList.add("drop-target");
    }
  }

  hideDropTargets() {
    for (const element of this.root.querySelectorAll(".drop-target, .drop-hover")) {
      element.classList.remove("drop-target", "drop-hover");
    }
    this.parts["transfer-zone"].hidden = true;
  }

  // A drop: send the move, and keep the card where it lies until the answer is drawn.
  play(action) {
    const dragged = this.parts.hand.querySelector(".hand-card.dragging");
    const transform = dragged ? dragged.style.transform : "";
    const name = dragged ? dragged.dataset.card : null;
    const sent = this.sendAction(action, { held: name ? { name, transform } : null });
    return sent;
  }

  keyHint(key) {
    return format(this.strings.key_hint, { key });
  }

  focusKey() {
    const active = document.activeElement;
    if (!active || !this.root.contains(active)) return null;
    if (active.dataset.card) return `[data-card="${CSS.escape(active.dataset.card)}"]`;
    if (active.dataset.action) return `[data-action="${CSS.escape(active.dataset.action)}"]`;
    return null;
  }

  // After a render the focus stays on the same card or button; when that one is gone (played, or the
  // button no longer offered) it goes to the hand, so that the keyboard player never starts again from the top.
  restoreFocus(selector, hadFocus) {
    const wish = this.focusWish && this.root.querySelector(this.focusWish);
    this.focusWish = null;
    if (wish) {
      wish.focus({ preventScroll: true });
      return;
    }
    const active = document.activeElement;
    if (selector) {
      const same = this.root.querySelector(`${selector}:not(:disabled)`);
      if (same) {
        if (active !== same) same.focus({ preventScroll: true });
        return;
      }
    }
    if ((hadFocus && (active === document.body || !active)) || active === this.parts.hand) this.focusHand();
  }

  focusHand() {
    const next = this.parts.hand.querySelector(".hand-card.playable")
      || this.parts.actions.querySelector("[data-action]") || this.parts.hand;
    next.focus({ preventScroll: true });
  }

  legalOf(type) {
    return this.legal.find((action) => action.type === type) || null;
  }

  // T takes, P passes (or says beaten), Esc cancels; in the hand the arrows move, Space chooses, Enter plays.
  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || !this.message) return;
    const target = event.target;
    if (target && target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    const card = target && target.closest ? target.closest(".hand-card, .attack-card") : null;
    if (event.code === "KeyT" && this.legalOf("take")) {
      event.preventDefault();
      this.sendAction(this.legalOf("take"));
    } else if (event.code === "KeyP" && this.legalOf("pass")) {
      event.preventDefault();
      this.sendAction(this.legalOf("pass"));
    } else if (event.key === "Escape") {
      for (const drawer of this.root.querySelectorAll("details[open]")) drawer.open = false;
      if (this.selection.length) {
        event.preventDefault();
        this.selection = [];
        this.render();
      }
    } else if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key) && card) {
      event.preventDefault();
      this.moveFocus(card, event.key);
    } else if (event.key === "Enter" && card && card.classList.contains("hand-card") && card.classList.contains("playable")) {
      event.preventDefault();
      this.playByKey(card.dataset.card);
    }
  }

  moveFocus(card, key) {
    const inHand = card.classList.contains("hand-card");
    if ((key === "ArrowUp" && inHand) || (key === "ArrowDown" && !inHand)) {
      const other = inHand ? this.parts.table.querySelector(".attack-card.target") : this.parts.hand.querySelector(".hand-card.playable");
      if (other) other.focus({ preventScroll: true });
      return;
    }
    const list = [...(inHand ? this.parts.hand.querySelectorAll(".hand-card.playable") : this.parts.table.querySelectorAll(".attack-card.target"))];
    const index = list.indexOf(card);
    const next = list[(index + (key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1) + list.length) % list.length];
    if (next) next.focus({ preventScroll: true });
  }

  // Enter on a card: choose it (with the cards of its rank already chosen), then play the one move that makes,
  // or go to the attack cards it can cover.
  playByKey(name) {
    if (!this.selection.includes(name)) this.toggleCard(name);
    const moves = this.selectionActions();
    const covers = this.coverTargets();
    if (moves.length === 1 && !covers.size) {
      this.sendAction(moves[0]);
      return;
    }
    if (covers.size) {
      const first = [...covers.keys()][0];
      this.focusWish = `.attack-card[data-card="${CSS.escape(first)}"]`;
      this.render();
    } else if (moves.length) {
      this.focusWish = `[data-action="${CSS.escape(moves[0].type)}"]`;
      this.render();
    }
  }

  renderActions() {
    const area = this.parts.actions;
    area.replaceChildren();
    const add = (label, action, kind, onClick, key) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `button action-${kind}`;
      button.dataset.action = kind;
      button.textContent = label;
      if (key) {
        button.title = `${label} (${this.keyHint(key)})`;
        button.setAttribute("aria-keyshortcuts", key);
      }
      button.addEventListener("click", onClick || (() => this.sendAction(action)));
      area.append(button);
    };
    for (const action of this.selectionActions()) {
      const cards = (action.cards || [action.card]).map((card) => this.cardText(card)).join(" ");
      add(format(this.strings.actions[action.type], { cards }), action, action.type, null, "Enter");
    }
    for (const action of this.legal) {
      if (action.type === "take") add(this.strings.take, action, "take", null, "T");
      if (action.type === "pass") add(this.passLabel(), action, "pass", null, "P");
      if (action.type === "announce") add(this.strings.announce, action, "announce");
      if (action.type === "challenge") {
        add(format(this.strings.challenge, { name: this.playerName(action.target) }), action, "challenge");
      }
    }
    if (this.selection.length) {
      add(this.strings.clear_selection, null, "clear", () => {
        this.selection = [];
        this.render();
      }, "Esc");
    }
    const seated = this.mySeat !== null && this.mySeat !== undefined;
    const out = seated && (this.view.out || []).includes(this.mySeat);
    this.parts.surrender.hidden = !(seated && !out && this.message.status === "playing" && !this.view.finished);
    this.parts.redeal.hidden = !this.message.can_redeal;
    const redeals = this.message.redeals || [];
    this.parts.redealt.hidden = !redeals.length;
    this.parts.redealt.textContent = redeals.map((one) => format(this.strings.redealt, {
      name: this.playerName(one.seat), suit: `${SUIT_SYMBOLS[one.suit]} ${this.strings.suit_names[one.suit]}`,
    })).join(" ");
  }

  passLabel() {
    if (this.view.taken) return this.strings.pass_after_take;
    if (this.view.table.length && this.view.table.every((pair) => pair.cover !== null)) return this.strings.beaten;
    return this.strings.pass;
  }
  // The whole game's log: each view carries its last lines, which are kept by version beside those seen before
  // (the page starts from the whole log); another deal (a redeal's commitment) starts it afresh.
  wholeLog() {
    const deal = `${this.message.game}:${this.message.commitment || ""}`;
    if (this.logDeal !== deal) {
      this.logDeal = deal;
      this.logLines = new Map();
    }
    for (const entry of this.message.log || []) this.logLines.set(Number.isInteger(entry.seq) ? entry.seq : -1, entry);
    return [...this.logLines.entries()].sort((a, b) => a[0] - b[0]).map(([, entry]) => entry);
  }

  renderLog() {
    const list = this.parts.log;
    list.replaceChildren();
    for (const entry of this.wholeLog()) {
      const item = document.createElement("li");
      if (Number.isInteger(entry.seq)) item.value = entry.seq + 1;
      item.textContent = this.logText(entry);
      list.append(item);
    }
    // The drawer scrolls, not the list: the last line in sight when it opens.
    const scroller = list.closest(".drawer-body") || list;
    scroller.scrollTop = scroller.scrollHeight;
  }

  logText(entry) {
    if (entry.text) return entry.text;
    const action = entry.action || {};
    const cards = (action.cards || (action.card ? [action.card] : [])).map((card) => this.cardText(card)).join(" ");
    return `${this.playerName(entry.seat)}: ${action.type || ""} ${cards}`.trim();
  }

  renderResult() {
    // The end of the game: static/games/result.js draws the panel, the rematch and the shuffle's check.
    renderResultPanel(this);
  }

  // A game.rematch message: the offer's state as it stands now. Once the next game is dealt every page of
  // this game, players' and spectators', goes on to it.
  receiveRematch(data) {
    if (!this.message || !this.message.result || data.game !== this.message.game) return;
    this.message = { ...this.message, result: { ...this.message.result, rematch: data.rematch } };
    this.render();
    if (data.rematch && data.rematch.status === "started" && data.rematch.url) {
      this.closing = true;
      window.location.assign(data.rematch.url);
    }
  }

  // A game.decision message: the director stopped the game; every reader is told at once, and for a replay
  // the page goes on to the new game, as after a rematch.
  receiveDecision(data) {
    if (!this.message || data.game !== this.message.game || !data.decision) return;
    this.decision = data.decision;
    drawDecision(this, data.decision);
    if (data.decision.url) {
      this.closing = true;
      window.setTimeout(() => window.location.assign(data.decision.url), DECISION_PAUSE_MS);
    }
  }

  async checkCommitment() {
    const result = this.message && this.message.result;
    const output = this.parts["check-output"];
    if (!result) return;
    if (!window.crypto || !window.crypto.subtle) {
      output.textContent = this.strings.no_subtle;
      return;
    }
    const deckText = Array.isArray(result.deck) ? result.deck.join(" ") : result.deck;
    const bytes = new TextEncoder().encode(`${result.salt}:${deckText}`);
    const digest = await window.crypto.subtle.digest("SHA-256", bytes);
    const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    const ok = hex === result.commitment;
    output.textContent = format(ok ? this.strings.check_ok : this.strings.check_bad, { hex });
    output.className = ok ? "check-ok" : "check-bad";
  }

  // --- timer and errors ------------------------------------------------------------------------

  tick() {
    const deadline = this.message && this.message.status === "playing" && this.message.deadline;
    const elements = this.root.querySelectorAll("[data-timer]");
    if (!deadline) {
      for (const element of elements) element.textContent = "";
      return;
    }
    const seconds = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
    const clock = seconds >= 60 ? `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` : String(seconds);
    const text = format(this.strings.seconds_left, { s: clock });
    for (const element of elements) {
      element.textContent = text;
      element.classList.toggle("urgent", seconds <= 5);
    }
  }

  showError(text) {
    const element = this.parts.error;
    element.textContent = format(this.strings.error, { message: text });
    element.hidden = false;
  }

  clearError() {
    this.parts.error.hidden = true;
    this.parts.error.textContent = "";
  }

  surrender() {
    if (!this.message || !window.confirm(this.strings.surrender_confirm)) return;
    // No version: giving up does not depend on the last card played, and a move that arrived while the
    // player confirmed would get the surrender refused as stale (docs/protocol.md lets `seq` be left out).
    this.send({ type: "surrender" });
  }

  redeal() {
    if (!this.message || !window.confirm(this.strings.redeal_confirm)) return;
    this.send({ type: "redeal", seq: this.message.seq });
  }
}

const root = document.getElementById("game");
if (root) {
  const table = new GameTable(root);
  root.querySelector("[data-part=surrender]").addEventListener("click", () => table.surrender());
  root.querySelector("[data-part=redeal]").addEventListener("click", () => table.redeal());
  root.querySelector("[data-check]").addEventListener("click", () => table.checkCommitment());
  window.durakTable = table;
}
