# CircuitPython runs this once at power-up, before USB starts. It turns on a
# second USB serial port for the link (usb_cdc.data; the REPL keeps the
# console port) and gives the CIRCUITPY drive to the board's program, so it
# can save the match and log games; the computer then sees it read-only.
# Hold UNDO while plugging in to leave the drive to the computer instead
# (to deploy with `cribboard flash --drive`, or to edit files by hand).
import digitalio
import storage
import usb_cdc
from cribcp.pins import board_pin

from cribapp.boardfiles import read_json
from cribcore.config import Config

usb_cdc.enable(console=True, data=True)
try:
    config = Config(read_json("", "board.json")[0])
except ValueError:
    config = Config()  # a broken pin map: the app shows it; here the defaults do
undo = digitalio.DigitalInOut(board_pin(config.buttons["UNDO"]))
undo.switch_to_input(pull=digitalio.Pull.UP if config.active_low else digitalio.Pull.DOWN)
held = undo.value != config.active_low
undo.deinit()
if not held:
    storage.remount("/", readonly=False)
