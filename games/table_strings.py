"""Every text the game page's scripts show (static/games/), in the page's language, in groups by what shows
them; the page hands them over as JSON (``games.views.game_page``), the replay page takes the cards' names."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from accounts.models import BotLevel
from games import selectors
from games.logtext import rank_letters, suit_name


def client_strings() -> dict[str, Any]:
    """Every text the table's script shows, in the page's language."""
    return {
        **connection_strings(),
        **prompt_strings(),
        **seat_strings(),
        **table_strings(),
        **button_strings(),
        **outcome_strings(),
        **deck_check_strings(),
        "roles": role_strings(),
        "actions": action_strings(),
        "levels": dict(BotLevel.choices),
        **card_strings(),
    }


def connection_strings() -> dict[str, Any]:
    """The status line: the socket's state and what the reader is doing here."""
    return {
        "connecting": _("Connecting…"),
        "connected": _("Connected"),
        "reconnecting": _("Connection lost; trying again in %(s)s s…"),
        "refused": _("The server does not let this page follow the game."),
        "not_connected": _("Not connected to the table; your move was not sent."),
        "error": _("Refused: %(message)s"),
        "finished": _("The game is over."),
        "spectating": _("You are watching this game."),
    }


def prompt_strings() -> dict[str, Any]:
    """The prompt: whose move it is and what to do next."""
    return {
        "sending": _("Sending your move…"),
        "your_move": _("Your move: choose a highlighted card or a button."),
        "hint_cover": _("Now click the attack card to cover with it."),
        "hint_action": _("Now click a button below, or choose more cards of the same rank."),
        "waiting_for": _("Waiting for %(names)s."),
    }


def seat_strings() -> dict[str, Any]:
    """A seat's plate: its name, cards, team, clock and state."""
    return {
        "seat_n": _("Seat %(n)s"),
        "you_name": _("%(name)s (you)"),
        "cards_n": _("cards: %(n)s"),
        "bot_level": _("bot, %(level)s"),
        "team_n": _("team %(n)s"),
        "offline": _("offline"),
        "autopilot": _("played by the autopilot"),
        "timeouts": _("time ran out %(n)s×"),
        "showed_trump": _("showed a trump"),
        "passed": _("passed"),
        "seconds_left": _("time left: %(s)s"),
        "clock_of": _("clock of %(name)s"),
        "out_of_time": _("out of time"),
    }


def table_strings() -> dict[str, Any]:
    """The middle of the table: the trump, the cards in play, and Aktobe's hidden cards and calls."""
    return {
        "table_empty": _("The table is empty."),
        "no_trump": _("no trump"),
        "cover_this": _("cover %(card)s"),
        "accuse_card": _("Accuse %(card)s"),
        "announce": _("One card!"),
        "challenge": _("%(name)s, how many cards?"),
        "hidden_face_down": _("a hidden card face down"),
        "announced": _("said “one card!”"),
        "forgot": _("forgot to say “one card!”"),
        "owes_card": _("owes a card"),
        "under_trump": _("Turned up under the trump: %(card)s"),
        "must_take": _("An epaulette lead: it must be taken."),
    }


def button_strings() -> dict[str, Any]:
    """The buttons under the hand and the questions they ask first."""
    return {
        "take": _("Take"),
        "pass": _("Pass"),
        "beaten": _("Beaten"),
        "pass_after_take": _("Enough, take them"),
        "clear_selection": _("Cancel"),
        "key_hint": _("key %(key)s"),
        "surrender_confirm": _("Give up this game? You will be the durak."),
        "redeal_confirm": _("Five or more cards of one suit: void this deal and deal again?"),
    }


def outcome_strings() -> dict[str, Any]:
    """How a deal ends: a redeal, a draw, the durak, a surrender, the losing team, epaulettes."""
    return {
        "redealt": _("Dealt again: %(name)s had five or more %(suit)s."),
        "draw": _("A draw: nobody is the durak."),
        "durak_is": _("%(name)s is the durak."),
        "durak": _("durak"),
        "surrendered": _("%(name)s surrendered."),
        "team_lost": _("The team of %(names)s lost."),
        "losing_team": _("the losing team"),
        "epaulettes": _("Epaulettes for %(name)s from %(by)s: %(cards)s"),
    }


def deck_check_strings() -> dict[str, Any]:
    """Checking the revealed deck against the commitment in the browser."""
    return {
        "no_subtle": _("This browser computes SHA-256 only on a secure page (HTTPS or localhost); use sha256sum."),
        "check_ok": _("SHA-256 %(hex)s matches the commitment: the deck was dealt as committed."),
        "check_bad": _("SHA-256 %(hex)s does NOT match the commitment."),
        "deck_held": selectors.deck_held_text(),  # a duplicate round's deck, shown once the round ends
    }


def role_strings() -> dict[str, Any]:
    return {
        "attacking": _("attacking"),
        "defending": _("defending"),
        "taking": _("taking"),
        "throwing_in": _("throwing in"),
        "out": _("out"),
    }


def action_strings() -> dict[str, Any]:
    """The labels of the buttons that play the chosen cards."""
    return {
        "attack": _("Attack %(cards)s"),
        "throw": _("Throw in %(cards)s"),
        "transfer": _("Transfer with %(cards)s"),
        "show_trump": _("Show the trump %(cards)s to transfer"),
        "give": _("Give away %(cards)s"),
        "duel": _("Show %(cards)s: my trump is lower, the lead is mine"),
    }


def card_strings() -> dict[str, Any]:
    """How a card is named and drawn (static/games/cards.js), in the page's language: the table's and the
    replay's scripts both draw cards."""
    return {
        "card_back": _("a card face down"),
        "card_label": _("%(rank)s of %(suit)s"),
        "joker": _("Joker"),
        "ranks": rank_letters(),
        "rank_names": {
            "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "10",
            "J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace"),
        },  # fmt: skip
        "suit_names": {suit: suit_name(suit) for suit in "SCDH"},
    }


def end_strings() -> dict[str, Any]:
    """The texts of the result panel and the rematch (static/games/result.js), in the page's language."""
    return {
        "you_won": _("You won!"),
        "you_durak": _("You are the durak"),
        "your_team_lost": _("Your team lost"),
        "your_team_won": _("Your team won!"),
        "you_place": _("You finished in place %(n)s"),
        "game_over": _("Game over"),
        "draw_title": _("A draw"),
        "provisional": _("provisional"),
        "rating_title": _("Rating %(before)s → %(after)s"),
        "rematch": _("Rematch"),
        "offer_again": _("Offer again"),
        "accept": _("Accept the rematch"),
        "decline": _("Decline"),
        "offered_by_you": _("You offered a rematch. Waiting for %(names)s…"),
        "you_accepted": _("You accepted the rematch. Waiting for %(names)s…"),
        "offers_rematch": _("%(name)s offers a rematch."),
        "declined": _("%(name)s declined the rematch."),
        "starting": _("The rematch has started."),
        "go_to_rematch": _("Go to the rematch"),
        # A director stopped the game and decided it (games.decisions).
        "decision_award": _("The game is awarded to %(names)s."),
        "decision_draw": _("The game is scored a draw."),
        "decision_replay": _("The game will be played again with a fresh deal; this page moves to the new game."),
        "decision_reason": _("Reason: %(reason)s"),
        "go_to_replay": _("Go to the new game"),
    }
