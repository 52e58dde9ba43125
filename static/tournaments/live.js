// A tournament's page: redraw its live part (htmx) whenever the tournament's socket says it moved. The part
// is also polled, so a lost socket only makes the updates slower. When the reader's own game has been dealt
// after he took his seat, the page takes him to it (once per game).
import { followTournament } from "./follow.js";

const live = document.getElementById("tournament-live");

function followMyGame() {
  const mine = document.querySelector("[data-follow]");
  if (!mine) return;
  const key = `durak-followed-game-${mine.dataset.game}`;
  if (window.sessionStorage.getItem(key)) return;
  window.sessionStorage.setItem(key, "1");
  window.location.assign(mine.dataset.follow);
}

if (live) {
  followTournament(live);
  document.body.addEventListener("htmx:afterSwap", (event) => { if (event.target === live) followMyGame(); });
}
