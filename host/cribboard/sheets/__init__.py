# The score sheets kept at the computer: their rules (barbu, piquet), what a line
# changed, the numbers typed, and how a sheet is saved between sessions (saved).
