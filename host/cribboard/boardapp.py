# The board's own app where the host leans on it: its drawing (the LEDs a
# state lights, for the pages and the power budget), its reading back of a
# saved state, and its rule for what a host may keep on it. The one host
# module that imports the board's app (a contract in pyproject.toml): the
# pure modules both sides share are the core's (cribcore); what else the
# host borrows from the board is here, and only here.
from typing import Any

from cribapp import render
from cribapp.boardview import tally, view_for
from cribapp.render import Renderer
from cribapp.restore import restore_session, session_of


def conf_checked(kind: str, data: Any) -> dict[str, str]:
    """The fields the board would keep for a CONF of kind (wifi, club), by
    the board's own rule; its CoreError says what it would refuse. Loaded
    when asked: only a pairing or a WiFi setting needs it."""
    from cribapp.hostapi import conf_checked as board_rule

    return board_rule(kind, data)


__all__ = ["Renderer", "conf_checked", "render", "restore_session", "session_of", "tally", "view_for"]
