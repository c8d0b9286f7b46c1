# How long a test waits on another process (a board, a server, a command)
# before it gives up: a safety net sized for a machine ten times slower
# than this one, never a guess at its normal speed. Every wait ends on an
# event first: a line, a frame, a row, a reply, a process ending.
# (docs/testing.md, "On a busy machine".)
WAIT_S = 120  # one event
COMMAND_S = 300  # a whole command, run to its end
