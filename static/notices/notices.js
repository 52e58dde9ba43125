// The header's bell: its unread count, live over the person's notices socket (ws/notices/), which sends
// {"type": "notices.unread", "unread": n} and, when a notice arrives, the notice in the reader's language.
const bell = document.getElementById("notice-bell");

function show(unread) {
  const count = bell.querySelector("[data-part=count]");
  const words = count.querySelector(".notice-hidden-words");
  count.firstChild.textContent = unread > 99 ? "99+" : String(unread);
  if (words) count.append(words);
  count.hidden = unread === 0;
  bell.dataset.unread = String(unread);
}

function ring(notice) {
  bell.classList.remove("ringing");
  void bell.offsetWidth; // restart the animation
  bell.classList.add("ringing");
  bell.title = `${notice.title}: ${notice.text}`;
}

function connect(delay) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${bell.dataset.socket}`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "notices.unread") return;
    show(message.unread);
    if (message.notice) ring(message.notice);
  });
  socket.addEventListener("open", () => { delay = 1000; });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401) return; // signed out
    setTimeout(() => connect(Math.min(delay * 2, 30000)), delay);
  });
}

if (bell) connect(1000);
