// The game page calls the player back when it becomes his move while he looks elsewhere: the tab's title says
// "Your move · Durak", the favicon gets a red marker, and (if he asked with "Notify me" and the browser allows)
// a notification shows. All of it goes back when the tab is seen again or the move is made. It follows the game
// only through the table's `durak:view` and `durak:action-sent` events (static/games/view_changes.js).

import { isMyMove } from "./view_changes.js";

const NOTIFY_KEY = "durak.notify";
const ICON_SIZE = 64;

function readJson(id) {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : null;
}

function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => (key in values ? String(values[key]) : ""));
}

// The site's spade on a felt-green tile, with a red dot in the corner when `marked`; a data: URL.
export function drawIcon(marked) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = ICON_SIZE;
  const pen = canvas.getContext("2d");
  if (!pen) return null;
  pen.fillStyle = "#14532d";
  pen.beginPath();
  pen.roundRect ? pen.roundRect(0, 0, ICON_SIZE, ICON_SIZE, 12) : pen.rect(0, 0, ICON_SIZE, ICON_SIZE);
  pen.fill();
  // Marked, the spade steps aside for a red dot big enough to see at 16 pixels.
  pen.fillStyle = "#ffffff";
  pen.font = `${ICON_SIZE * (marked ? 0.62 : 0.75)}px serif`;
  pen.textAlign = "center";
  pen.textBaseline = "middle";
  pen.fillText("\u2660", ICON_SIZE * (marked ? 0.36 : 0.5), ICON_SIZE * (marked ? 0.6 : 0.54));
  if (marked) {
    pen.fillStyle = "#ef4444";
    pen.strokeStyle = "#14532d";
    pen.lineWidth = 4;
    pen.beginPath();
    pen.arc(ICON_SIZE * 0.7, ICON_SIZE * 0.3, ICON_SIZE * 0.27, 0, Math.PI * 2);
    pen.fill();
    pen.stroke();
  }
  try {
    return canvas.toDataURL("image/png");
  } catch {
    return null;
  }
}

export class Attention {
  constructor(root, settings) {
    this.root = root;
    this.strings = (settings && settings.strings) || {};
    this.gameId = root.dataset.gameId;
    this.button = root.querySelector("[data-part=notify]");
    this.note = root.querySelector("[data-part=sound-note]");
    this.marked = false;
    this.title = document.title;
    this.notification = null;
    this.seat = (readJson("game-initial") || {}).seat;

    root.addEventListener("durak:view", (event) => this.heard(event.detail));
    root.addEventListener("durak:action-sent", () => this.clear());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.clear();
    });
    if (this.button) this.setUpButton();
  }

  get notifying() {
    if (!("Notification" in window) || window.Notification.permission !== "granted") return false;
    try {
      return window.localStorage.getItem(NOTIFY_KEY) === "on";
    } catch {
      return false;
    }
  }

  heard({ previous, message }) {
    this.seat = message.seat;
    if (this.button) this.button.hidden = !this.canNotify();
    if (!isMyMove(message)) {
      this.clear();
      return;
    }
    if (isMyMove(previous) || document.visibilityState !== "hidden") return;
    this.mark();
  }

  mark() {
    if (!this.marked) this.title = document.title;
    this.marked = true;
    document.title = this.strings.your_move_title;
    this.setIcon(true);
    if (this.notifying && !this.notification) {
      try {
        this.notification = new window.Notification(this.strings.notification_title, {
          body: format(this.strings.notification_body, { n: this.gameId }),
          tag: `durak-game-${this.gameId}`,
        });
        this.notification.addEventListener("click", () => window.focus());
      } catch {
        this.notification = null; // some browsers allow notifications only from a service worker
      }
    }
  }

  clear() {
    if (!this.marked) return;
    this.marked = false;
    document.title = this.title;
    this.setIcon(false);
    if (this.notification) this.notification.close();
    this.notification = null;
  }

  // Our own <link rel=icon>: the marked spade, then the plain one (the site has no favicon of its own).
  setIcon(marked) {
    let link = document.head.querySelector("link[data-attention-icon]");
    const href = drawIcon(marked);
    if (!href) return;
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      link.type = "image/png";
      link.dataset.attentionIcon = "";
      document.head.append(link);
    }
    link.href = href;
    link.dataset.marked = marked ? "true" : "false";
  }

  // --- "Notify me" -------------------------------------------------------------------------------

  canNotify() {
    return "Notification" in window && this.seat !== null && this.seat !== undefined;
  }

  setUpButton() {
    this.button.hidden = !this.canNotify();
    this.showButton();
    this.button.addEventListener("click", () => this.toggle());
  }

  async toggle() {
    if (!("Notification" in window)) return;
    let permission = window.Notification.permission;
    if (permission === "default") {
      try {
        permission = await window.Notification.requestPermission();
      } catch {
        permission = window.Notification.permission;
      }
      this.remember(permission === "granted");
    } else if (permission === "granted") {
      this.remember(!this.notifying);
    }
    this.showButton();
    if (this.note && permission === "denied") {
      this.note.textContent = this.strings.notify_blocked;
      this.note.hidden = false;
    }
  }

  remember(on) {
    try {
      window.localStorage.setItem(NOTIFY_KEY, on ? "on" : "off");
    } catch {
      // not kept: the browser's permission still stands
    }
  }

  showButton() {
    const denied = "Notification" in window && window.Notification.permission === "denied";
    this.button.setAttribute("aria-pressed", this.notifying ? "true" : "false");
    this.button.title = denied ? this.strings.notify_blocked : this.notifying ? this.strings.notify_on : this.strings.notify_off;
  }
}

const root = document.getElementById("game");
if (root) window.durakAttention = new Attention(root, readJson("game-sound"));
