# The self-test for a newly built board (hold OK while powering up): one LED
# at a time walks the whole strip in red, green, blue and white, and every
# button lights its own game-point LED on every track while it is held, so
# each LED, solder joint and button can be checked by eye. A long press of
# OK ends it and the board starts as usual.
from cribapp import button as gesture

STEP_MS = 40
COLOURS = ((80, 0, 0), (0, 80, 0), (0, 0, 80), (60, 60, 60))
ECHO = (80, 80, 80)
OFF = (0, 0, 0)


class SelfTest:
    def __init__(self, layout, keypad, sink, clock):
        self.layout = layout
        self.keypad = keypad
        self.sink = sink
        self.clock = clock
        self.led = 0
        self.colour = 0
        self.rounds = 0  # times every LED has shown every colour
        self.leaving = False  # OK long-pressed: done once it is let go
        self.done = False
        self.next = clock.ticks_ms()
        self.lit = [False] * len(keypad.buttons)
        for i in range(sink.n):
            sink[i] = OFF
        sink[0] = COLOURS[0]
        sink.write()

    def step(self):
        clock = self.clock
        now = clock.ticks_ms()
        changed = False
        ev = self.keypad.poll(now, clock.ticks_diff)
        if ev:
            b = self.keypad.buttons[ev >> 3]
            if b.name == "OK" and ev & 7 == gesture.LONG:
                self.leaving = True
        if clock.ticks_diff(now, self.next) >= 0:
            self.next = clock.ticks_add(self.next, STEP_MS)
            self.sink[self.led] = OFF
            self.led += 1
            if self.led >= self.layout.n:
                self.led = 0
                self.colour = (self.colour + 1) % len(COLOURS)
                if self.colour == 0:
                    self.rounds += 1
            self.sink[self.led] = COLOURS[self.colour]
            changed = True
        for k in range(len(self.keypad.buttons)):
            held = self.keypad.buttons[k].pressed
            if self.leaving and not held and self.keypad.buttons[k].name == "OK":
                self.done = True
            if held != self.lit[k]:
                self.lit[k] = held
                for t in range(self.layout.tracks):
                    self.sink[self.layout.points[t][k]] = ECHO if held else OFF
                changed = True
        if changed:
            self.sink.write()
