from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_user_time_zone'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='sound_muted',
            field=models.BooleanField(default=False, help_text='The cues of moves, your turn and the clock.', verbose_name="mute the game page's sounds"),
        ),
    ]
