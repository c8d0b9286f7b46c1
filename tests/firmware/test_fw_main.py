# cribmp.start (what main.py runs) builds the board from its files, with fake `machine` and
# `neopixel` modules standing in for the hardware (tests/fakes).
import gc
import json
import os
import sys

from cribapp import boardfiles
from cribapp import codes as board
from cribapp.hostapi import HostApi
from cribapp.store import STATE, STATE_BAD
from cribcore.seal import seal, unseal

from rig import FakeClock, FakeStream, empty_dir, error_pattern, own_folder

sys.path.insert(0, "tests/fakes")
import machine
from cribmp import start as main

from cribapp import deploycheck

ROOT = own_folder("cribboard-main-test")


def fresh(files):
    empty_dir(ROOT)
    for name in files:
        with open(ROOT + "/" + name, "w") as f:
            f.write(files[name])


def hardware(path):
    with open("hardware/" + path) as f:
        return f.read()


def boot(clock=None):
    machine.Pin.levels.clear()
    app = main.build(ROOT, FakeStream(), clock or FakeClock())
    app.step()
    return app


def error(app):
    return error_pattern(app, app.renderer.sink.pixel)


def press(app, pin, clock, ms=60):
    machine.Pin.levels[pin] = 0  # buttons pull the pin to ground
    for _ in range(ms // 10):
        clock.advance(10)
        app.step()
    machine.Pin.levels[pin] = 1
    for _ in range(5):
        clock.advance(10)
        app.step()


def test_the_board_builds_from_its_files_and_plays():
    fresh({"board.json": hardware("boards/pico.json"), "layout.json": hardware("layouts/2-track.json")})
    clock = FakeClock()
    app = boot(clock)
    assert error(app) == 0
    assert app.layout.n == 258
    assert app.renderer.sink.n == 258
    assert app.names == ["P1", "P2", "UNDO", "SKUNK", "OK"]  # no P3 on a 2-track board
    assert len(HostApi(app).hello_fields()[0]) == 16
    press(app, 2, clock)  # P1 on GP2
    press(app, 2, clock)
    press(app, 7, clock)  # OK on GP7 commits
    assert app.match.game.scores() == [2, 0]
    strip = app.renderer.sink
    assert strip.pixel(app.layout.hole[0][2]) == app.renderer.colour(1)
    again = boot()  # power off and on: the match is still there
    assert again.match.game.scores() == [2, 0]
    assert again.boot == 2


def test_a_missing_or_broken_config_runs_on_defaults_and_says_so():
    fresh({})
    app = boot()
    assert error(app) == board.ERR_CONFIG
    assert app.layout.n == 258
    fresh({"board.json": "{not json", "layout.json": hardware("layouts/3-track.json")})
    app = boot()
    assert error(app) == board.ERR_CONFIG
    assert app.layout.tracks == 3
    fresh({"board.json": hardware("boards/pico.json"), "layout.json": json.dumps({"tracks": 2})})
    app = boot()
    assert error(app) == board.ERR_CONFIG
    assert app.layout.n == 258


def test_a_corrupt_state_is_kept_aside_and_shown():
    fresh(
        {
            "board.json": hardware("boards/pico.json"),
            "layout.json": hardware("layouts/2-track.json"),
            STATE: '{"v": 1, "half a file',
        }
    )
    app = boot()
    assert error(app) == board.ERR_STATE
    assert STATE_BAD in os.listdir(ROOT)
    assert app.match.game.scores() == [0, 0]


def test_an_interrupted_firmware_update_is_shown_at_boot():
    files = {"board.json": hardware("boards/pico.json"), "layout.json": hardware("layouts/2-track.json")}
    fresh(dict(files, **{"deploy.json": '{"state": "incomplete", "version": "0.1.0"}'}))
    assert error(boot()) == board.ERR_DEPLOY
    fresh(dict(files, **{"deploy.json": '{"state": "complete", "version": "0.1.0"}'}))
    assert error(boot()) == 0


def test_the_link_is_loaded_when_a_host_first_speaks():
    fresh({"board.json": hardware("boards/pico.json"), "layout.json": hardware("layouts/2-track.json")})
    machine.Pin.levels.clear()
    stream = FakeStream()
    clock = FakeClock()
    app = main.build(ROOT, stream, clock)
    app.step()
    assert type(app.link).__name__ == "LinkWait"
    assert not app.link.listening()
    stream.feed(seal("HELLO"))
    for _ in range(3):
        clock.advance(10)
        app.step()
    assert type(app.link).__name__ == "Link"  # the first byte loaded it, and it kept that byte
    (hello,) = [unseal(line) for line in stream.lines()]
    assert hello.startswith("HELLO board=")
    assert " boot=1 " in hello


def test_holding_ok_at_power_up_runs_the_self_test():
    from cribapp.selftest import COLOURS, ECHO, SelfTest

    fresh({"board.json": hardware("boards/pico.json"), "layout.json": hardware("layouts/2-track.json")})
    machine.Pin.levels.clear()
    machine.Pin.levels[7] = 0  # OK held while the board starts
    clock = FakeClock()
    st = main.build(ROOT, FakeStream(), clock)
    assert isinstance(st, SelfTest)
    strip = st.sink
    n = st.layout.n
    seen = bytearray(n)  # a bit per colour each LED has shown
    machine.Pin.levels[7] = 1
    for _ in range(n * 4 + 8):  # every LED, every colour, one at a time
        before = st.led
        clock.advance(40)
        st.step()
        assert strip.pixel(before) == (0, 0, 0) or before == st.led
        seen[st.led] |= 1 << COLOURS.index(strip.pixel(st.led))
    assert seen == bytearray([15] * n)
    assert st.rounds == 1
    assert sum(1 for i in range(0, n, 7) if strip.pixel(i) != (0, 0, 0)) <= 1
    machine.Pin.levels[5] = 0  # UNDO, the third button here: game-point LED 3 of each track
    for _ in range(4):
        clock.advance(10)
        st.step()
    assert [strip.pixel(st.layout.points[t][2]) for t in range(2)] == [ECHO, ECHO]
    machine.Pin.levels[5] = 1
    machine.Pin.levels[7] = 0  # a long press of OK, then let go: the board starts
    for _ in range(100):
        clock.advance(10)
        st.step()
    assert st.leaving
    assert not st.done
    machine.Pin.levels[7] = 1
    for _ in range(5):
        clock.advance(10)
        st.step()
    assert st.done
    del st, strip, seen
    gc.collect()
    assert not isinstance(main.build(ROOT, FakeStream(), clock), SelfTest)


def test_a_torn_or_unfinished_deploy_manifest_counts_as_unfinished():
    files = {"board.json": hardware("boards/pico.json"), "layout.json": hardware("layouts/2-track.json")}
    for manifest, finished in (
        (None, True),
        ('{"state": "complete"}', True),
        ('{"state": "incomplete"}', False),
        ('{"state": "comp', False),
        ("[1]", False),
    ):
        fresh(dict(files, **({"deploy.json": manifest} if manifest else {})))
        assert boardfiles.deploy_finished(ROOT) is finished, manifest
        assert (error(boot()) == board.ERR_DEPLOY) is not finished


def test_the_deploy_error_shows_where_deploy_json_says_without_loading_the_app():
    assert deploycheck.DEPLOY_ERROR_LEDS == board.ERR_DEPLOY
    waits = []
    from cribcore.layout import Layout

    points = Layout(json.loads(hardware("layouts/2-track.json"))).points[0]
    error = {"pin": 0, "leds": 258, "lit": list(points[:6])}  # as cribboard flash writes it
    fresh({"deploy.json": json.dumps({"state": "incomplete", "error": error})})
    strips = []
    real = deploycheck.neopixel.NeoPixel

    def keep(pin, n):
        strips.append(real(pin, n))
        return strips[-1]

    deploycheck.neopixel.NeoPixel = keep
    try:
        deploycheck.show_deploy_error(ROOT, blinks=1, wait=waits.append)
        strip = strips[-1]
        assert strip.n == 258
        assert waits == [500]
        lit = [i for i in range(strip.n) if strip.pixel(i) != (0, 0, 0)]
        assert lit == sorted(points[:6])
        assert strip.pixel(points[0])[0] > 0
        assert strip.pixel(points[0])[1] == 0
        deploycheck.show_deploy_error(ROOT, blinks=2, wait=waits.append)
        assert all(strips[-1].pixel(i) == (0, 0, 0) for i in range(258))  # the blink's dark half
        for manifest in (None, '{"state": "comp', json.dumps({"error": {"pin": 0, "leds": 4, "lit": [9]}})):
            fresh({"deploy.json": manifest} if manifest else {})  # nothing (or nothing sane) to go by
            deploycheck.show_deploy_error(ROOT, blinks=1, wait=waits.append)
            strip = strips[-1]
            assert strip.n == 6
            assert all(strip.pixel(i)[0] > 0 for i in range(6))
    finally:
        deploycheck.neopixel.NeoPixel = real


def test_a_deploy_unfinished_or_with_a_file_cut_short_is_shown_and_the_app_never_imported():
    import cribapp

    files = {"board.json": hardware("boards/pico.json"), "layout.json": hardware("layouts/2-track.json")}
    sizes = {name: len(files[name]) for name in files}
    shown, started = [], []

    class Loop:  # stands in for cribapp.mainloop: what main.run() would start
        @staticmethod
        def run(*args):
            started.append(True)

    real = deploycheck.show_deploy_error
    deploycheck.show_deploy_error = lambda *args: shown.append(True)
    saved = (sys.modules.get("cribapp.mainloop"), getattr(cribapp, "mainloop", None))
    sys.modules["cribapp.mainloop"] = cribapp.mainloop = Loop
    here = os.getcwd()
    from cribapp import compat

    forget = compat.forget
    compat.forget = lambda name: None  # a board forgets deploycheck after it; kept here, patched
    try:
        for manifest in (
            {"state": "incomplete"},
            {"state": "complete", "sizes": dict(sizes, **{"board.json": 9})},
            {"state": "complete", "sizes": dict(sizes, **{"lib/cribapp/app.mpy": 100})},
            "torn",
        ):
            fresh(dict(files, **{"deploy.json": manifest if manifest == "torn" else json.dumps(manifest)}))
            os.chdir(ROOT)
            try:
                main.run()
            finally:
                os.chdir(here)
            assert shown.pop() and started == [], manifest
        for manifest in ({"state": "complete", "sizes": sizes}, None):  # whole, or installed another way
            fresh(dict(files, **{"deploy.json": json.dumps(manifest)}) if manifest else files)
            os.chdir(ROOT)
            try:
                main.run()
            finally:
                os.chdir(here)
            assert started.pop() and shown == [], manifest
        compat.forget = forget
        os.chdir(ROOT)
        try:
            main.run()  # the check passed: on a board its code is dropped before the app loads
        finally:
            os.chdir(here)
        assert started.pop()
        assert ("cribapp.deploycheck" in sys.modules) is (sys.implementation.name != "micropython")
    finally:
        compat.forget = forget
        sys.modules["cribapp.deploycheck"] = cribapp.deploycheck = deploycheck
        deploycheck.show_deploy_error = real
        if saved[0] is None:
            del sys.modules["cribapp.mainloop"]
        else:
            sys.modules["cribapp.mainloop"] = saved[0]
        if saved[1] is not None:
            cribapp.mainloop = saved[1]
