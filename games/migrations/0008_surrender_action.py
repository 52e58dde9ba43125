"""A surrender is an action of the record (issue 40): a game given up, or lost on the clock, before this version
bumped its `seq` without one. Its record gets the `surrender` action it now carries, and its log the row, so that
a game's version is again its actions and its redeals, and its record replays to the end it had."""

from django.db import migrations


def add_surrender_actions(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    ActionLog = apps.get_model("games", "ActionLog")
    for game in Game.objects.filter(surrendered__isnull=False).iterator():
        actions = game.record.get("actions", [])
        if "decision" in game.record or len(actions) + len(game.redeals) != game.seq - 1:
            continue  # already carries it
        entry = {"seat": game.surrendered, "type": "surrender"}
        game.record = {**game.record, "actions": [*actions, entry]}
        game.save(update_fields=["record"])
        log, _ = ActionLog.objects.get_or_create(
            game=game, seq=game.seq - 1, defaults={"seat": game.surrendered, "action": {"type": "surrender"}}
        )
        ActionLog.objects.filter(pk=log.pk).update(at=game.finished or log.at)  # `at` is set on creation


def remove_surrender_actions(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    ActionLog = apps.get_model("games", "ActionLog")
    for game in Game.objects.filter(surrendered__isnull=False).iterator():
        actions = game.record.get("actions", [])
        if actions and actions[-1].get("type") == "surrender":
            game.record = {**game.record, "actions": actions[:-1]}
            game.save(update_fields=["record"])
            ActionLog.objects.filter(game=game, seq=game.seq - 1, action__type="surrender").delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0007_clocks")]

    operations = [migrations.RunPython(add_surrender_actions, remove_surrender_actions)]
