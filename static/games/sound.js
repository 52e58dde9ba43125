// The game page's sound: short cues synthesised with the Web Audio API (oscillators, noise bursts, envelopes;
// nothing fetched) for the moves the table draws, the player's turn, his clock running low and the game's end.
// It follows the game only through the table's `durak:view` events (static/games/view_changes.js decides the
// cues) and holds the mute switch, kept for the account on the server or, logged out, in localStorage.
// Nothing sounds before the player's first gesture: browsers refuse audio until then.

import { cuesBetween, secondsLeft } from "./view_changes.js";

const LOW_CLOCK_SECONDS = 10;
const CLOCK_CHECK_MS = 250;
const CUE_SPACING_S = 0.16; // two cues of one view (the last cover, then "your move") sound one after the other
export const MASTER_VOLUME = 0.5;
const STORAGE_KEY = "durak.sound.muted";

function readJson(id) {
  const element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : null;
}

// --- the instruments ----------------------------------------------------------------------------------

function envelope(gain, start, attack, length, peak) {
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(peak, start + attack);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
}

function tone(context, output, start, { frequency, to = null, length, type = "sine", peak = 0.5, attack = 0.01 }) {
  const oscillator = context.createOscillator();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, start);
  if (to) oscillator.frequency.exponentialRampToValueAtTime(to, start + length);
  const gain = context.createGain();
  envelope(gain, start, attack, length, peak);
  oscillator.connect(gain).connect(output);
  oscillator.start(start);
  oscillator.stop(start + length + 0.05);
}

let noiseBuffer = null;

function noise(context, output, start, { length, filter = "bandpass", frequency, to = null, q = 1, peak = 0.6 }) {
  if (!noiseBuffer || noiseBuffer.sampleRate !== context.sampleRate) {
    noiseBuffer = context.createBuffer(1, context.sampleRate, context.sampleRate);
    const samples = noiseBuffer.getChannelData(0);
    for (let i = 0; i < samples.length; i += 1) samples[i] = Math.random() * 2 - 1;
  }
  const source = context.createBufferSource();
  source.buffer = noiseBuffer;
  const shaping = context.createBiquadFilter();
  shaping.type = filter;
  shaping.frequency.setValueAtTime(frequency, start);
  if (to) shaping.frequency.exponentialRampToValueAtTime(to, start + length);
  shaping.Q.value = q;
  const gain = context.createGain();
  envelope(gain, start, 0.004, length, peak);
  source.connect(shaping).connect(gain).connect(output);
  source.start(start, Math.random() * 0.5, length + 0.05);
}

function notes(context, output, start, frequencies, { step, length, type = "triangle", peak = 0.35 }) {
  frequencies.forEach((frequency, index) => {
    tone(context, output, start + index * step, { frequency, length, type, peak });
  });
}

// Each cue: a function of the context, the output node and the start time (seconds, the context's clock).
export const CUES = {
  // Two rising bell notes: it is your move.
  "your-move": (context, output, at) => {
    tone(context, output, at, { frequency: 660, length: 0.16, peak: 0.45 });
    tone(context, output, at + 0.13, { frequency: 990, length: 0.3, peak: 0.4 });
  },
  // A card laid on the felt: a short bright slap of noise.
  card: (context, output, at) => {
    noise(context, output, at, { length: 0.08, frequency: 1900, q: 0.8, peak: 0.9 });
  },
  // A card laid across another: two quick slaps, the second lower.
  cover: (context, output, at) => {
    noise(context, output, at, { length: 0.05, frequency: 2800, q: 1.2, peak: 0.7 });
    noise(context, output, at + 0.06, { length: 0.08, frequency: 1300, q: 0.9, peak: 0.8 });
  },
  // The defender gathers the table: a falling tone under a shuffle of small slaps.
  take: (context, output, at) => {
    tone(context, output, at, { frequency: 420, to: 170, length: 0.3, type: "triangle", peak: 0.3 });
    for (let i = 0; i < 4; i += 1) {
      noise(context, output, at + i * 0.05, { length: 0.04, frequency: 1200, q: 1.5, peak: 0.4 });
    }
  },
  // "Beaten": the table swept to the discard, a whoosh that darkens.
  beaten: (context, output, at) => {
    noise(context, output, at, { length: 0.38, filter: "lowpass", frequency: 5000, to: 300, q: 0.7, peak: 0.55 });
  },
  // A transfer: a slap and a rising sweep, the attack passed on.
  transfer: (context, output, at) => {
    noise(context, output, at, { length: 0.06, frequency: 2200, peak: 0.7 });
    tone(context, output, at + 0.03, { frequency: 300, to: 760, length: 0.22, type: "triangle", peak: 0.3 });
  },
  // The clock running low: two short high beeps.
  "clock-low": (context, output, at) => {
    tone(context, output, at, { frequency: 1040, length: 0.09, type: "square", peak: 0.3, attack: 0.005 });
    tone(context, output, at + 0.17, { frequency: 1040, length: 0.09, type: "square", peak: 0.3, attack: 0.005 });
  },
  // Won: a rising major arpeggio.
  "end-won": (context, output, at) => {
    notes(context, output, at, [523.25, 659.25, 783.99, 1046.5], { step: 0.11, length: 0.35 });
  },
  // The durak: three falling notes and a sagging last one.
  "end-durak": (context, output, at) => {
    notes(context, output, at, [392, 369.99, 349.23], { step: 0.26, length: 0.24, type: "sawtooth", peak: 0.3 });
    tone(context, output, at + 0.78, { frequency: 329.63, to: 260, length: 0.6, type: "sawtooth", peak: 0.3 });
  },
  // A draw, or the end as a spectator hears it: two even notes.
  "end-draw": (context, output, at) => {
    notes(context, output, at, [587.33, 587.33], { step: 0.2, length: 0.28 });
  },
  end: (context, output, at) => {
    notes(context, output, at, [659.25, 523.25], { step: 0.2, length: 0.3 });
  },
};

// --- the page's sound --------------------------------------------------------------------------------

export class TableSound {
  constructor(root, settings) {
    this.root = root;
    this.settings = settings || {};
    this.strings = this.settings.strings || {};
    this.button = root.querySelector("[data-part=mute]");
    this.note = root.querySelector("[data-part=sound-note]");
    this.context = null;
    this.output = null;
    this.unlocked = false;
    this.played = [];
    this.scheduled = 0;
    this.message = readJson("game-initial");
    this.lowClockFor = null;
    this.muted = this.initialMuted();
    this.showMuted();

    const unlock = () => this.unlock();
    window.addEventListener("pointerdown", unlock, { capture: true });
    window.addEventListener("keydown", unlock, { capture: true });
    root.addEventListener("durak:view", (event) => this.heard(event.detail));
    if (this.button) this.button.addEventListener("click", () => this.setMuted(!this.muted));
    setInterval(() => this.checkClock(), CLOCK_CHECK_MS);
  }

  initialMuted() {
    if (this.settings.account) return Boolean(this.settings.muted);
    try {
      return window.localStorage.getItem(STORAGE_KEY) === "true";
    } catch {
      return false; // storage refused (private mode, a sandbox): the default, sound on
    }
  }

  // The first gesture lets the page make sound: the context is created (or resumed) inside it.
  unlock() {
    this.unlocked = true;
    try {
      if (!this.context) {
        const AudioContextClass = window.AudioContext || window.webkitAudioContext;
        if (!AudioContextClass) return;
        this.context = new AudioContextClass();
        this.output = this.context.createGain();
        this.output.gain.value = MASTER_VOLUME;
        this.output.connect(this.context.destination);
      }
      if (this.context.state === "suspended") this.context.resume().catch(() => {});
    } catch {
      this.context = null; // no audio device: the cues are still counted, silently
    }
  }

  heard({ previous, message }) {
    this.message = message;
    cuesBetween(previous, message).forEach((cue, index) => this.play(cue, index * CUE_SPACING_S));
  }

  // Once per turn (per deadline), when the player's own clock goes under LOW_CLOCK_SECONDS; a page not yet
  // unlocked or muted keeps the cue for when it can be heard.
  checkClock() {
    if (!this.unlocked || this.muted) return;
    const left = secondsLeft(this.message);
    if (left === null || left >= LOW_CLOCK_SECONDS || left <= 0) return;
    const turn = `${this.message.game}:${this.message.seq}:${this.message.deadline}`;
    if (this.lowClockFor === turn) return;
    this.lowClockFor = turn;
    this.play("clock-low");
  }

  play(name, delay = 0) {
    if (!this.unlocked || this.muted || !CUES[name]) return;
    this.played.push(name);
    if (!this.context || this.context.state === "closed") return;
    try {
      CUES[name](this.context, this.output, this.context.currentTime + 0.01 + delay);
      this.scheduled += 1;
    } catch {
      // A cue that cannot be built is silence, never a broken page.
    }
  }

  async setMuted(muted) {
    const before = this.muted;
    const request = (this.saving = (this.saving || 0) + 1);
    this.muted = muted;
    this.showMuted();
    this.showNote("");
    if (!this.settings.account) {
      try {
        window.localStorage.setItem(STORAGE_KEY, muted ? "true" : "false");
      } catch {
        // not kept: this page still follows the switch
      }
      return;
    }
    let answer = null;
    try {
      const response = await fetch(this.settings.url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": this.settings.csrf, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ muted: muted ? "true" : "false" }),
      });
      answer = await response.json().catch(() => ({}));
      if (response.ok && answer.muted === muted) return;
    } catch {
      answer = null;
    }
    if (request !== this.saving) return; // a later press was sent meanwhile: its answer decides
    this.muted = before;
    this.showMuted();
    this.showNote((answer && answer.error) || this.strings.not_saved || "");
  }

  showMuted() {
    if (!this.button) return;
    this.button.setAttribute("aria-pressed", this.muted ? "true" : "false");
    this.button.title = this.muted ? this.strings.muted_title || "" : this.strings.unmuted_title || "";
  }

  showNote(text) {
    if (!this.note) return;
    this.note.textContent = text;
    this.note.hidden = !text;
  }
}

const root = document.getElementById("game");
if (root) {
  const sound = new TableSound(root, readJson("game-sound"));
  // The test hook (and a console's): the cues played, in order, and the switch.
  window.durakSound = {
    get played() { return sound.played; },
    get muted() { return sound.muted; },
    get unlocked() { return sound.unlocked; },
    get audioState() { return sound.context ? sound.context.state : "none"; },
    get scheduled() { return sound.scheduled; },
    setMuted: (muted) => sound.setMuted(Boolean(muted)),
  };
}
