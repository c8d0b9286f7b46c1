# The board's menu (hold OK): the item on track 1's first holes (white),
# its value on track 2's (cyan); P1 the next item (P3 back), P2 the next
# value, OK applies, UNDO leaves. The loop loads this module when the menu
# is first opened: a board that is only played never holds it. The menu
# only chooses; the loop applies what was chosen (Menu.chosen()).
from cribapp import button as gesture
from cribapp import render as rc
from cribapp.compat import const
from cribcore.match import CRIBBAGE, PIQUET, SCHEME_ORDER

# Menu items, in order; each has a tuple of values.
ITEM_NEW_GAME = const(0)
ITEM_NEW_MATCH = const(1)
ITEM_PLAYERS = const(2)  # 2, 4 (two teams), 3 on a 3-track board, or PIQUET: two players, piquet
ITEM_TARGET = const(3)
ITEM_SCHEME = const(4)
ITEM_LENGTH = const(5)
ITEM_BRIGHTNESS = const(6)
ITEM_SHOW = const(7)
MENU_ITEMS = const(8)
LENGTHS = (
    (1, None),
    (3, None),
    (5, None),
    (7, None),
    (9, None),
    (None, 3),
    (None, 5),
    (None, 7),
    (None, 11),
    (None, 15),
    (None, 21),
)
TARGETS = (121, 61)

# What a press in the menu came to.
STAY = const(0)
LEAVE = const(1)  # UNDO: nothing changes
APPLY = const(2)  # OK: the loop applies chosen()


def options(item, tracks):
    """The values item offers on a board of `tracks`."""
    if item == ITEM_PLAYERS:
        return (2, 3, 4, PIQUET) if tracks >= 3 else (2, 4, PIQUET)
    if item == ITEM_TARGET:
        return TARGETS
    if item == ITEM_SCHEME:
        return SCHEME_ORDER
    if item == ITEM_LENGTH:
        return LENGTHS
    if item == ITEM_BRIGHTNESS:
        return (1, 2, 3, 4, 5)
    if item == ITEM_SHOW:
        return (0, 1)  # off, on
    return (0,)


class Menu:
    def __init__(self, renderer, tracks, settings, brightness, count_show):
        self.renderer = renderer  # for the brightness's live preview
        self.tracks = tracks
        self.brightness = brightness  # as it was: UNDO puts it back
        self.item = ITEM_NEW_GAME
        players = PIQUET if settings.get("game") == PIQUET else settings["players"]
        self.values = [
            0,
            0,
            players,
            settings["target"],
            settings["scheme"],
            (settings["best_of"], settings["first_to"]),
            brightness,
            1 if count_show else 0,
        ]

    def _index(self):
        opts = options(self.item, self.tracks)
        v = self.values[self.item]
        for i in range(len(opts)):
            if opts[i] == v:
                return i
        return 0

    def press(self, name, g):
        """One gesture: STAY, LEAVE or APPLY."""
        if g != gesture.PRESS and g != gesture.TAP:
            return STAY
        if name == "P1":
            self.item = (self.item + 1) % MENU_ITEMS
        elif name == "P3":
            self.item = (self.item - 1) % MENU_ITEMS
        elif name == "P2":
            opts = options(self.item, self.tracks)
            self.values[self.item] = opts[(self._index() + 1) % len(opts)]
            if self.item == ITEM_BRIGHTNESS:
                self.renderer.set_brightness(self.values[ITEM_BRIGHTNESS])
        elif name == "UNDO":
            self.renderer.set_brightness(self.brightness)
            return LEAVE
        elif name == "OK":
            return APPLY
        return STAY

    def chosen(self):
        """(item OK was tapped on, settings, brightness, count the show)."""
        vals = self.values
        best_of, first_to = vals[ITEM_LENGTH]
        game = PIQUET if vals[ITEM_PLAYERS] == PIQUET else CRIBBAGE
        settings = {
            "game": game,
            "players": 2 if game == PIQUET else vals[ITEM_PLAYERS],
            "target": vals[ITEM_TARGET],
            "scheme": vals[ITEM_SCHEME],
            "best_of": best_of,
            "first_to": first_to,
        }
        return self.item, settings, vals[ITEM_BRIGHTNESS], vals[ITEM_SHOW] == 1

    def draw(self, r):
        r.span(0, 1, self.item + 1, rc.MENU)
        r.span(1, 1, self._index() + 1, rc.MARK)
