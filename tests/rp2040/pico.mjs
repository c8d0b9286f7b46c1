// A Raspberry Pi Pico, emulated: the real MicroPython RP2040 port (the UF2
// beside this file, see README.md) running instruction by instruction in rp2040js, its USB
// serial line on this process's stdin and stdout (the test gives it a
// pseudo-terminal, which mpremote and cribboard open as a Pico's port), and
// its 2 MB flash kept in a file, written through at every erase and program,
// so a kill is a power cut and a new run of this script a power-up.
// Usage: node tests/rp2040/pico.mjs FLASH_FILE [HW_PORT]
//   A missing FLASH_FILE is made from the UF2: a Pico with only MicroPython.
//   HW_PORT: a local TCP port to the host's side of the hardware, in the
//   simulated board's own protocol (host/cribboard/mp/simhw.py): the host
//   sends "D|U PIN HOLD_MS ID" (a button down or up, held that long on the
//   board's clock) and gets "A ID" once its time is up; every frame the
//   firmware writes to the strip on GPIO 0 comes back as "F <GRB hex>".
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Simulator, USBCDC } from "rp2040js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const UF2 = path.join(HERE, "micropython-v1.28.0-RPI_PICO.uf2");
const BOOTROM = path.join(HERE, "rp2040-bootrom-b1.bin");
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

const flashFile = process.argv[2];
if (!flashFile) {
  process.stderr.write("usage: node pico.mjs FLASH_FILE\n");
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

function boot() {
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
  mcu.peripherals[0x40058].onWatchdogTrigger = () => setImmediate(restart); // machine.reset() and the WDT
  mcu.logger = stderrLogger; // stdout is the board's serial line
  // The buttons (GPIO 2-7, the Pico pin map's) are pulled up: high until pressed.
  for (const pin of BUTTON_PINS) mcu.gpio[pin].setInputValue(!pressed.has(pin));
  watchStrip(mcu);
  changing = null;
  nextChange();
  mcu.core.PC = FLASH_BASE; // boot2 in flash, as the boot ROM would start it
  run();
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
  const done = clock.createAlarm(() => {
    // PICO_TIMES: the emulated time of each frame's last bit, on stderr, for the benchmarks.
    if (bytes.length && TIMES) process.stderr.write(`time frame ${Math.round(lastFall / 1000)} us\n`);
    if (bytes.length && hw) hw.write("F " + Buffer.from(bytes).toString("hex") + "\n");
    bytes = [];
    bits = byte = 0;
  });
  mcu.gpio[STRIP_PIN].addListener((state) => {
    if (state === 1) {
      roseAt = clock.nanos;
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
  if (TIMES) process.stderr.write(`time ${down ? "down" : "up"} ${Math.round(sim.clock.nanos / 1000)} us\n`);
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
      }
    }
    nextChange();
  });
  hw.on("close", () => process.exit(0)); // the host has gone: so does the board
  hw.on("error", () => process.exit(0));
}

function restart() {
  sim.stop();
  pendingRead = null;
  boot();
}

// Flash erase and program, done where the boot ROM would do them: the core
// reaching either function runs it here, written through to the file.
function flashCall(mcu) {
  const r = mcu.core.registers;
  const pc = mcu.core.PC;
  if (pc === ERASE) {
    const [offset, count] = [r[0], r[1]];
    mcu.flash.fill(0xff, offset, offset + count);
    fs.writeSync(flashFd, mcu.flash, offset, count, offset);
  } else {
    const [offset, from, count] = [r[0], r[1], r[2]];
    for (let i = 0; i < count; i++) mcu.flash[offset + i] &= mcu.readUint8(from + i);
    fs.writeSync(flashFd, mcu.flash, offset, count, offset);
  }
  mcu.core.PC = mcu.core.LR & ~1;
}

function run() {
  const { rp2040: mcu, clock } = sim;
  const cycleNanos = 1e9 / 125e6;
  const step = () => {
    if (sim.stopped) return;
    for (let i = 0; i < 200000; i++) {
      if (mcu.core.waiting) {
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
      if (sim.stopped) return clearInterval(trace);
      process.stderr.write(`pc ${mcu.core.PC.toString(16)} waiting ${mcu.core.waiting} ms ${Math.round(clock.nanos / 1e6)}\n`);
    }, 1000);
  }
  sim.stopped = false;
  setImmediate(step);
}

process.stdin.on("data", (data) => {
  for (const b of data) toBoard.push(b);
  if (sim) sim.feed();
});
process.stdin.on("end", () => process.exit(0)); // the host closed the line: the power goes
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => process.exit(0));
boot();
