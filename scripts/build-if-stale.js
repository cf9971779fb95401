#!/usr/bin/env node
// Builds (npm run build) only when a source changed since the last build, so that the command-line
// tools (npm run token, seed, migration:*, bench) start in about a second instead of rebuilding the
// whole project every time. `--stamp` (the build's postbuild step) records that dist/ is up to date.
// A source counts as changed when it, or a folder holding it (a file added, removed or renamed), is
// newer than the stamp.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const INPUTS = ['src', 'bench', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'];
const SKIPPED = new Set(['node_modules', 'results']);

if (process.argv.includes('--stamp')) {
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}

/** The newest modification time under `file` (itself included), in ms. */
function newest(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  let latest = stat.mtimeMs;
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(file)) {
      if (!SKIPPED.has(entry)) latest = Math.max(latest, newest(path.join(file, entry)));
    }
  }
  return latest;
}

function builtAt() {
  try {
    return fs.statSync(stamp).mtimeMs;
  } catch {
    return -1;
  }
}

const built = builtAt();
const changed = built < 0 || INPUTS.some((input) => newest(path.join(root, input)) > built);
if (changed) {
  process.stderr.write(built < 0 ? 'Building (first run)...\n' : 'Sources changed since the last build: building...\n');
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
