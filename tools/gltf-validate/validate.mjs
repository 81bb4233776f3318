// Runs the Khronos glTF-Validator on .glb / .gltf files (or every such file
// in the folders given) and prints one line per file and a summary of every
// issue code. Exit status: 0 when no file has an error, 1 otherwise, 2 on
// usage errors.
//
//   node tools/gltf-validate/validate.mjs [--verbose] FILE_OR_DIR...
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const SEVERITY = ['error', 'warning', 'info', 'hint'];

async function filesOf(args) {
  const out = [];
  for (const arg of args) {
    const s = await stat(arg);
    if (s.isDirectory()) {
      for (const name of (await readdir(arg)).sort()) {
        if (/\.(glb|gltf)$/i.test(name)) out.push(path.join(arg, name));
      }
    } else {
      out.push(arg);
    }
  }
  return out;
}

async function validate(file) {
  const bytes = new Uint8Array(await readFile(file));
  return validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: async (uri) =>
      new Uint8Array(await readFile(path.join(path.dirname(file), decodeURIComponent(uri)))),
  });
}

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const inputs = args.filter((a) => a !== '--verbose');
if (inputs.length === 0) {
  console.error('usage: validate.mjs [--verbose] FILE_OR_DIR...');
  process.exit(2);
}
const files = await filesOf(inputs);
const totals = { error: 0, warning: 0, info: 0, hint: 0 };
const byCode = new Map();
let failed = 0;
for (const file of files) {
  let report;
  try {
    report = await validate(file);
  } catch (e) {
    console.log(`${file}: validator failed: ${e}`);
    failed += 1;
    continue;
  }
  const issues = report.issues;
  const counts = { error: issues.numErrors, warning: issues.numWarnings, info: issues.numInfos, hint: issues.numHints };
  for (const k of Object.keys(totals)) totals[k] += counts[k];
  for (const m of issues.messages) {
    const key = `${SEVERITY[m.severity]} ${m.code}`;
    const entry = byCode.get(key) ?? { count: 0, files: new Set(), example: m.message };
    entry.count += 1;
    entry.files.add(path.basename(file));
    byCode.set(key, entry);
    if (verbose || m.severity === 0) {
      console.log(`  ${SEVERITY[m.severity]} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
    }
  }
  if (counts.error > 0) failed += 1;
  console.log(`${file}: ${counts.error} errors, ${counts.warning} warnings, ${counts.info} infos, ${counts.hint} hints`);
}
console.log(`\nglTF-Validator ${validator.version()}: ${files.length} files, ${failed} with errors; ` +
  `${totals.error} errors, ${totals.warning} warnings, ${totals.info} infos, ${totals.hint} hints`);
for (const [key, e] of [...byCode.entries()].sort()) {
  console.log(`  ${key}: ${e.count} in ${e.files.size} files (e.g. ${e.example})`);
}
process.exit(failed > 0 || files.length === 0 ? 1 : 0);
