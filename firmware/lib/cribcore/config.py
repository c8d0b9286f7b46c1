# The board's configuration (pin map, layout name, power limits) read from
# a dict, with a plain error for each mistake and defaults for the rest.

from cribcore import CoreError, const

# The codes of cribcore.messages.
_NOT_OBJECT = const(1201)
_NO_BUTTONS = const(1202)
_BUTTON = const(1203)
_TWO_THINGS = const(1204)
_NO_PIN = const(1205)
_PIN = const(1206)
_NUMBER = const(1207)
_STRIP = const(1208)

BUTTON_NAMES = ("P1", "P2", "P3", "UNDO", "SKUNK", "OK")
REQUIRED_BUTTONS = ("P1", "P2", "UNDO", "SKUNK", "OK")

DEFAULTS = {
    "name": "pico",
    "strip_pin": 0,
    "buttons": {"P1": 2, "P2": 3, "P3": 4, "UNDO": 5, "SKUNK": 6, "OK": 7},
    "button_active_low": True,
    "layout": "2-track",
    "current_budget_ma": 500,
    "channel_ma": 20,
    "idle_ma_per_led": 0,
}


class Config:
    def __init__(self, data: object = None) -> None:
        d = DEFAULTS if data is None else data
        if not isinstance(d, dict):
            raise CoreError(_NOT_OBJECT, ())
        self.name = str(d.get("name", "board"))
        self.strip_pin = _pin(d, "strip_pin", DEFAULTS["strip_pin"])
        self.active_low = d.get("button_active_low", True) is not False
        self.layout = str(d.get("layout", "2-track"))
        self.budget_ma = _int(d, "current_budget_ma", 50, 10000, DEFAULTS["current_budget_ma"])
        self.channel_ma = _int(d, "channel_ma", 1, 100, DEFAULTS["channel_ma"])
        self.idle_ma_per_led = _int(d, "idle_ma_per_led", 0, 5, 0)
        buttons = d.get("buttons")
        if not isinstance(buttons, dict):
            raise CoreError(_NO_BUTTONS, ())
        self.buttons = {}  # type: dict[str, int | str]
        pins = {}  # type: dict[int | str, str]
        for name in buttons:
            if name not in BUTTON_NAMES:
                raise CoreError(_BUTTON, (name, " ".join(BUTTON_NAMES)))
            pin = _pin(buttons, name)
            if pin in pins or pin == self.strip_pin:
                raise CoreError(_TWO_THINGS, (pin, pins.get(pin) or CoreError(_STRIP, ()), name))
            pins[pin] = name
            self.buttons[name] = pin
        for name in REQUIRED_BUTTONS:
            if name not in self.buttons:
                raise CoreError(_NO_PIN, (name,))


def _pin(d: dict, key: str, default: object = None) -> int | str:
    """A GPIO number (MicroPython's machine.Pin), or a name in CircuitPython's
    `board` module ("D5", "GP2", "NEOPIXEL"). On CircuitPython a number N
    means board.GPN, so a Pico's pin map serves both."""
    v = d.get(key, default)
    if isinstance(v, str) and 0 < len(v) <= 16 and _is_name(v):
        return v
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 99:
        return v
    raise CoreError(_PIN, (key, v))


def _is_name(text: str) -> bool:
    for c in text:
        if not (c == "_" or "A" <= c <= "Z" or "a" <= c <= "z" or "0" <= c <= "9"):
            return False
    return True


def _int(d: dict, key: str, low: int, high: int, default: object = None) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not (low <= v <= high):
        raise CoreError(_NUMBER, (key, low, high, v))
    return v
