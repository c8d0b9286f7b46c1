// Runs the shared tests under MicroPython's WebAssembly port: copies the core
// and the tests into its in-memory file system, then runs mp_run.py there.
// Usage: node tests/wasm_run.mjs LIB_DIR TEST_DIR LABEL
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [libDir, testDir, label] = process.argv.slice(2);
if (!label) {
  console.error("usage: node tests/wasm_run.mjs LIB_DIR TEST_DIR LABEL");
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));

const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copyTree(src, dst) {
  mp.FS.mkdir(dst);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") copyTree(from, dst + "/" + entry.name);
    } else if (entry.name.endsWith(".py")) {
      mp.FS.writeFile(dst + "/" + entry.name, fs.readFileSync(from));
    }
  }
}

copyTree(path.resolve(libDir), "/lib");
copyTree(path.resolve(testDir), "/tests");
mp.FS.writeFile("/mp_run.py", fs.readFileSync(path.join(here, "mp_run.py")));
try {
  mp.runPython(
    "import sys\nsys.path.insert(0, '/')\nimport mp_run\n" +
      `failed = mp_run.main(${JSON.stringify(label)}, '/tests', ['/lib'])\n`,
  );
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
process.exit(mp.globals.get("failed") ? 1 : 0);
