# Where a result an event counts came from: a board's game, the director's
# hand (a paper card, a board that died, a fix), the two players' phones (one
# entered it, the other confirmed it: cribboard.event.claims), or a bye; the
# night's results and the playoffs' games say it with these words (the
# exports, the pages and the CLI show them). The director's word stands over
# the phones', and either over a board's (a crosscheck flags the board's).
BOARD = "board"
HAND = "hand"
PHONE = "phone"
BYE = "bye"
