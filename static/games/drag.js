// Dragging a card of the hand onto the table, with a mouse, a pen or a finger (Pointer Events), as
// chessground's drag.ts does for pieces: a press that moves further than a few pixels becomes a drag; the
// places the card may go (from the server's legal moves, asked of the table) light up; a drop on one sends that
// move, a drop anywhere else sends the card back to the hand. A press that does not move stays a click.

const DRAG_THRESHOLD_PX = 8;

export class CardDrag {
  // `table` answers dropTargets(card) -> [{element, action}] and play(action), and owns the motion.
  constructor(table, hand) {
    this.table = table;
    this.hand = hand;
    this.press = null;
    this.swallowClick = false;
    hand.addEventListener("pointerdown", (event) => this.down(event));
    // A drag ends in a click on the card on some browsers: that click must not select it.
    hand.addEventListener("click", (event) => {
      if (!this.swallowClick) return;
      this.swallowClick = false;
      event.stopPropagation();
      event.preventDefault();
    }, true);
    this.onMove = (event) => this.move(event);
    this.onUp = (event) => this.up(event);
    this.onCancel = () => this.cancel();
  }

  get active() {
    return Boolean(this.press && this.press.dragging);
  }

  down(event) {
    if (event.button > 0 || this.press) return;
    const card = event.target.closest(".hand-card.playable");
    if (!card) return;
    this.swallowClick = false;
    this.press = { id: event.pointerId, x: event.clientX, y: event.clientY, card, name: card.dataset.card, dragging: false };
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onCancel);
  }

  move(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      this.begin();
      if (!this.press) return;
    }
    event.preventDefault();
    // The card may have been drawn anew meanwhile (a view arrived): follow the one now in the hand.
    const card = this.currentCard();
    if (!card) {
      this.cancel();
      return;
    }
    card.classList.add("dragging");
    press.transform = `translate(${dx}px, ${dy}px)`;
    card.style.transform = press.transform;
    this.hover(this.targetAt(event.clientX, event.clientY));
  }

  // A view drawn during a drag: the finger keeps the card it holds, now the new element of that card.
  redrawn() {
    if (!this.active) return;
    const card = this.currentCard();
    if (!card) {
      this.cancel();
      return;
    }
    for (const animation of card.getAnimations()) animation.cancel();
    card.classList.add("dragging");
    card.style.transform = this.press.transform || "";
  }

  begin() {
    const press = this.press;
    press.dragging = true;
    press.home = press.card.querySelector(".card-svg").getBoundingClientRect();
    press.targets = this.table.dropTargets(press.name);
    this.table.showDropTargets(press.targets);
  }

  currentCard() {
    const press = this.press;
    if (press.card.isConnected) return press.card;
    const again = this.hand.querySelector(`.hand-card[data-card="${CSS.escape(press.name)}"]`);
    if (!again) return null;
    press.card = again;
    press.targets = this.table.dropTargets(press.name);
    this.table.showDropTargets(press.targets);
    return again;
  }

  targetAt(x, y) {
    const under = document.elementFromPoint(x, y);
    if (!under || !this.press.targets) return null;
    // The most precise place first: an attack card before the transfer zone before the whole table.
    for (const target of this.press.targets) if (target.element.contains(under)) return target;
    return null;
  }

  hover(target) {
    for (const element of document.querySelectorAll(".drop-hover")) element.classList.remove("drop-hover");
    if (target) target.element.classList.add("drop-hover");
    this.press.over = target;
  }

  up(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.id) return;
    this.stopListening();
    this.press = null;
    if (!press.dragging) return;
    this.swallowClick = true;
    setTimeout(() => { this.swallowClick = false; }, 0);
    const target = press.targets ? this.targetAtPress(press, event) : null;
    this.table.hideDropTargets();
    const card = press.card.isConnected ? press.card : null;
    if (target && this.table.play(target.action)) {
      if (card) card.classList.remove("dragging");
      return;
    }
    if (card) this.table.motion.returnHome(card);
  }

  targetAtPress(press, event) {
    this.press = press;
    const target = this.targetAt(event.clientX, event.clientY);
    this.press = null;
    return target;
  }

  cancel() {
    const press = this.press;
    this.stopListening();
    this.press = null;
    this.table.hideDropTargets();
    if (press && press.dragging && press.card.isConnected) this.table.motion.returnHome(press.card);
  }

  stopListening() {
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onCancel);
  }
}
