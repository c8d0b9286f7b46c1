# The board's menu (hold OK): the item on track 1's first holes (white),
# its value on track 2's (cyan); P1 the next item (P3 back), P2 the next
# value, OK applies, UNDO leaves. The app loads this module when the menu is
# first opened: a board that is only played never holds it. Functions of the
# app, whose menu_item and menu_values they keep.
from cribapp import button as gesture
from cribapp import render as rc
from cribapp.app import MENU, PLAY
from cribapp.matchstate import PIQUET
from cribcore.match import SCHEME_ORDER

# Menu items, in order; each has a list of values.
ITEM_NEW_GAME = 0
ITEM_NEW_MATCH = 1
ITEM_PLAYERS = 2  # 2, 4 (two teams), 3 on a 3-track board, or PIQUET: two players, piquet
ITEM_TARGET = 3
ITEM_SCHEME = 4
ITEM_LENGTH = 5
ITEM_BRIGHTNESS = 6
ITEM_SHOW = 7
MENU_ITEMS = 8
LENGTHS = ((1, None), (3, None), (5, None), (7, None), (9, None),
           (None, 3), (None, 5), (None, 7), (None, 11), (None, 15), (None, 21))
TARGETS = (121, 61)


def open_menu(app):
    app.mode = MENU
    app.menu_item = ITEM_NEW_GAME
    s = app.settings
    players = PIQUET if app.piquet() else s["players"]
    app.menu_values = [0, 0, players, s["target"], s["scheme"], (s["best_of"], s["first_to"]),
                       app.brightness, 1 if app.count_show else 0]


def options(app, item):
    if item == ITEM_PLAYERS:
        return (2, 3, 4, PIQUET) if app.layout.tracks >= 3 else (2, 4, PIQUET)
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


def value_index(app):
    opts = options(app, app.menu_item)
    v = app.menu_values[app.menu_item]
    for i in range(len(opts)):
        if opts[i] == v:
            return i
    return 0


def press(app, name, g, now):
    if g != gesture.PRESS and g != gesture.TAP:
        return
    vals = app.menu_values
    if name == "P1":
        app.menu_item = (app.menu_item + 1) % MENU_ITEMS
    elif name == "P3":
        app.menu_item = (app.menu_item - 1) % MENU_ITEMS
    elif name == "P2":
        opts = options(app, app.menu_item)
        vals[app.menu_item] = opts[(value_index(app) + 1) % len(opts)]
        if app.menu_item == ITEM_BRIGHTNESS:
            app.renderer.set_brightness(vals[ITEM_BRIGHTNESS])  # a live preview
    elif name == "UNDO":
        app.renderer.set_brightness(app.brightness)
        app.mode = PLAY
    elif name == "OK":
        apply(app)


def apply(app):
    vals = app.menu_values
    item = app.menu_item
    app.brightness = vals[ITEM_BRIGHTNESS]
    app.renderer.set_brightness(app.brightness)
    app.count_show = vals[ITEM_SHOW] == 1  # a way of entering, not a match setting
    best_of, first_to = vals[ITEM_LENGTH]
    game = PIQUET if vals[ITEM_PLAYERS] == PIQUET else "cribbage"
    settings = {"game": game, "players": 2 if game == PIQUET else vals[ITEM_PLAYERS],
                "target": vals[ITEM_TARGET], "scheme": vals[ITEM_SCHEME], "best_of": best_of,
                "first_to": first_to}
    app.mode = PLAY
    if item == ITEM_NEW_GAME:
        app.restart_game()  # the same match: this game's events are dropped
    elif item == ITEM_NEW_MATCH or settings != app.settings:
        app.new_match(settings)
    app.save()
    app.tell("menu", None)


def draw(app, r):
    r.span(0, 1, app.menu_item + 1, rc.MENU)
    r.span(1, 1, value_index(app) + 1, rc.MARK)
