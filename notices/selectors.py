"""Reading notices: the unread count, a person's notices in words (the active language and time zone:
the reader's on a page, the recipient's in an e-mail), a fixed number of queries however many."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from durak_site.templatetags.zoned import zoned
from notices.models import Notice, NoticeKind

LISTED = 50  # the notices page shows this many, newest first


@dataclass(frozen=True)
class ShownNotice:
    id: int
    kind: str
    title: str
    text: str
    url: str
    created: datetime.datetime
    unread: bool


def unread_count(*, user: Any) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return Notice.objects.filter(user=user, read_at__isnull=True).count()


def notices_of(*, user: User, limit: int = LISTED) -> list[ShownNotice]:
    return shown(list(Notice.objects.filter(user=user).order_by("-created", "-pk")[:limit]))


def latest_unread(*, user: User, notice_id: int) -> ShownNotice | None:
    """One of his own notices, for his socket; None if it is not his."""
    notice = Notice.objects.filter(user=user, pk=notice_id).first()
    return shown([notice])[0] if notice is not None else None


def _user_ids(params: Mapping[str, Any]) -> Iterable[int]:
    for named in [*params.get("opponents", []), params.get("entrant") or {}]:
        if isinstance(named, dict) and isinstance(named.get("user"), int):
            yield named["user"]
    if isinstance(params.get("by"), int):
        yield params["by"]


def shown(notices: Sequence[Notice]) -> list[ShownNotice]:
    """The notices in words, in the active language; one query for every name they mention."""
    ids = {user_id for notice in notices for user_id in _user_ids(notice.params)}
    users = User.objects.in_bulk(ids) if ids else {}
    return [
        ShownNotice(
            id=notice.pk, kind=notice.kind, title=title_of(notice.kind), text=text_of(notice.kind, notice.params, users),
            url=notice.url, created=notice.created, unread=notice.read_at is None,
        )
        for notice in notices
    ]  # fmt: skip


def title_of(kind: str) -> str:
    return str(NoticeKind(kind).label) if kind in NoticeKind.values else _("Notice")


def _name(named: Any, users: Mapping[int, User]) -> str:
    if isinstance(named, dict):
        if named.get("team"):
            return str(named["team"])
        user = users.get(named.get("user"))  # type: ignore[arg-type]
        if user is not None:
            return user.public_name
    return _("a player who has left")


def _names(named: Sequence[Any], users: Mapping[int, User]) -> str:
    names = [_name(one, users) for one in named]
    if len(names) <= 1:
        return "".join(names)
    return str(format_lazy(_("{others} and {last}"), others=", ".join(names[:-1]), last=names[-1]))


def _time(value: Any) -> str:
    moment = parse_datetime(value) if isinstance(value, str) else None
    return zoned(moment, "H:i") if moment is not None else ""


def text_of(kind: str, params: Mapping[str, Any], users: Mapping[int, User]) -> str:
    """What the notice says. It names people, a tournament, a round and a board, a time: never a card."""
    place = {"round": params.get("round"), "name": params.get("name", ""), "board": params.get("board")}
    if kind == NoticeKind.PAIRING:
        if params.get("bye"):
            return _("Round %(round)s of %(name)s: you have a bye this round.") % place
        opponents = params.get("opponents") or []
        against = {**place, "opponents": _names(opponents, users), "time": _time(params.get("deadline"))}
        if not against["time"]:
            return ngettext(
                "Round %(round)s of %(name)s: board %(board)s, against %(opponents)s.",
                "Round %(round)s of %(name)s: board %(board)s, against %(opponents)s.",
                len(opponents),
            ) % against
        return ngettext(
            "Round %(round)s of %(name)s: board %(board)s, against %(opponents)s. Take your seat by %(time)s.",
            "Round %(round)s of %(name)s: board %(board)s, against %(opponents)s. Take your seat by %(time)s.",
            len(opponents),
        ) % against
    if kind == NoticeKind.REMINDER:
        opponents = params.get("opponents") or []
        return ngettext(
            "Round %(round)s of %(name)s: your game on board %(board)s against %(opponents)s is waiting for you. "
            "Take your seat by %(time)s, or the round goes on without you.",
            "Round %(round)s of %(name)s: your game on board %(board)s against %(opponents)s is waiting for you. "
            "Take your seat by %(time)s, or the round goes on without you.",
            len(opponents),
        ) % {**place, "opponents": _names(opponents, users), "time": _time(params.get("deadline"))}
    if kind == NoticeKind.DISPUTE:
        return _("%(player)s disputes board %(board)s of round %(round)s in %(name)s.") % {
            **place, "player": _name({"user": params.get("by")}, users),
        }
    if kind == NoticeKind.NO_SHOW:
        words = {**place, "player": _name(params.get("entrant"), users)}
        if params.get("substituted"):
            return _("%(player)s did not take the seat on board %(board)s of round %(round)s in %(name)s: a bot plays instead.") % words
        return _("%(player)s did not take the seat on board %(board)s of round %(round)s in %(name)s and forfeits.") % words
    return _("Something happened that this site cannot put in words.")
