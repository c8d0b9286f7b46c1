# The match a board's saved state holds (app.App.state(): settings, the
# closed games' results, the current game's events), rebuilt. The board
# restores itself from it at boot; the host's scoreboard reads the same
# state (from the simulated flash, or STATE over the link) through it.
from cribcore.match import PIQUET, Match

STATE_VERSION = 1


def match_for(settings, dealer):
    """A new match with these settings, the first game dealt by `dealer`."""
    if settings.get("game", "cribbage") == PIQUET:
        from cribcore import partie  # only boards that play piquet load it

        return partie.PiquetMatch(dealer)
    return Match(settings["players"], settings["target"], settings["scheme"], settings["best_of"],
                 settings["first_to"], dealer)


def restore(state):
    """The match of a saved state; ValueError, KeyError, TypeError or
    IndexError if the state is not one this firmware wrote."""
    if state.get("v") != STATE_VERSION:
        raise ValueError("state version %r" % (state.get("v"),))
    m = match_for(state["settings"], state["dealer"])
    for result in state["closed"]:
        m.closed.append(tuple(result))
    m.game.load(state["events"], state["cursor"])
    return m
