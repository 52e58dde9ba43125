// Cards as the table draws them: SVG faces and backs, their names in the page's language. Shared by the game
// page (table.js) and the replay and analysis board (replay.js), so a card looks the same everywhere.
// `strings` is the page's texts: ranks (the court cards' letters), rank_names, suit_names, card_label,
// card_back, joker.

export const SUIT_SYMBOLS = { S: "\u2660", C: "\u2663", D: "\u2666", H: "\u2665" };
export const RED_SUITS = new Set(["D", "H"]);
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "Joker"];
const SVG_NS = "http://www.w3.org/2000/svg";

export function format(template, values) {
  // "%%" is a percent sign, as in the server's (Python's) templates of the same strings.
  return template.replace(/%\((\w+)\)s/g, (_, key) => (key in values ? String(values[key]) : "")).replace(/%%/g, "%");
}

export function parseCard(name) {
  if (name === "RJ" || name === "BJ") return { rank: "Joker", suit: null, red: name === "RJ" };
  const suit = name.slice(-1);
  return { rank: name.slice(0, -1), suit, red: RED_SUITS.has(suit) };
}

export function rankIndex(name) {
  return RANK_ORDER.indexOf(parseCard(name).rank);
}

function svgElement(tag, attributes, text) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

export function cardText(name, strings) {
  const card = parseCard(name);
  if (card.suit === null) return strings.joker;
  return `${strings.ranks[card.rank] || card.rank}${SUIT_SYMBOLS[card.suit]}`;
}

export function cardLabel(name, strings) {
  const card = parseCard(name);
  if (card.suit === null) return strings.joker;
  return format(strings.card_label, { rank: strings.rank_names[card.rank] || card.rank, suit: strings.suit_names[card.suit] });
}

export function cardSvg(name, strings, { back = false } = {}) {
  const svg = svgElement("svg", { viewBox: "0 0 100 140", class: "card-svg", role: "img" });
  if (back) {
    svg.setAttribute("aria-label", strings.card_back);
    svg.append(svgElement("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "card-back" }));
    svg.append(svgElement("rect", { x: 10, y: 10, width: 80, height: 120, rx: 5, class: "card-back-inner" }));
    return svg;
  }
  const card = parseCard(name);
  svg.setAttribute("aria-label", cardLabel(name, strings));
  svg.classList.add(card.red ? "red" : "black");
  svg.append(svgElement("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "card-face" }));
  if (card.suit === null) {
    svg.append(svgElement("text", { x: 50, y: 82, "text-anchor": "middle", class: "card-pip" }, "\u2605"));
    svg.append(svgElement("text", { x: 10, y: 30, class: "card-rank" }, "J"));
    return svg;
  }
  const rank = strings.ranks[card.rank] || card.rank;
  const symbol = SUIT_SYMBOLS[card.suit];
  svg.append(svgElement("text", { x: 9, y: 33, class: "card-rank" }, rank));
  svg.append(svgElement("text", { x: 10, y: 60, class: "card-suit" }, symbol));
  svg.append(svgElement("text", { x: 54, y: 112, "text-anchor": "middle", class: "card-pip" }, symbol));
  const corner = svgElement("g", { transform: "rotate(180 50 70)" });
  corner.append(svgElement("text", { x: 9, y: 33, class: "card-rank small" }, rank));
  svg.append(corner);
  return svg;
}

// A hand as the table orders it: by suit, the trumps (then jokers) last, each suit from low to high.
export function sortedCards(cards, trump) {
  const suitOrder = ["S", "C", "D", "H"];
  const key = (name) => {
    const card = parseCard(name);
    const trumpRank = card.suit === null ? 2 : card.suit === trump ? 1 : 0;
    return [trumpRank, suitOrder.indexOf(card.suit), rankIndex(name)];
  };
  return [...cards].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}
