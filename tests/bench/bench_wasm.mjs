// The firmware's peak live heap on a 32-bit MicroPython: the same whole
// 3-player game as bench_device.py's `game` (main.build with the fake machine
// and neopixel modules, pressed out pin by pin), run on the WebAssembly port,
// whose pointers and objects are 32-bit like an RP2040's (the unix port's
// are 64-bit). Prints JSON.
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
mp.FS.writeFile("/app/main.py", fs.readFileSync(path.join(root, "firmware/main.py")));
mp.FS.writeFile("/app/bench_device.py", fs.readFileSync(path.join(root, "tests/bench/bench_device.py")));
// This port's garbage collector cannot see the WebAssembly stack, so a
// collection frees only what is unreachable between two calls into it: the
// game runs in steps, one call each, and the heap is sampled in the calls
// between them.
try {
  mp.runPython(
    "import sys, gc, json\nsys.path[:0] = ['/app', '/lib', '/fakes']\nimport bench_device\n" +
      "result = {}\nsteps = bench_device.game_steps(result)\npeak = 0\nover = False\n",
  );
  for (;;) {
    mp.runPython("try:\n    next(steps)\nexcept StopIteration:\n    over = True\n");
    mp.runPython("gc.collect()\npeak = max(peak, gc.mem_alloc())\n");
    if (mp.globals.get("over")) break;
  }
  mp.runPython("gc.collect()\nresult['peak_live_heap'] = peak\nresult['live_heap_after'] = gc.mem_alloc()\n" +
    "print(json.dumps(result))\n");
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
process.stdout.write(out.trim().split("\n").pop() + "\n");
