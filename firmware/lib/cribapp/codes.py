# The numbers the board app's parts share, in one small module every part
# may import: what the error pattern says, what the board is showing, and
# what a session's command came to (the loop flashes, saves and tells by it).
from cribapp.compat import const

# The error pattern: this many of track 1's game-point LEDs blink red.
ERR_REFUSED = const(1)  # the rules refused an entry or a button
ERR_STATE = const(2)  # the saved state was unreadable: a new match
ERR_LOG = const(3)  # the game log's last line was torn and dropped
ERR_FULL = const(4)  # the flash is full: nothing more is saved
ERR_CONFIG = const(5)  # board.json or layout.json is wrong: defaults used
ERR_DEPLOY = const(6)  # the last deploy did not finish (main.py blinks it too)
ERR_CRASH = const(7)  # all seven: the program crashed (logged; the board restarts)

# What the board shows.
PLAY = const(0)
SKUNK_VIEW = const(1)
MATCH_VIEW = const(2)
MENU = const(3)

# What a command came to. Up to ENTRY nothing is saved; from ADDED on the
# game changed: the loop saves it and tells a listening host TOLD[outcome].
NOTHING = const(0)  # nothing to do (OK with nothing pending, say)
REFUSED = const(1)  # the rules refused it: the error flash; pending points wait
ENTRY = const(2)  # only the points being entered changed
ADDED = const(3)  # an entry was counted (Session.last is its event)
UNDONE = const(4)
REDONE = const(5)
SHOW = const(6)  # the deal's pegging is over: the hands and crib are next
DEAL = const(7)  # the deal passed on
WON = const(8)  # OK on a won game: the loop logs it, then Session.advance()
NEXT = const(9)  # the next game (or a new match) began
SETTINGS = const(10)  # the menu changed the match or its settings
TOLD = ("", "", "", "add", "undo", "redo", "show", "deal", "", "next", "menu")
