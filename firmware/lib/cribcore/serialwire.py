# The serial link's own numbers and words, which both of its ends import
# (the board, cribapp.link; the host, cribboard.link) so that they cannot
# drift: the protocol, a line's limits each way, a LIST's most records, the
# commands and the replies' first words. Its lines are
# sealed (cribcore.seal); what its commands mean: docs/protocol.md. Loaded on
# a board only once a host speaks.
from cribcore import const

PROTOCOL = const(6)  # the link's newest; 2: NAMES; 3: CONF; 4: RESEND; 5: ERC before a refusal's ERR; 6: SEAT
MAX_LINE = const(400)  # bytes of one line to the board: NAMES with three 24-character names in any script
MAX_REPLY = const(16384)  # bytes of one line to the host, sealed
LIST_LIMIT = const(50)  # records per LIST reply

# The commands, host to board (a line's first word; the board takes it in any case).
HELLO = "HELLO"
LIST = "LIST"
ACK = "ACK"
RESEND = "RESEND"
WATCH = "WATCH"
TIME = "TIME"
CRASHES = "CRASHES"
NAMES = "NAMES"
SEAT = "SEAT"
CONF = "CONF"
STATE = "STATE"
CLEAR = "CLEAR"  # CRASHES CLEAR N: the oldest N crashes dropped
ON, OFF = "on", "off"  # WATCH on|off
# The replies' first words, board to host (HELLO and STATE answer with their own).
OK = "OK"  # OK COMMAND ...: done
END = "END"  # a listing's end: END N [LAST]
REC = "REC"  # REC SEQ JSON: a record of a LIST
CRASH = "CRASH"  # CRASH BOOT UPTIME_MS JSON: a crash of CRASHES
EV = "EV"  # EV JSON: a live event, while watched
ERR = "ERR"  # ERR CODE WHY: refused
ERC = "ERC"  # ERC [CODE, VALUES]: a refusal's code and values, before its ERR (protocol 5)
CRC = "crc"  # ERR crc: the line failed its check (send it again)
