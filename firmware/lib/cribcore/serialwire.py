# The serial link's own numbers, which both of its ends import (the board,
# cribapp.link; the host, cribboard.link) so that they cannot drift: the
# protocol, a line's limits each way, a LIST's most records. Its lines are
# sealed (cribcore.seal); what its commands mean: docs/protocol.md. Loaded on
# a board only once a host speaks.
from cribcore import const

PROTOCOL = const(6)  # the link's newest; 2: NAMES; 3: CONF; 4: RESEND; 5: ERC before a refusal's ERR; 6: SEAT
MAX_LINE = const(400)  # bytes of one line to the board: NAMES with three 24-character names in any script
MAX_REPLY = const(16384)  # bytes of one line to the host, sealed
LIST_LIMIT = const(50)  # records per LIST reply
