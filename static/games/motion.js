// Card motion between two drawings of the table, as chessground's anim.ts does for a board: before a render
// measure where every card is (by its data-card key) and where every seat sits, after it animate each card
// from its old place to its new one (FLIP), with the Web Animations API. Cards that left the table fly to the
// discard or to the taker's seat; cards that come from nowhere come from the stock or from the seat that
// played them. Motion never holds the state back: the next render cancels whatever still runs and draws anew.

const DURATION_MS = 260;
// A short way takes a short time (a card lifted when chosen, the hand closing up), a flight across the table
// up to MAX_DURATION_MS: chessground scales its animations by distance too.
const MIN_DURATION_MS = 110;
const MAX_DURATION_MS = 280;
const MS_PER_PX = 0.3;
const DEAL_STAGGER_MS = 55;
const EASING = "cubic-bezier(0.2, 0.7, 0.3, 1)";

function rectOf(element) {
  const box = (element.querySelector(":scope > .card-svg") || element).getBoundingClientRect();
  return { left: box.left, top: box.top, width: box.width, height: box.height };
}

function zoneOf(element) {
  if (element.closest(".hand")) return "hand";
  if (element.closest(".table-cards")) return "table";
  return "pile";
}

function centred(rect, width, height) {
  return { left: rect.left + rect.width / 2 - width / 2, top: rect.top + rect.height / 2 - height / 2, width, height };
}

export class Motion {
  constructor(root) {
    this.root = root;
    this.running = new Set();
    this.reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    this.layer = document.createElement("div");
    this.layer.className = "motion-layer";
    this.layer.setAttribute("aria-hidden", "true");
    document.body.append(this.layer);
  }

  get enabled() {
    return !this.reduced.matches && typeof Element.prototype.animate === "function";
  }

  // Where things are now: every keyed card, every seat's panel, the stock, the discard and the hand.
  measure() {
    const cards = new Map();
    for (const element of this.root.querySelectorAll("[data-card]")) {
      cards.set(element.dataset.card, { rect: rectOf(element), element, zone: zoneOf(element) });
    }
    const seats = new Map();
    for (const panel of this.root.querySelectorAll(".player[data-seat]")) {
      seats.set(Number(panel.dataset.seat), panel.getBoundingClientRect());
    }
    return { cards, seats, places: this.places() };
  }

  places() {
    const find = (selector) => {
      const element = this.root.querySelector(selector);
      if (!element) return null;
      const rect = element.getBoundingClientRect();
      return rect.width || rect.height ? rect : null;
    };
    return {
      stock: find(".stock-pile") || find("[data-part=stock]"),
      discard: find("[data-part=discard-pile]") || find(".piles"),
      table: find("[data-part=table]"),
    };
  }

  stop() {
    for (const animation of this.running) animation.cancel();
    this.running.clear();
    this.layer.replaceChildren();
  }

  track(animation, onEnd) {
    this.running.add(animation);
    const done = () => {
      this.running.delete(animation);
      if (onEnd) onEnd();
    };
    animation.addEventListener("finish", done);
    animation.addEventListener("cancel", done);
    return animation;
  }

  // Move `element` from the rectangle `from` to where it is drawn now.
  slide(element, from, { delay = 0, fade = false } = {}) {
    const to = rectOf(element);
    if (!to.width || !from.width) return;
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    const sx = from.width / to.width;
    const sy = from.height / to.height;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.02 && !fade) return;
    const end = getComputedStyle(element).transform;
    const last = end && end !== "none" ? end : "translate(0px, 0px)";
    const first = { transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` };
    const final = { transformOrigin: "0 0", transform: last };
    if (fade) {
      first.opacity = 0.4;
      final.opacity = 1;
    }
    const duration = Math.min(MAX_DURATION_MS, MIN_DURATION_MS + Math.hypot(dx, dy) * MS_PER_PX);
    this.track(element.animate([first, final], { duration, delay, easing: EASING, fill: "backwards" }));
  }

  // A copy of a card that is no longer drawn, flying from `from` to `to` and fading there.
  ghost(svg, from, to, { delay = 0, shrink = false } = {}) {
    if (!from || !to || !svg) return;
    const copy = svg.cloneNode(true);
    copy.style.width = `${from.width}px`;
    copy.style.height = `${from.height}px`;
    this.layer.append(copy);
    const target = shrink ? centred(to, from.width * 0.5, from.height * 0.5) : centred(to, from.width, from.height);
    const scale = shrink ? 0.5 : 1;
    const animation = copy.animate(
      [
        { transform: `translate(${from.left}px, ${from.top}px)`, opacity: 1 },
        { transform: `translate(${target.left}px, ${target.top}px) scale(${scale})`, opacity: 0.15 },
      ],
      { duration: DURATION_MS + 80, delay, easing: EASING, fill: "both" },
    );
    this.track(animation, () => copy.remove());
  }

  // After a render: animate from `before` (a measure()) to what is drawn now. `change` tells what the views
  // say happened: {previous, message, mySeat, backSvg()}.
  play(before, change) {
    if (!this.enabled || !before) return;
    const { previous, message, mySeat } = change;
    const view = message.view;
    const places = this.places();
    const stockFrom = before.places.stock || places.stock;
    const seatRect = (seat) => before.seats.get(seat) || this.seatNow(seat);
    const dealing = !previous || (message.seq === 0 && previous.seq !== 0) || previous.game !== message.game;
    const now = new Set();
    let dealt = 0;
    for (const element of this.root.querySelectorAll("[data-card]")) {
      const key = element.dataset.card;
      now.add(key);
      const old = before.cards.get(key);
      const zone = zoneOf(element);
      if (old && !(dealing && zone === "hand")) {
        this.slide(element, old.rect);
        continue;
      }
      if (zone === "hand") {
        // Dealt or drawn from the stock.
        if (stockFrom) this.slide(element, centred(stockFrom, stockFrom.height / 1.4, stockFrom.height), { delay: dealt * DEAL_STAGGER_MS });
        dealt += 1;
      } else if (zone === "table") {
        const from = element.dataset.fromSeat !== undefined ? seatRect(Number(element.dataset.fromSeat)) : null;
        if (from) this.slide(element, centred(from, from.height / 1.4, from.height), { fade: true });
      }
    }
    if (!previous || dealing) return;
    // Cards that left the table: into the taker's hand (mine: already slid there) or onto the discard.
    const taker = this.takerOf(previous, message, mySeat);
    let gone = 0;
    for (const [key, old] of before.cards) {
      if (now.has(key) || old.zone !== "table") continue;
      const svg = old.element.querySelector(".card-svg");
      const to = taker !== null ? seatRect(taker) : places.discard;
      this.ghost(svg, old.rect, to, { delay: gone * 25, shrink: true });
      gone += 1;
    }
    // Opponents' draws: backs from the stock to their seats.
    const oldCounts = previous.view.hand_counts || [];
    const newCounts = view.hand_counts || [];
    const fromTable = (seat) => (seat === taker ? previous.view.table.reduce((n, pair) => n + (pair.cover ? 2 : 1), 0) : 0);
    let drawn = 0;
    if ((previous.view.stock || 0) > (view.stock || 0) && stockFrom) {
      for (let seat = 0; seat < newCounts.length; seat += 1) {
        if (seat === mySeat) continue;
        const extra = Math.min(6, (newCounts[seat] ?? 0) - (oldCounts[seat] ?? 0) - fromTable(seat));
        const to = seatRect(seat);
        for (let i = 0; i < extra && to; i += 1) {
          this.ghost(change.backSvg(), centred(stockFrom, stockFrom.height / 1.4, stockFrom.height), to, { delay: drawn * DEAL_STAGGER_MS, shrink: true });
          drawn += 1;
        }
      }
    }
    // A trump shown to transfer: it rises from the seat and goes back.
    const shownBefore = new Set(previous.view.shown_trump || []);
    for (const seat of view.shown_trump || []) {
      if (shownBefore.has(seat)) continue;
      if (seat === mySeat) {
        // Mine stays in the hand: it rises for all to see and sinks back.
        const card = change.shownCard && this.root.querySelector(`.hand-card[data-card="${CSS.escape(change.shownCard)}"]`);
        if (card) {
          const rise = -0.5 * card.getBoundingClientRect().height - 20;
          this.track(card.animate(
            [{ transform: "none" }, { transform: `translateY(${rise}px) scale(1.15)`, offset: 0.4 }, { transform: "none" }],
            { duration: DURATION_MS * 3, easing: EASING },
          ));
        }
        continue;
      }
      const from = seatRect(seat);
      if (from && places.table) {
        const card = change.backSvg();
        this.ghost(card, centred(from, from.height / 1.4, from.height), places.table, { shrink: false });
      }
    }
  }

  seatNow(seat) {
    const panel = this.root.querySelector(`.player[data-seat="${seat}"]`);
    return panel ? panel.getBoundingClientRect() : null;
  }

  // The seat that picked up the table between two views (null: the cards were beaten, or nobody took them).
  takerOf(previous, message, mySeat) {
    if (!previous.view.table.length || message.view.table.length) return null;
    if (!previous.view.taken) return null;
    const seat = previous.view.defender;
    return seat === mySeat ? null : seat;
  }

  // A card dropped where it cannot go slides back to its place in the hand. It is still "dragging" (no CSS
  // transition) while its drag offset goes, so that the slide starts from where the finger left it.
  returnHome(element) {
    const from = rectOf(element);
    element.style.transform = "";
    if (this.enabled) this.slide(element, from);
    element.classList.remove("dragging");
  }
}
