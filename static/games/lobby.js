// The lobby: redraw the list of tables (htmx) whenever the lobby socket reports a change.
// The list is also polled, so a lost socket only makes the updates slower.
const list = document.getElementById("lobby-tables");
let attempt = 0;

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(`${scheme}${window.location.host}/ws/lobby/`);
  let first = true;
  socket.addEventListener("open", () => { attempt = 0; });
  socket.addEventListener("message", () => {
    // The first message is the list as it stands when the socket opens: the page already shows it.
    if (first) {
      first = false;
      return;
    }
    if (window.htmx) window.htmx.trigger(list, "lobby-changed");
  });
  socket.addEventListener("close", () => {
    attempt += 1;
    setTimeout(connect, Math.min(30000, 1000 * 2 ** attempt));
  });
}

if (list) connect();
