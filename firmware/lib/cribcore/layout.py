# LED layouts as data: which strip index lights which hole, dealer and
# game-point LED of each track. A layout is a list of runs along the strip,
# so serpentine wiring is only a run whose holes count down. This module is
# the map a board draws with; reading and checking a layout's data (and the
# reference layout) is cribcore.layoutfile, which a board forgets once built.
from array import array

HOLES = 121  # 1..120 in four streets of 30, then the game hole
GAME_POINT_LEDS = 7
NO_LED = 0xFFFF

HOLE = "holes"
GAME = "game"
DEALER = "dealer"
POINTS = "points"


class Layout:
    """Strip indices by role, checked: every hole of every track on exactly
    one LED, no LED used twice, the strip exactly as long as the runs.
    ValueError naming the problem otherwise.
      hole[track][1..121], dealer[track], points[track][0..6]: strip indices
      n: the strip's length; tracks: 2 or 3; name"""

    def __init__(self, data: object) -> None:
        from cribcore.layoutfile import place

        self.name = "unnamed"
        self.n = 0
        self.tracks = 0
        self.hole = []  # type: list[array[int]]
        self.dealer = array("H")
        self.points = []  # type: list[array[int]]
        place(self, data)
