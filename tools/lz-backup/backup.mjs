// Writes Blockbench-style `<lz>` backups: for each .bbmodel given, the file
// `<out>/<name>` holding "<lz>" + lzutf8.compress(text, StorageBinaryString),
// as Blockbench's Codecs.project.compile({compressed: true}) writes it.
//
// usage: node backup.mjs OUT_DIR FILE...
// Prints one line per file: the backup's path.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const LZUTF8 = require("lzutf8");

const [out, ...files] = process.argv.slice(2);
if (!out || files.length === 0) {
  console.error("usage: node backup.mjs OUT_DIR FILE...");
  process.exit(2);
}
for (const file of files) {
  // Blockbench compresses the JSON string it compiled; the file's own text
  // (a BOM included, if any) stands for it here.
  const text = readFileSync(file, "utf8");
  const packed = "<lz>" + LZUTF8.compress(text, { outputEncoding: "StorageBinaryString" });
  // Blockbench's own check: autoParseJSON reads it back the same way.
  const back = LZUTF8.decompress(packed.substr(4), { inputEncoding: "StorageBinaryString" });
  if (back !== text) {
    console.error(`${file}: lzutf8 does not read its own backup back`);
    process.exit(1);
  }
  const target = join(out, basename(file));
  writeFileSync(target, packed, "utf8");
  console.log(target);
}
// lzutf8 leaves a handle open that keeps Node's event loop alive after the
// work is done: end the process explicitly.
process.exit(0);
