#!/usr/bin/env node
// Checks that the README and docs/ still tell the truth about the repository they describe:
//   links    every relative link (and image) leads to a file that exists, and an anchor to a heading in it;
//   scripts  every `npm run <script>` (and `npm test`, `npm start`) names a script of that package.json;
//   paths    every file path in inline code (`src/...`, `test/...`) exists, a glob matching something;
//   env      docs/configuration.md's table lists exactly the environment variables src/ reads.
// Run by src/documentation.spec.ts in `npm test`; by hand, `node scripts/check-docs.js` lists what is stale
// (`--root DIR` checks another tree, `--json` prints the findings as JSON). Exits 1 when anything is.
const fs = require('node:fs');
const path = require('node:path');

/** Outputs that a command writes and git ignores: named by the docs, absent from a clone. */
const GENERATED = new Set(['bench/results/insights.md']);

/** Where a path in inline code is taken as a repository path to check. */
const PATH_ROOTS = /^(src|test|scripts|docker|bench|docs|\.ci)\//;

/** The Markdown files checked: the README and everything under docs/. */
function markdownFiles(root) {
  const files = [];
  if (fs.existsSync(path.join(root, 'README.md'))) files.push('README.md');
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) files.push(rel);
    }
  };
  if (fs.existsSync(path.join(root, 'docs'))) walk('docs');
  return files.sort();
}

/** A file's lines, each with its number and whether it sits in a fenced code block. */
function lines(text) {
  let fence = null;
  return text.split('\n').map((line, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    let inCode = fence !== null;
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === null ? marker : null;
      inCode = true;
    }
    return { line, number: i + 1, inCode };
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (not - or _), spaces to hyphens. */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings (repeats numbered as GitHub does) and <a id|name>. */
function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  for (const { line, inCode } of lines(text)) {
    if (inCode) continue;
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(a[1]);
  }
  return anchors;
}

/** Link targets on a line outside code: inline links and images, and reference definitions. */
function linkTargets(line) {
  const prose = line.replace(/(`+)[\s\S]*?\1/g, '');
  const targets = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
  if (definition) targets.push(definition[1]);
  return targets;
}

function checkLinks(root, files) {
  const findings = [];
  const anchorCache = new Map();
  const anchors = (rel) => {
    if (!anchorCache.has(rel)) anchorCache.set(rel, anchorsOf(fs.readFileSync(path.join(root, rel), 'utf8')));
    return anchorCache.get(rel);
  };
  for (const file of files) {
    for (const { line, number, inCode } of lines(fs.readFileSync(path.join(root, file), 'utf8'))) {
      if (inCode) continue;
      for (const target of linkTargets(line)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, mailto:
        const hash = target.indexOf('#');
        const rawPath = hash === -1 ? target : target.slice(0, hash);
        const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
        const rel = rawPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(rawPath)));
        const where = `${file}:${number}: ${target}`;
        if (rel.startsWith('../') || path.posix.isAbsolute(rel)) {
          findings.push(`${where}: leads out of the repository`);
        } else if (!fs.existsSync(path.join(root, rel))) {
          findings.push(`${where}: no such file`);
        } else if (anchor !== null && rel.endsWith('.md') && !anchors(rel).has(anchor)) {
          findings.push(`${where}: no heading "#${anchor}" in ${rel}`);
        }
      }
    }
  }
  return findings;
}

/** `npm run <name>`, `npm test`, `npm start`…: the script each names, and the package it runs in. */
function npmScripts(line) {
  const found = [];
  // The command runs to the end of its code span, table cell or shell command, or to the next npm.
  for (const m of line.matchAll(/\bnpm\s+(run-script|run|test|start|stop|restart)\b((?:(?!\bnpm\s)[^\n`|;&])*)/g)) {
    const tokens = m[2].trim().split(/\s+/).filter(Boolean);
    let name = m[1] === 'run' || m[1] === 'run-script' ? null : m[1];
    let prefix = null;
    for (let i = 0; i < tokens.length && tokens[i] !== '--' && !tokens[i].startsWith('#'); i++) {
      if (tokens[i] === '--prefix') prefix = tokens[++i] ?? null;
      else if (name === null && !tokens[i].startsWith('-')) name = tokens[i];
    }
    name = name?.replace(/[:.,;)]+$/, '');
    if (name && /^[\w:.*-]+$/.test(name)) found.push({ name, prefix });
  }
  return found;
}

function checkScripts(root, files) {
  const findings = [];
  const scriptsOf = (dir) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')).scripts ?? {};
    } catch {
      return null;
    }
  };
  for (const file of files) {
    for (const { line, number } of lines(fs.readFileSync(path.join(root, file), 'utf8'))) {
      for (const { name, prefix } of npmScripts(line)) {
        const scripts = scriptsOf(prefix ?? '.');
        const pkg = prefix ? `${prefix}/package.json` : 'package.json';
        if (scripts === null) {
          findings.push(`${file}:${number}: npm ${name}: no ${pkg}`);
          continue;
        }
        const pattern = new RegExp(`^${name.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
        if (!Object.keys(scripts).some((s) => pattern.test(s))) findings.push(`${file}:${number}: npm run ${name}: no such script in ${pkg}`);
      }
    }
  }
  return findings;
}

/** Every file under `dir` (repository-relative), for globs. */
function filesUnder(root, dir) {
  const out = [];
  const walk = (rel) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    if (!fs.statSync(abs).isDirectory()) return void out.push(rel);
    for (const entry of fs.readdirSync(abs)) if (entry !== 'node_modules') walk(`${rel}/${entry}`);
  };
  walk(dir);
  return out;
}

function globRegExp(glob) {
  const body = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

function checkPaths(root, files) {
  const findings = [];
  for (const file of files) {
    for (const { line, number, inCode } of lines(fs.readFileSync(path.join(root, file), 'utf8'))) {
      if (inCode) continue;
      for (const m of line.matchAll(/`([^`\s]+)`/g)) {
        const p = m[1];
        // <tag>, {name}, …: a placeholder the reader fills in, not a file.
        if (!PATH_ROOTS.test(p) || /[<>{}…]/.test(p) || GENERATED.has(p)) continue;
        const ok = p.includes('*')
          ? filesUnder(root, p.slice(0, p.indexOf('*')).replace(/\/[^/]*$/, '')).some((f) => globRegExp(p).test(f))
          : fs.existsSync(path.join(root, p));
        if (!ok) findings.push(`${file}:${number}: \`${p}\`: ${p.includes('*') ? 'matches no file' : 'no such file'}`);
      }
    }
  }
  return findings;
}

/** The variables docs/configuration.md documents: the names in the first cell of each table row. */
function documentedVariables(root) {
  const file = path.join(root, 'docs', 'configuration.md');
  if (!fs.existsSync(file)) return null;
  const names = new Set();
  for (const { line, inCode } of lines(fs.readFileSync(file, 'utf8'))) {
    if (inCode || !line.startsWith('|')) continue;
    const first = line.replace(/\\\|/g, '').split('|')[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]);
  }
  return names;
}

/**
 * The variables src/ reads (specs aside), by the ways it reads them: `env.NAME` (process.env too),
 * `env['NAME']`, a reader given the environment and the name (`readInt(env, 'NAME', …)`), `env[NAME]`
 * and `reader(env, NAME)` where NAME is a constant of the file, and ConfigService's `get('NAME')`. Name → first file reading it.
 */
function readVariables(root) {
  const names = new Map();
  const add = (name, file) => names.has(name) || names.set(name, file);
  for (const file of filesUnder(root, 'src')) {
    if (!file.endsWith('.ts') || file.endsWith('.spec.ts') || file.endsWith('.d.ts')) continue;
    const code = fs.readFileSync(path.join(root, file), 'utf8');
    const constants = new Map([...code.matchAll(/\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*['"]([A-Z][A-Z0-9_]*)['"]/g)].map((m) => [m[1], m[2]]));
    for (const m of code.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b(?!\s*=[^=])/g)) add(m[1], file);
    for (const m of code.matchAll(/\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g)) add(m[1], file);
    for (const m of code.matchAll(/\(\s*env\s*,\s*['"]([A-Z][A-Z0-9_]*)['"]/g)) add(m[1], file);
    for (const m of code.matchAll(/\benv\[\s*([A-Za-z_$][\w$]*)\s*\]/g)) if (constants.has(m[1])) add(constants.get(m[1]), file);
    for (const m of code.matchAll(/\(\s*env\s*,\s*([A-Za-z_$][\w$]*)\s*[,)]/g)) if (constants.has(m[1])) add(constants.get(m[1]), file);
    for (const m of code.matchAll(/\.get(?:OrThrow)?(?:<[^>()]*>)?\(\s*['"]([A-Z][A-Z0-9_]*)['"]/g)) add(m[1], file);
  }
  return names;
}

function checkEnv(root) {
  const documented = documentedVariables(root);
  if (documented === null) return { documentedNotRead: [], readNotDocumented: ['docs/configuration.md is missing'] };
  const read = readVariables(root);
  return {
    documentedNotRead: [...documented].filter((n) => !read.has(n)).sort(),
    readNotDocumented: [...read].filter(([n]) => !documented.has(n)).map(([n, file]) => `${n} (${file})`).sort(),
  };
}

/** Everything stale in the documentation of the tree at `root`. */
function checkDocs(root) {
  const files = markdownFiles(root);
  const env = checkEnv(root);
  return {
    links: checkLinks(root, files),
    scripts: checkScripts(root, files),
    paths: checkPaths(root, files),
    envDocumentedNotRead: env.documentedNotRead,
    envReadNotDocumented: env.readNotDocumented,
  };
}

module.exports = { checkDocs, slug, npmScripts, documentedVariables, readVariables };

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = path.resolve(at === -1 ? path.join(__dirname, '..') : args[at + 1]);
  const findings = checkDocs(root);
  const stale = Object.values(findings).flat();
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
  } else {
    const titles = {
      links: 'Links to files or headings that do not exist',
      scripts: 'npm scripts that package.json does not have',
      paths: 'Paths that do not exist',
      envDocumentedNotRead: 'Variables in docs/configuration.md that src/ does not read',
      envReadNotDocumented: 'Variables src/ reads that docs/configuration.md does not list',
    };
    for (const [key, items] of Object.entries(findings)) {
      if (items.length) process.stdout.write(`${titles[key]}:\n${items.map((i) => `  ${i}\n`).join('')}`);
    }
    process.stdout.write(stale.length ? `${stale.length} stale\n` : 'The documentation checks out.\n');
  }
  process.exitCode = stale.length ? 1 : 0;
}
