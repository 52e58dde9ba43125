"""Engine speed: complete random games per second on one core, and microseconds per call.

Figures (DESIGN.md, Benchmarks): games_per_s_podkidnoy_2p, games_per_s_podkidnoy_6p,
games_per_s_perevodnoy_2p, us_per_legal_actions, us_per_apply; also games_per_s for 4 players and
perevodnoy 4 and 6 players, and engine_compiled (1 when the mypyc-compiled engine was measured).

A "random game" is dealt from a shuffled deck and played to its end with the random bot: when several
seats may act one is drawn at random, and it plays one of its legal actions at random. Times are the
process's CPU time (time.process_time), so other work on the machine slows the figures less. Dealing
uses random.shuffle, not the cryptographic shuffle of live games: this measures the rules engine.
``us_per_legal_actions`` and ``us_per_apply`` are averaged over the positions of random games:
legal_actions for the seat about to act, and apply (which copies the state) of the action it chose.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import parse_args, print_table, write_report
from games.bots.random_bot import choose, playout
from games.engine._compiled import is_compiled
from games.engine.acting import actors
from games.engine.cards import deck_cards, mask_of
from games.engine.legal import legal_actions
from games.engine.play import apply, play_trusted
from games.engine.rules import Rules, preset_rules
from games.engine.start import new_game
from games.engine.state import State


def random_deal(rules: Rules, players: int, rng: random.Random) -> State:
    order = deck_cards(rules.deck)
    rng.shuffle(order)
    dealt = players * 6
    hands = [mask_of(order[seat:dealt:players]) for seat in range(players)]
    stock = order[dealt:]
    return new_game(rules, hands, stock, trump=(stock[-1] if stock else order[dealt - 1]) & 3)


def games_per_second(rules: Rules, players: int, seconds: float, seed: int) -> tuple[float, float, int]:
    rng = random.Random(seed)
    games = actions = 0
    spent = 0.0
    while spent < seconds:
        state = random_deal(rules, players, rng)
        started = time.process_time()
        actions += playout(state, rng)
        spent += time.process_time() - started
        games += 1
    return games / spent, actions / games, games


def positions(rules: Rules, players: int, count: int, seed: int) -> list[tuple[State, int, object]]:
    rng = random.Random(seed)
    found: list[tuple[State, int, object]] = []
    while len(found) < count:
        state = random_deal(rules, players, rng)
        while not state.finished and len(found) < count:
            seats = actors(state)
            seat = seats[int(rng.random() * len(seats))]
            action = choose(state, seat, rng)
            found.append((state.copy(), seat, action))
            play_trusted(state, seat, action)
    return found


def per_call_us(samples: list[tuple[State, int, object]], repeat: int) -> tuple[float, float]:
    started = time.process_time()
    for _ in range(repeat):
        for state, seat, _action in samples:
            legal_actions(state, seat)
    legal = (time.process_time() - started) / (repeat * len(samples)) * 1e6
    started = time.process_time()
    for _ in range(repeat):
        for state, seat, action in samples:
            apply(state, seat, action)  # type: ignore[arg-type]
    applied = (time.process_time() - started) / (repeat * len(samples)) * 1e6
    return legal, applied


def main() -> None:
    args = parse_args(__doc__.splitlines()[0] if __doc__ else "engine benchmark")
    seconds = 1.0 if args.quick else 5.0
    compiled = is_compiled()
    print(f"engine: {'compiled with mypyc' if compiled else 'interpreted (no compiled extension found)'}; "
          f"{seconds:.0f} s of CPU time a row\n")
    cases = [
        ("podkidnoy", 2), ("podkidnoy", 4), ("podkidnoy", 6),
        ("perevodnoy", 2), ("perevodnoy", 4), ("perevodnoy", 6),
    ]
    figures: dict[str, float] = {}
    rows = []
    for preset, players in cases:
        rate, actions, games = games_per_second(preset_rules(preset), players, seconds, seed=players)
        figures[f"games_per_s_{preset}_{players}p"] = round(rate, 1)
        rows.append([f"{preset}, {players} players", round(rate), round(actions, 1), games])
    print_table(["random games (36 cards)", "games/s", "actions/game", "games played"], rows)

    samples = positions(Rules(), 2, 2000 if args.quick else 20000, seed=7)
    samples += positions(Rules(), 6, 1000 if args.quick else 10000, seed=8)
    legal_us, apply_us = per_call_us(samples, repeat=2 if args.quick else 5)
    figures["us_per_legal_actions"] = round(legal_us, 3)
    figures["us_per_apply"] = round(apply_us, 3)
    figures["engine_compiled"] = 1 if compiled else 0
    print()
    print_table(["call (positions of random 2- and 6-player games)", "microseconds"],
                [["legal_actions(state, seat)", round(legal_us, 3)], ["apply(state, seat, action)", round(apply_us, 3)]])
    targets = [("games_per_s_podkidnoy_2p", 5000), ("games_per_s_podkidnoy_6p", 1500)]
    print()
    for name, target in targets:
        verdict = "meets" if figures[name] >= target else "MISSES"
        print(f"{name} = {figures[name]:,.0f}: {verdict} the target of {target:,}")
    if args.json:
        write_report(args.json, figures)
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
