// A finished game's analysis panel (review/_panel.html): follows the analysis over its socket
// (ws/analysis/<game id>/: {"type": "analysis.progress", done, total, status} as it goes, then "analysis.done")
// and writes its progress in the page's language; once done, a link to the analysis's JSON.
const panel = document.querySelector("[data-part=analysis-panel]");
// On the replay page an analysis that finishes while the page is open is drawn at once: the page loads again.
const replay = document.getElementById("replay-board");
const doneAtLoad = panel?.querySelector("[data-part=analysis]")?.dataset.status === "done";

function status() {
  let line = panel.querySelector("[data-part=analysis-status]");
  if (!line) {
    line = document.createElement("p");
    line.dataset.part = "analysis-status";
    line.setAttribute("role", "status");
    panel.querySelector("[data-part=analysis]").prepend(line);
  }
  return line;
}

function show(message) {
  const line = status();
  if (message.type === "analysis.done" && message.status === "done" && replay && !doneAtLoad) {
    line.textContent = panel.dataset.done;
    window.location.reload();
  } else if (message.type === "analysis.done" && message.status === "done") {
    line.textContent = `${panel.dataset.done} `;
    const link = document.createElement("a");
    link.href = message.url;
    link.textContent = "JSON";
    line.append(link);
    panel.querySelector("form")?.remove();
  } else if (message.status === "failed") {
    line.textContent = panel.dataset.failed;
  } else {
    line.textContent = panel.dataset.progress.replace("__done__", message.done).replace("__total__", message.total);
  }
}

function connect(delay) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${panel.dataset.socket}`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.budget === "default") show(message);
  });
  socket.addEventListener("open", () => { delay = 1000; });
  socket.addEventListener("close", (event) => {
    if (event.code >= 4400 && event.code < 4500) return; // not allowed: no use trying again
    setTimeout(() => connect(Math.min(delay * 2, 30000)), delay);
  });
}

if (panel) connect(1000);
