// A tournament's page: redraw its live part (htmx) whenever the tournament's socket says it moved. The part
// is also polled, so a lost socket only makes the updates slower. When the reader's own game has been dealt
// after he took his seat, the page takes him to it (once per game).
const live = document.getElementById("tournament-live");
let attempt = 0;

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(`${scheme}${window.location.host}/ws/tournament/${live.dataset.tournament}/`);
  socket.addEventListener("open", () => { attempt = 0; });
  socket.addEventListener("message", (event) => {
    let message = null;
    try { message = JSON.parse(event.data); } catch (error) { return; }
    if (message && message.type === "tournament.changed" && window.htmx) window.htmx.trigger(live, "tournament-changed");
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4404) return;
    attempt += 1;
    setTimeout(connect, Math.min(30000, 1000 * 2 ** attempt));
  });
}

function followMyGame() {
  const mine = document.querySelector("[data-follow]");
  if (!mine) return;
  const key = `durak-followed-game-${mine.dataset.game}`;
  if (window.sessionStorage.getItem(key)) return;
  window.sessionStorage.setItem(key, "1");
  window.location.assign(mine.dataset.follow);
}

if (live) {
  connect();
  document.body.addEventListener("htmx:afterSwap", (event) => { if (event.target === live) followMyGame(); });
}
