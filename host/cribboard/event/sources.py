# Where a result an event counts came from: a board's game, the director's
# hand (a paper card, a board that died, a fix), or a bye; the night's
# results and the playoffs' games say it with these words (the exports,
# the pages and the CLI show them).
BOARD = "board"
HAND = "hand"
BYE = "bye"
