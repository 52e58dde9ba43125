// The analysis board: steps through the states the server replayed (api.records.analyse), one per move.
(function () {
  "use strict";
  function data(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }
  var steps = data("analysis-steps");
  if (!steps || !steps.length) return;
  var strings = data("analysis-strings") || {};
  var result = data("analysis-result");
  var board = document.getElementById("board");
  var slider = document.getElementById("step");
  var label = document.getElementById("step-label");
  var SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
  var current = 0;
  slider.max = String(steps.length - 1);

  function card(name) {
    var span = document.createElement("span");
    var suit = name.slice(-1);
    span.className = "card-face" + (suit === "D" || suit === "H" ? " red" : "");
    span.textContent = name.length > 1 && SUITS[suit] ? name.slice(0, -1) + SUITS[suit] : name;
    return span;
  }
  function row(title, children) {
    var div = document.createElement("div");
    div.className = "board-row";
    var head = document.createElement("strong");
    head.textContent = title;
    div.appendChild(head);
    children.forEach(function (child) { div.appendChild(child); });
    return div;
  }
  function text(value) { var span = document.createElement("span"); span.textContent = value; return span; }
  function actionText(step) {
    if (!step.action) return strings.deal || "deal";
    var action = step.action, words = [(strings.seat || "seat") + " " + step.seat, action.type];
    if (action.cards) words.push(action.cards.join(" "));
    if (action.attack) words.push(action.attack + " ← " + action.card);
    else if (action.card) words.push(action.card);
    return words.join(" ");
  }
  function draw() {
    var step = steps[current], state = step.state;
    board.textContent = "";
    board.appendChild(row(strings.move || "Move", [text(actionText(step))]));
    board.appendChild(row(strings.trump || "Trump", [text((SUITS[state.trump] || "—") +
      (state.trump_card ? " (" + state.trump_card + ")" : "")), text(" · " + (strings.stock || "stock") + ": " + state.stock +
      " · " + (strings.discard || "discard") + ": " + state.discard)]));
    state.hands.forEach(function (hand, seat) {
      var role = seat === state.attacker ? " (" + (strings.attacking || "attacking") + ")" :
        seat === state.defender ? " (" + (strings.defending || "defending") + ")" : "";
      if (state.out.indexOf(seat) >= 0) role += " (" + (strings.out || "out") + ")";
      board.appendChild(row((strings.seat || "seat") + " " + seat + role, hand.map(card)));
    });
    var table = [];
    state.table.forEach(function (pair) {
      var span = document.createElement("span");
      span.className = "pair";
      span.appendChild(card(pair.attack));
      if (pair.cover) span.appendChild(card(pair.cover));
      table.push(span);
    });
    board.appendChild(row(strings.table || "Table", table.length ? table : [text("—")]));
    if (current === steps.length - 1 && result) {
      board.appendChild(row(strings.result || "Result", [text(result.outcome === "draw" ? (strings.draw || "draw") :
        (strings.durak || "durak") + ": " + (result.durak !== null ? result.durak : (result.losing_team || []).join(", ")))]));
    }
    slider.value = String(current);
    label.textContent = current + " / " + (steps.length - 1);
  }
  function go(where) {
    var next = { first: 0, prev: current - 1, next: current + 1, last: steps.length - 1 }[where];
    current = Math.max(0, Math.min(steps.length - 1, next));
    draw();
  }
  document.querySelectorAll("[data-step]").forEach(function (button) {
    button.addEventListener("click", function () { go(button.getAttribute("data-step")); });
  });
  slider.addEventListener("input", function () { current = Number(slider.value); draw(); });
  document.addEventListener("keydown", function (event) {
    if (event.target && (event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT")) return;
    if (event.key === "ArrowLeft") go("prev");
    if (event.key === "ArrowRight") go("next");
  });
  draw();
})();
