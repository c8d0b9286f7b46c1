# What a club night and a tournament are both made of (the event core):
# who is in it (a roster of numbered players), its tables and the boards at
# them, where a result came from, a board's game as it is read and the one
# check a result meets whoever enters it, the refusals a director's command
# meets, and the time changes are stamped with. The night (cribboard.night)
# and the tournament (cribboard.tournament) build on it.
