#!/usr/bin/env node
// The npm registry mirror this project is built against carries only some platforms' native
// binaries (@swc/core-darwin-*, @unrs/resolver-binding-win32-* and others answer 404), so npm
// cannot record them in package-lock.json, and `npm ci` then refuses the lockfile as out of sync.
// This drops optionalDependencies edges that have no entry in the lockfile. Run it after any
// `npm install` that changes package-lock.json: `npm run lockfile:prune`.
const fs = require('node:fs');

const file = 'package-lock.json';
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const present = new Set(Object.keys(lock.packages).map((key) => key.replace(/^.*node_modules\//, '')));
let dropped = 0;
for (const pkg of Object.values(lock.packages)) {
  if (!pkg.optionalDependencies) continue;
  for (const name of Object.keys(pkg.optionalDependencies)) {
    if (!present.has(name)) {
      delete pkg.optionalDependencies[name];
      dropped++;
    }
  }
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(`pruned ${dropped} unresolvable optional dependency edge(s) from ${file}\n`);
