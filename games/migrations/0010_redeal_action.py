"""A redeal is an action of the record (issue 40): a game redealt before this version kept only its last deal in
the record and bumped `seq` without an action. Its record now opens with its first deal, lists the deals that
replaced it in `redeals`, and its log opens with one `redeal` action each (rebuilt from the voided deals' seeds,
kept in `Game.redeals`), so that a game's version is its log's length and its record replays every deal."""

from django.db import migrations

from games.engine.deal import deal
from games.engine.records import RecordDeal, played_deal
from games.engine.rules import Rules

DEAL_KEYS = ("hands", "stock", "trump", "hidden", "hidden_trump")


def _deal_json(rules, players, voided):
    dealt = deal(rules, players, seed=voided["seed"], salt=voided["salt"])
    return RecordDeal(hands=dealt.hands, stock=dealt.stock, trump=dealt.trump, hidden=dealt.hidden,
                      hidden_trump=dealt.hidden_trump).to_json()  # fmt: skip


def add_redeal_actions(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    ActionLog = apps.get_model("games", "ActionLog")
    for game in Game.objects.exclude(redeals=[]).iterator():
        if "redeals" in game.record:
            continue  # carries them already
        rules = Rules.from_dict(game.rules)
        deals = [_deal_json(rules, game.players, voided) for voided in game.redeals]
        played = {key: game.record[key] for key in DEAL_KEYS if key in game.record}
        rest = {key: value for key, value in game.record.items() if key not in DEAL_KEYS}
        asked = [{"seat": voided["seat"], "type": "redeal", "suit": voided["suit"]} for voided in game.redeals]
        game.record = {**rest, **deals[0], "redeals": [*deals[1:], played],
                       "actions": [*asked, *game.record.get("actions", [])]}  # fmt: skip
        game.save(update_fields=["record"])
        for seq, entry in enumerate(asked):
            log, _ = ActionLog.objects.get_or_create(
                game=game, seq=seq, defaults={"seat": entry["seat"], "action": {"type": "redeal", "suit": entry["suit"]}}
            )
            ActionLog.objects.filter(pk=log.pk).update(at=game.started or log.at)  # `at` is set on creation


def remove_redeal_actions(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    ActionLog = apps.get_model("games", "ActionLog")
    for game in Game.objects.exclude(redeals=[]).iterator():
        if "redeals" not in game.record:
            continue
        played = {key: value for key, value in played_deal(game.record).items() if key in DEAL_KEYS}
        rest = {key: value for key, value in game.record.items() if key not in (*DEAL_KEYS, "redeals")}
        actions = game.record.get("actions", [])[len(game.record["redeals"]) :]
        game.record = {**rest, **played, "actions": actions}
        game.save(update_fields=["record"])
        ActionLog.objects.filter(game=game, action__type="redeal").delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0009_duplicate")]

    operations = [migrations.RunPython(add_redeal_actions, remove_redeal_actions)]
