// The firmware's peak live heap on a 32-bit MicroPython: the same whole
// 3-player game as tests/bench/heapgame.py (main.build with the fake machine
// and neopixel modules, pressed out pin by pin), run on the WebAssembly port,
// whose pointers and objects are 32-bit like an RP2040's (the unix port's
// are 64-bit). The benchmark's own heap (heapgame.py and the fakes, which
// a board does not have) is measured before the firmware is imported and
// reported apart. Prints JSON.
// Usage: make mpy; node tests/bench/bench_wasm.mjs [--py]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let out = "";
const mp = await loadMicroPython({
  heapsize: 1024 * 1024,
  stdout: (line) => { out += line + "\n"; },
  stderr: (line) => process.stderr.write(line + "\n"),
});

const ending = process.argv[2] === "--py" ? ".py" : ".mpy";

function copyTree(src, dst, ending) {
  mp.FS.mkdir(dst);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") copyTree(from, dst + "/" + entry.name, ending);
    } else if (entry.name.endsWith(ending)) {
      mp.FS.writeFile(dst + "/" + entry.name, fs.readFileSync(from));
    }
  }
}

// The firmware as `make mpy` compiles it (as flash copies it to a board), or
// with --py from source.
copyTree(path.join(root, ending === ".py" ? "firmware/lib" : "build/mpy/lib"), "/lib", ending);
copyTree(path.join(root, "tests/fakes"), "/fakes", ".py");
mp.FS.mkdir("/app");
mp.FS.writeFile("/app/heapgame.py", fs.readFileSync(path.join(root, "tests/bench/heapgame.py")));
// This port's garbage collector cannot see the WebAssembly stack, so a
// collection frees only what is unreachable between two calls into it: the
// game runs in steps, one call each, and the heap is sampled in the calls
// between them.
try {
  mp.runPython("import sys, gc, json\nsys.path[:0] = ['/app', '/lib', '/fakes']\n" +
    "import heapgame, machine, neopixel\nresult = {}\nover = False\n");
  // A pointer the last call left behind can keep garbage alive for one
  // collection: the live heap is the least of a few samples, each a call.
  const live = () => {
    mp.runPython("samples = []");
    for (let k = 0; k < 3; k++) mp.runPython("gc.collect()\nsamples.append(gc.mem_alloc())");
    mp.runPython("least = min(samples)");
    return mp.globals.get("least");
  };
  const harness = live();
  mp.runPython("steps = heapgame.game_steps(result)");
  let peak = 0;
  for (;;) {
    mp.runPython("try:\n    next(steps)\nexcept StopIteration:\n    over = True\n");
    peak = Math.max(peak, live());
    if (mp.globals.get("over")) break;
  }
  const after = live();
  // The interned names and strings (qstrs) sit in pools that double as they
  // fill and are never freed: one name past a full pool costs about 4.5 KB
  // of live heap at once. How many there are, and in how many pools, says
  // how near the next jump is.
  mp.runPython("import micropython\nmicropython.qstr_info()\n");
  const pools = /n_pool=(\d+), n_qstr=(\d+)/.exec(out);
  mp.runPython(`result['peak_live_heap'] = ${peak}\nresult['harness_heap'] = ${harness}\n` +
    `result['firmware_peak_heap'] = ${peak - harness}\nresult['live_heap_after'] = ${after}\n` +
    `result['qstr_pools'] = ${pools ? pools[1] : "None"}\nresult['qstrs'] = ${pools ? pools[2] : "None"}\n` +
    "print(json.dumps(result))\n");
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
process.stdout.write(out.trim().split("\n").pop() + "\n");
