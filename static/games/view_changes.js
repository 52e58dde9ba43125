// What happened between two game.view messages, as the page's sound and attention modules hear it: whose move
// it is, which cue a change of the table calls for, how long the player's clock has left. Pure functions of the
// messages (docs/protocol.md); they never decide a rule, they only read what the server sent.

// Whether the message asks this page's player to move: the server's `waiting` names the seats the turn timer
// runs for; a message without it falls back on the player having legal moves.
export function isMyMove(message) {
  if (!message || message.status !== "playing" || !message.view || message.view.finished) return false;
  const seat = message.seat;
  if (seat === null || seat === undefined) return false;
  if (Array.isArray(message.waiting)) return message.waiting.includes(seat);
  return (message.view.legal || []).length > 0;
}

// The game's result once the engine or the server has one (the server's, with places, follows the engine's).
export function resultOf(message) {
  if (!message) return null;
  if (message.result) return message.result;
  return message.view && message.view.finished ? message.view.result || null : null;
}

// The end's cue for this page's reader: won, the durak (or in the losing team), a draw; a spectator hears "end".
export function endCue(result, seat) {
  if (result.outcome === "draw") return "end-draw";
  if (seat === null || seat === undefined) return "end";
  if (result.durak === seat || (result.losing_team || []).includes(seat)) return "end-durak";
  return "end-won";
}

function coveredCount(pairs) {
  return pairs.filter((pair) => pair.cover !== null && pair.cover !== undefined).length;
}

// The cue of the move that turned `before` into `now` (two views of one game), or null: "card" for a lead or a
// throw-in, "transfer" when the cards landed and the defence passed on, "cover", "take" when the defender gives
// up (or the table goes to a hand unannounced), "beaten" when the table goes to the discard.
export function tableCue(before, now) {
  const pairsBefore = before.table || [];
  const pairsNow = now.table || [];
  if (now.taken && !before.taken) return "take";
  if (pairsBefore.length && !pairsNow.length) {
    if ((now.discard || 0) > (before.discard || 0)) return "beaten";
    return before.taken ? null : "take";
  }
  if (pairsNow.length > pairsBefore.length) {
    return pairsBefore.length && now.defender !== before.defender ? "transfer" : "card";
  }
  if (coveredCount(pairsNow) > coveredCount(pairsBefore)) return "cover";
  return null;
}

// Every cue between the previous message drawn and this one, in the order they should sound. The first message
// of a page, or one of another game, calls for none: nothing happened that the player saw.
export function cuesBetween(previous, message) {
  if (!previous || !message || previous.game !== message.game || !previous.view || !message.view) return [];
  const cues = [];
  if (previous.seq !== message.seq) {
    const cue = tableCue(previous.view, message.view);
    if (cue) cues.push(cue);
  }
  const result = resultOf(message);
  if (result && !resultOf(previous)) cues.push(endCue(result, message.seat));
  else if (isMyMove(message) && !isMyMove(previous)) cues.push("your-move");
  return cues;
}

// Seconds left on this player's own clock, or null when none runs for him. Today that is the turn timer
// (`deadline`, for the seats in `waiting`); a per-player clock, when the message carries `clocks` and the
// player's entry names its own `deadline` (when it runs out), is read first. Extend here for other clocks.
export function secondsLeft(message, now = Date.now()) {
  if (!message || message.status !== "playing" || !message.view || message.view.finished) return null;
  const seat = message.seat;
  if (seat === null || seat === undefined) return null;
  const clock = message.clocks ? message.clocks[seat] ?? message.clocks[String(seat)] : undefined;
  if (clock && clock.deadline) return (Date.parse(clock.deadline) - now) / 1000;
  if (!message.deadline || !Array.isArray(message.waiting) || !message.waiting.includes(seat)) return null;
  return (Date.parse(message.deadline) - now) / 1000;
}
