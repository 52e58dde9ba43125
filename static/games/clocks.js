// The game page's clocks (a clock per player, games/clocks.py): one .clock in each seat's panel, mm:ss,
// the running one highlighted, urgent under 10 s. It follows the table through the durak:view event that
// static/games/table.js dispatches on #game after each render, and never reaches into the table's state.
// A message's clocks are each seat's remaining time at `at` (the server's time when it was sent); a running
// clock shows that less the server time since, reckoned from the local clock and its offset to the server's.

const TICK_MS = 200;
const URGENT_MS = 10000;
const OFFSET_SAMPLES = 8;

function readJson(id) {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : null;
}

function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => (key in values ? String(values[key]) : ""));
}

export function clockText(ms) {
  // Whole seconds rounded up: a clock shows 0:00 only once it has fallen.
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

class Clocks {
  constructor(root, strings) {
    this.root = root;
    this.strings = strings || {};
    this.message = null;
    // Each message's `at` was the server's time a moment before it arrived, so `at - arrival` is at most
    // the offset from the local clock to the server's: the largest of the latest few is the best guess.
    this.offsets = [];
    this.timer = null;
  }

  get offset() {
    return this.offsets.length ? Math.max(...this.offsets) : 0;
  }

  receive(message) {
    if (!message) return;
    this.message = message;
    const clocks = message.clocks;
    this.root.classList.toggle("has-clocks", Boolean(clocks));
    if (!clocks) {
      this.stop();
      return;
    }
    const at = Date.parse(clocks.at);
    if (!Number.isNaN(at)) {
      this.offsets.push(at - Date.now());
      if (this.offsets.length > OFFSET_SAMPLES) this.offsets.shift();
    }
    this.draw();
    if (clocks.running.length && this.timer === null) this.timer = setInterval(() => this.draw(), TICK_MS);
    if (!clocks.running.length) this.stop();
  }

  stop() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  remaining(seat) {
    const clocks = this.message.clocks;
    const left = clocks.remaining_ms[seat] ?? 0;
    if (!clocks.running.includes(seat)) return left;
    return left - (Date.now() + this.offset - Date.parse(clocks.at));
  }

  playerName(seat) {
    const player = (this.message.players || []).find((entry) => entry.seat === seat);
    return player && player.name ? player.name : String(seat + 1);
  }

  draw() {
    const clocks = this.message && this.message.clocks;
    if (!clocks) return;
    for (let seat = 0; seat < clocks.remaining_ms.length; seat += 1) {
      const panel = this.root.querySelector(`.player[data-seat="${seat}"]`);
      if (!panel) continue;
      let clock = panel.querySelector(":scope > .clock");
      if (!clock) {
        clock = document.createElement("span");
        clock.className = "clock";
        clock.setAttribute("role", "timer");
        clock.dataset.clockSeat = String(seat);
        panel.append(clock);
      }
      const left = this.remaining(seat);
      const running = clocks.running.includes(seat);
      const flagged = clocks.flagged === seat;
      const text = flagged ? `${clockText(0)} \u00b7 ${this.strings.out_of_time || ""}` : clockText(left);
      if (clock.textContent !== text) clock.textContent = text;
      clock.classList.toggle("running", running);
      clock.classList.toggle("urgent", (running || flagged) && left < URGENT_MS);
      clock.classList.toggle("flagged", flagged);
      const label = format(this.strings.clock_of || "%(name)s", { name: this.playerName(seat) });
      if (clock.getAttribute("aria-label") !== label) clock.setAttribute("aria-label", label);
    }
  }
}

const root = document.getElementById("game");
if (root) {
  const clocks = new Clocks(root, readJson("game-strings"));
  // The table may have drawn the first view before this module listened: start from the page's own copy.
  clocks.receive(readJson("game-initial"));
  root.addEventListener("durak:view", (event) => clocks.receive(event.detail.message));
  // The table redraws its panels at other times too (a card picked, a move sent): put the clocks back at once.
  new MutationObserver(() => {
    if (clocks.message && clocks.message.clocks && root.querySelector(".player:not(:has(> .clock))")) clocks.draw();
  }).observe(root, { childList: true, subtree: true });
}
