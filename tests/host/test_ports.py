# Finding the board among the serial ports pyserial lists.
import pytest
from serial.tools.list_ports_common import ListPortInfo

from cribboard.link import ports


def port(device, vid=None, pid=None, product=None, serial=None, interface=None, location=None):
    p = ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid, p.product, p.serial_number = vid, pid, product, serial
    p.interface, p.location = interface, location
    return p


PICO = port("/dev/ttyACM0", 0x2E8A, 0x0005, "Board in FS mode", "E6614104032B2C29")
S3 = port("/dev/ttyACM1", 0x303A, 0x1001, "USB JTAG/serial debug unit")
CP2102 = port("/dev/ttyUSB0", 0x10C4, 0xEA60, "CP2102 USB to UART Bridge Controller")
CH340 = port("/dev/ttyUSB1", 0x1A86, 0x7523, "USB Serial")
FTDI = port("/dev/ttyUSB2", 0x0403, 0x6001, "FT232R USB UART")
MOUSE = port("/dev/ttyACM9", 0x046D, 0xC52B, "Unifying Receiver")
BUILT_IN = port("/dev/ttyS0")


@pytest.mark.parametrize("board", [PICO, S3, CP2102, CH340, FTDI])
def test_each_kind_of_board_is_found_on_its_own(board):
    assert ports.find(None, [BUILT_IN, MOUSE, board]) == board.device


def test_a_port_given_is_used_as_it_is():
    assert ports.find("/dev/pts/7", [PICO]) == "/dev/pts/7"


def test_no_board_names_the_ports_tried_and_is_a_failure():
    with pytest.raises(ports.NoBoard) as e:
        ports.find(None, [BUILT_IN, MOUSE])
    assert "ports tried: /dev/ttyS0, /dev/ttyACM9" in str(e.value)
    assert e.value.exit_code == 1


def test_several_boards_are_listed_and_the_user_asked_to_choose():
    with pytest.raises(ports.SeveralBoards) as e:
        ports.find(None, [CH340, MOUSE, PICO, S3])
    text = str(e.value)
    assert text.startswith(
        "more than one board: /dev/ttyACM0 (Raspberry Pi (RP2040), Board in FS mode, "
        "serial E6614104032B2C29); /dev/ttyACM1 (Espressif native USB"
    )
    assert "/dev/ttyUSB1 (WCH CH34x, USB Serial)" in text
    assert "ttyACM9" not in text
    assert text.endswith("say which with --port")
    assert e.value.exit_code == 2


def test_of_a_circuitpython_board_the_data_port_is_taken_not_the_repl():
    console = port("/dev/ttyACM3", 0x239A, 0x80F4, "Pico", "DE6", "CircuitPython CDC control", "1-1:1.0")
    data = port("/dev/ttyACM4", 0x239A, 0x80F4, "Pico", "DE6", "CircuitPython CDC2 control", "1-1:1.3")
    assert ports.find(None, [BUILT_IN, console, data]) == data.device
    unnamed = [port(q.device, q.vid, q.pid, q.product, q.serial_number, None, q.location) for q in (data, console)]
    assert ports.find(None, unnamed) == data.device  # no interface names: the higher interface
    assert ports.find(None, [console]) == console.device  # boot.py has not enabled a data port: the only one
