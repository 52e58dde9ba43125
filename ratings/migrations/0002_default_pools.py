"""The rating pools issue 6 asks for: heads-up podkidnoy 36, heads-up perevodnoy 36, podkidnoy 3-6
players, podkidnoy 2v2. Each rule set is written out in full (the engine's Rules.to_dict() of the
preset) so that this migration does not change if the engine's defaults ever do."""

from django.db import migrations

PODKIDNOY_36 = {
    "deck": 36, "transfer": False, "transfer_by_showing_trump": False, "throw_in": "all", "first_bout_limit": 6,
    "teams": None, "cheating": False, "next_game_first": "lowest_trump", "redeal_five_same_suit": False,
    "joker_beats": "all",
}
PEREVODNOY_36 = {**PODKIDNOY_36, "transfer": True}
PODKIDNOY_36_2V2 = {**PODKIDNOY_36, "teams": "2v2"}

POOLS = [
    ("podkidnoy-36-heads-up", "Podkidnoy 36, heads-up", "Подкидной 36, один на один", PODKIDNOY_36, "heads_up", 2, 2),
    ("perevodnoy-36-heads-up", "Perevodnoy 36, heads-up", "Переводной 36, один на один", PEREVODNOY_36, "heads_up", 2, 2),
    ("podkidnoy-36-multi", "Podkidnoy 36, 3-6 players", "Подкидной 36, от 3 до 6 игроков", PODKIDNOY_36, "multi", 3, 6),
    ("podkidnoy-36-2v2", "Podkidnoy 36, 2 against 2", "Подкидной 36, двое на двое", PODKIDNOY_36_2V2, "teams_2v2", 4, 4),
]


def create_pools(apps, schema_editor):
    RatingPool = apps.get_model("ratings", "RatingPool")
    for position, (slug, name_en, name_ru, rules, game_format, fewest, most) in enumerate(POOLS):
        RatingPool.objects.get_or_create(
            slug=slug,
            defaults={
                "name_en": name_en, "name_ru": name_ru, "rules": rules, "format": game_format,
                "min_players": fewest, "max_players": most, "position": position,
            },
        )


def remove_pools(apps, schema_editor):
    RatingPool = apps.get_model("ratings", "RatingPool")
    RatingPool.objects.filter(slug__in=[pool[0] for pool in POOLS], rated_games__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunPython(create_pools, remove_pools)]
