"""Whole simulated tournaments through the services: no rematch and at most one bye per entrant over many
Swiss events with withdrawals and late entries; the export is DESIGN.md's simulation output and the
standings in it can be recomputed from its rounds."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tournaments.models import Format, Seating, Tournament
from tournaments.pairing import BoardResult, Scoring, standings
from tournaments.simulation import SimulationOptions, simulate

pytestmark = pytest.mark.django_db


def _check_swiss(exported: dict[str, Any]) -> None:
    met: Counter[tuple[str, str]] = Counter()
    byes: Counter[str] = Counter()
    withdrawn = {item["id"]: item["withdrawn_after"] for item in exported["entrants"] if "withdrawn_after" in item}
    for round_ in exported["rounds"]:
        seen: set[str] = set()
        for pairing in round_["pairings"]:
            for entrant in pairing["entrants"]:
                assert entrant not in seen
                seen.add(entrant)
                # Nobody is paired after the round he withdrew in.
                assert round_["number"] <= withdrawn.get(entrant, 99)
            if pairing.get("bye"):
                byes[pairing["entrants"][0]] += 1
            elif not pairing.get("forfeit"):
                first, second = sorted(pairing["entrants"])
                met[(first, second)] += 1
    assert not met or max(met.values()) == 1, "a rematch"
    assert not byes or max(byes.values()) == 1, "a second bye"


def _recomputed(exported: dict[str, Any]) -> list[dict[str, object]]:
    ratings = {item["id"]: float(item["rating"]) for item in exported["entrants"]}
    rounds = []
    for round_ in exported["rounds"]:
        results = []
        for pairing in round_["pairings"]:
            results.append(BoardResult(
                entrants=tuple(pairing["entrants"]), points=tuple(pairing["points"]), bye=bool(pairing.get("bye")),
                forfeit=bool(pairing.get("forfeit")), first=pairing.get("first"),
            ))  # fmt: skip
        rounds.append(results)
    return [line.as_dict() for line in standings(ratings, rounds, scoring=Scoring())]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_many_swiss_events_with_withdrawals_and_late_entries(seed: int) -> None:
    players = 9 + seed * 3
    exported = simulate(SimulationOptions(players=players, rounds=6, seed=seed, fast=True, withdrawals=2 + seed % 3,
                                          late_entries=1 + seed % 2))  # fmt: skip
    assert exported["rounds_planned"] == 6 and len(exported["rounds"]) == 6
    assert len(exported["entrants"]) == players + 1 + seed % 2
    assert sum("withdrawn_after" in item for item in exported["entrants"]) == 2 + seed % 3
    _check_swiss(exported)
    # Anyone can recompute the standings from the rounds.
    mine = {line["entrant"]: (line["rank"], line["points"]) for line in exported["standings"]}
    again = {line["entrant"]: (line["rank"], line["points"]) for line in _recomputed(exported)}
    assert mine == again
    # And the simulation left nothing behind.
    assert not Tournament.objects.exists()


def test_simulated_tables_and_teams_and_round_robins() -> None:
    tables = simulate(SimulationOptions(players=14, rounds=3, seating=Seating.TABLES, table_size=5, fast=True, games_per_pairing=2))
    sizes = sorted(len(pairing["entrants"]) for pairing in tables["rounds"][0]["pairings"])
    assert sizes == [4, 5, 5]
    teams = simulate(SimulationOptions(players=6, rounds=3, seating=Seating.TEAMS, team_size=3, fast=True))
    assert len(teams["entrants"]) == 6 and teams["entrants"][0]["name"].startswith("Team")
    _check_swiss(teams)
    robin = simulate(SimulationOptions(players=5, format=Format.ROUND_ROBIN, fast=True))
    assert robin["rounds_planned"] == 5
    pairs = Counter(
        tuple(sorted(pairing["entrants"])) for round_ in robin["rounds"] for pairing in round_["pairings"] if not pairing.get("bye")
    )
    assert len(pairs) == 10 and set(pairs.values()) == {1}


def test_the_command_plays_the_games_through_the_services(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    call_command("simulate_tournament", "--format", "swiss", "--players", "5", "--rounds", "2", "--seating",
                 "heads-up", "--seed", "1", "--json", str(out))  # fmt: skip
    exported = json.loads(out.read_text())
    assert set(exported) == {"format", "seating", "rounds_planned", "entrants", "rounds", "standings"}
    assert exported["format"] == "swiss" and exported["seating"] == "heads-up"
    first = exported["rounds"][0]["pairings"]
    assert [pairing.get("bye", False) for pairing in first] == [False, False, True]
    assert first[0]["first"] == first[0]["entrants"][0] and first[2]["points"] == [1]
    assert {"rank", "entrant", "points", "tiebreaks"} == set(exported["standings"][0])
    _check_swiss(exported)
