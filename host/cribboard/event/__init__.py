# What a club night and a tournament are both made of (the event core):
# the refusals a director's command meets, the check a game's result meets
# whoever enters it, and the time events are stamped with. The night
# (cribboard.night) and the tournament (cribboard.tournament) build on it.
