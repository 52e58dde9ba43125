// The hall screen: the live part turns between its screens (the round's boards, the standings; a section whose
// rows do not fit the screen is cut into pages) every data-turn-seconds, and is redrawn (htmx) whenever the
// tournament's socket says it moved, as the tournament page is. Arrow keys turn by hand.
import { followTournament } from "./follow.js";

const live = document.getElementById("hall-live");
const screenName = document.getElementById("hall-screen-name");
const dots = document.getElementById("hall-dots");
const turnMs = 1000 * (Number(live.dataset.turnSeconds) || 15);
let screens = []; // {section, first, last, key}
let shown = 0;
let timer = null;

function rowsOf(section) {
  return Array.from(section.querySelectorAll("tbody tr"));
}

// Cut each section into pages of the rows that fit the height the section has on screen.
function paginate() {
  const sections = Array.from(live.querySelectorAll(".hall-screen"));
  const found = [];
  for (const section of sections) {
    for (const other of sections) other.hidden = other !== section;
    const rows = rowsOf(section);
    rows.forEach((row) => row.classList.remove("hall-off"));
    const head = section.querySelector("thead");
    const room = section.clientHeight - (head ? head.offsetHeight : 0) - 4;
    let first = 0;
    let used = 0;
    rows.forEach((row, index) => {
      const height = row.offsetHeight;
      if (index > first && used + height > room) {
        found.push({ section, first, last: index });
        first = index;
        used = 0;
      }
      used += height;
    });
    found.push({ section, first, last: Math.max(rows.length, first + 1) });
  }
  const pagesOf = (section) => found.filter((screen) => screen.section === section).length;
  const seen = new Map();
  for (const screen of found) {
    const page = (seen.get(screen.section) || 0) + 1;
    seen.set(screen.section, page);
    screen.key = `${screen.section.dataset.screen}-${page}`;
    screen.title = pagesOf(screen.section) > 1 ? `${screen.section.dataset.title} · ${page}/${pagesOf(screen.section)}` : screen.section.dataset.title;
  }
  return found;
}

// Show a screen; a turn fades it in, a redraw of the same screen does not (results come in all the time).
function show(index, turning = true) {
  if (!screens.length) return;
  shown = ((index % screens.length) + screens.length) % screens.length;
  const current = screens[shown];
  for (const section of live.querySelectorAll(".hall-screen")) section.hidden = section !== current.section;
  current.section.classList.remove("hall-turning");
  if (turning) {
    void current.section.offsetWidth; // restart the animation
    current.section.classList.add("hall-turning");
  }
  rowsOf(current.section).forEach((row, rowIndex) => {
    row.classList.toggle("hall-off", rowIndex < current.first || rowIndex >= current.last);
  });
  screenName.textContent = current.title;
  live.dataset.shown = current.key;
  dots.replaceChildren(...screens.map((screen, dot) => {
    const item = document.createElement("li");
    if (dot === shown) item.className = "on";
    return item;
  }));
}

function restartTimer() {
  if (timer) clearInterval(timer);
  timer = setInterval(() => show(shown + 1), turnMs);
}

function redraw() {
  const key = screens.length ? screens[shown].key : null;
  screens = paginate();
  const again = screens.findIndex((screen) => screen.key === key);
  show(again >= 0 ? again : Math.min(shown, screens.length - 1), again < 0);
}

document.body.addEventListener("htmx:afterSwap", (event) => { if (event.target === live) redraw(); });
window.addEventListener("resize", redraw);
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " ") show(shown + 1);
  else if (event.key === "ArrowLeft" || event.key === "PageUp") show(shown - 1);
  else return;
  event.preventDefault();
  restartTimer();
});
redraw();
restartTimer();
followTournament(live);
