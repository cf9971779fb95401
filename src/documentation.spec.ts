import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** What scripts/check-docs.js finds stale, by kind (see the script's head comment). */
interface Findings {
  links: string[];
  scripts: string[];
  paths: string[];
  envDocumentedNotRead: string[];
  envReadNotDocumented: string[];
}

// A plain CommonJS script, so that it also runs by hand (node scripts/check-docs.js) without a build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkDocs, slug } = require('../scripts/check-docs.js') as { checkDocs: (root: string) => Findings; slug: (heading: string) => string };

const ROOT = resolve(__dirname, '..');
const SCRIPT = join(ROOT, 'scripts', 'check-docs.js');

describe('the documentation (README.md and docs/)', () => {
  const findings = checkDocs(ROOT);

  it('links only to files and headings that exist', () => {
    expect(findings.links).toEqual([]);
  });

  it('names only npm scripts that package.json has', () => {
    expect(findings.scripts).toEqual([]);
  });

  it('names only source, test and other repository paths that exist', () => {
    expect(findings.paths).toEqual([]);
  });

  it('documents in docs/configuration.md only variables the service reads', () => {
    expect(findings.envDocumentedNotRead).toEqual([]);
  });

  it('documents in docs/configuration.md every variable the service reads', () => {
    expect(findings.envReadNotDocumented).toEqual([]);
  });
});

describe('scripts/check-docs.js', () => {
  let root: string;
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'irs-docs-'));
    write('package.json', JSON.stringify({ scripts: { start: 'node main.js', test: 'jest', 'migration:run': 'x', 'migration:revert': 'x' } }));
    write('docs/guide.md', '# Guide\n\n## The codes: `getCodes` and more\n\n## Repeated\n\n## Repeated\n\n<a id="custom"></a>\n');
    write('src/thing.config.ts', "const NAME = 'VIA_CONSTANT';\nreadInt(env, 'READ_BY_READER', 1, 0, 2);\nenv.READ_BY_PROPERTY;\nprocess.env.READ_BY_PROCESS;\nenv[NAME];\n");
    write('src/thing.config.spec.ts', "env.ONLY_IN_A_SPEC;\n");
    write('src/tool.ts', "process.env.WRITTEN_NOT_READ = 'x';\n");
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds links to missing files and headings, and accepts those that exist', () => {
    write(
      'README.md',
      [
        '# Title',
        '[ok](docs/guide.md) [ok](docs/guide.md#the-codes-getcodes-and-more) [ok](docs/guide.md#repeated-1) [ok](docs/guide.md#custom)',
        '[ok](#title) [ok](https://example.com/x.md) ![ok](docs/guide.md)',
        '[gone](docs/gone.md) [bad anchor](docs/guide.md#nowhere) ![gone](docs/gone.png) [bad](#no-such-heading)',
        '`[in code](docs/gone.md)`',
        '```',
        '[in a fence](docs/gone.md)',
        '```',
      ].join('\n'),
    );
    write('docs/other.md', '# Other\n\n[up](../README.md#title) [out](../../outside.md) [up](../README.md#nope)\n');
    expect(checkDocs(root).links).toEqual([
      'README.md:4: docs/gone.md: no such file',
      'README.md:4: docs/guide.md#nowhere: no heading "#nowhere" in docs/guide.md',
      'README.md:4: docs/gone.png: no such file',
      'README.md:4: #no-such-heading: no heading "#no-such-heading" in README.md',
      'docs/other.md:3: ../../outside.md: leads out of the repository',
      'docs/other.md:3: ../README.md#nope: no heading "#nope" in README.md',
    ]);
  });

  it('finds npm scripts package.json does not have, in prose and in code', () => {
    write(
      'README.md',
      [
        '`npm install && npm start`, `npm test`, `npm run -s migration:run`, `npm run migration:*`, `npm run`',
        '```bash',
        'npm run seed -- --products 10   # no such script',
        'npm run build-release --prefix vendor/lib && npm run lint',
        '```',
        '`npm run token`: the CLI',
      ].join('\n'),
    );
    write('vendor/lib/package.json', JSON.stringify({ scripts: { 'build-release': 'make' } }));
    expect(checkDocs(root).scripts).toEqual([
      'README.md:3: npm run seed: no such script in package.json',
      'README.md:4: npm run lint: no such script in package.json',
      'README.md:6: npm run token: no such script in package.json',
    ]);
  });

  it('finds repository paths in inline code that do not exist, globs included', () => {
    write('test/room.e2e-spec.ts', '');
    write(
      'README.md',
      '`src/thing.config.ts` `test/room.e2e-spec.ts` `src/*.config.ts` `src/` `src/<feature>/<name>.ts`\n`test/gone.e2e-spec.ts` `src/**/*.entity.ts` `other/not-checked.ts`\n',
    );
    expect(checkDocs(root).paths).toEqual(['README.md:2: `test/gone.e2e-spec.ts`: no such file', 'README.md:2: `src/**/*.entity.ts`: matches no file']);
  });

  it("compares docs/configuration.md's table with the variables src/ reads, both ways", () => {
    write(
      'docs/configuration.md',
      [
        '# Configuration',
        '',
        'Prose naming `NOT_IN_THE_TABLE` is not the table.',
        '',
        '| Variable | Default | Meaning |',
        '|---|---|---|',
        '| **A group** | | |',
        '| `READ_BY_READER` / `VIA_CONSTANT` | `1` | Mentions `MENTIONED_IN_A_MEANING`, which is not documented by it. |',
        '| `READ_BY_PROPERTY` | | |',
        '| `DOCUMENTED_ONLY` | | |',
      ].join('\n'),
    );
    const found = checkDocs(root);
    expect(found.envDocumentedNotRead).toEqual(['DOCUMENTED_ONLY']);
    expect(found.envReadNotDocumented).toEqual(['READ_BY_PROCESS (src/thing.config.ts)']);
  });

  it('makes GitHub\'s anchors', () => {
    expect(['MySQL / MariaDB', "Interviewees' data", 'Visibility: who sees what', 'The `room` [here](x.md)'].map(slug)).toEqual([
      'mysql--mariadb',
      'interviewees-data',
      'visibility-who-sees-what',
      'the-room-here',
    ]);
  });

  it('runs from the command line: exit 1 with what is stale, exit 0 when nothing is', () => {
    write('README.md', '[gone](docs/gone.md)\n');
    write('docs/configuration.md', '| Variable |\n|---|\n| `READ_BY_READER` `VIA_CONSTANT` `READ_BY_PROPERTY` `READ_BY_PROCESS` |\n');
    const stale = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
    expect({ status: stale.status, stdout: stale.stdout }).toEqual({
      status: 1,
      stdout: 'Links to files or headings that do not exist:\n  README.md:1: docs/gone.md: no such file\n1 stale\n',
    });
    write('README.md', '[guide](docs/guide.md)\n');
    const clean = spawnSync(process.execPath, [SCRIPT, '--root', root, '--json'], { encoding: 'utf8' });
    expect({ status: clean.status, findings: JSON.parse(clean.stdout) as Findings }).toEqual({
      status: 0,
      findings: { links: [], scripts: [], paths: [], envDocumentedNotRead: [], envReadNotDocumented: [] },
    });
  });
});
