// Following a tournament live, for its page (live.js) and its hall screen (hall.js): the tournament's socket
// says when it moved, and the page's live part (htmx) is redrawn. A lost socket is opened again, waiting twice
// as long each time up to 30 s; close code 4404 (no such tournament) ends it.

// Redraw `live` (its data-tournament names the tournament) on every "tournament.changed" message.
export function followTournament(live) {
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
  connect();
}
