/**
 * Lists at scale: an interview of BIG_LIST_INVITES invites, each with a BIG_LIST_TURNS-turn transcript,
 * listed unpaged by the service (invites/getList?interviewID=). The service writes such a list to the
 * response as it reads it from the database, a chunk at a time; what is measured is the time to the
 * first byte, the whole answer's time and size, and how far the process's resident memory rises above
 * what it was just before (target: 64 MB).
 */
import { request } from 'node:http';
import type { Pool } from 'mysql2/promise';
import { sqlDate } from '../src/database/column-types';
import { newUrlSecrets } from '../src/common/ids';
import { inTransaction } from './baseline/transaction';
import { Server, RssSampler, rssMb, waitQuiet } from './processes';

export const BIG_LIST_INVITES = 20_000;
export const BIG_LIST_TURNS = 20;
export const BIG_LIST_RSS_TARGET_MB = 64;

/** A transcript of realistic length: the consent note, then questions and answers of a few sentences. */
function transcript(i: number): string {
  const turns = [{ role: 'system', content: `Consent given 2026-11-20T10:00:00.000Z: This interview is conducted by an automated interviewer.` }];
  for (let t = 1; turns.length < BIG_LIST_TURNS; t++) {
    turns.push({ role: 'interviewer', content: `Question ${t}: how did the step ${t} of your work with the product go, and what would you change about it?` });
    turns.push({
      role: 'interviewee',
      content: `Interviewee ${i}, answer ${t}: it mostly went well. The import was slow the first time and I was not sure my data had arrived, but the team helped, and by the second week it was part of our Monday planning.`,
    });
  }
  return JSON.stringify(turns.slice(0, BIG_LIST_TURNS));
}

/** The interview's invites, completed, with their transcripts: straight SQL, as the room would have left them. */
export async function seedBigList(pool: Pool, interview: { interviewID: string; productID: string; orgID: string }): Promise<void> {
  const now = new Date();
  const at = sqlDate(now);
  const expires = sqlDate(new Date(now.getTime() + 365 * 86_400_000));
  const user = JSON.stringify({ email: 'bench@example.com', name: 'Bench Interviewee', occupation: 'Analyst' });
  const links = newUrlSecrets(BIG_LIST_INVITES);
  for (let start = 0; start < links.length; start += 500) {
    const chunk = links.slice(start, start + 500);
    const params: unknown[] = [];
    for (const [j, linkID] of chunk.entries()) params.push(linkID, interview.interviewID, interview.productID, interview.orgID, user, at, at, at, expires, transcript(start + j));
    await inTransaction(pool, (conn) =>
      conn.query(
        'INSERT INTO invites (link_id, interview_id, product_id, org_id, user_info, status, created_at, updated_at, completed_on, expires_on, conversation) VALUES ' +
          chunk.map(() => "(?, ?, ?, ?, ?, 'completed', ?, ?, ?, ?, ?)").join(', '),
        params,
      ),
    );
  }
}

export interface BigListRun {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
  rows: number;
  rssBeforeMb: number;
  rssGrowthMb: number;
}

function getStreamed(port: number, path: string, token: string): Promise<{ ttfbMs: number; totalMs: number; body: Buffer; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let ttfbMs = 0;
    const req = request({ host: '127.0.0.1', port, path, headers: { Authorization: `Bearer ${token}` }, agent: false, timeout: 600_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (chunks.length === 0) ttfbMs = performance.now() - started;
        chunks.push(c);
      });
      res.on('end', () => resolve({ ttfbMs, totalMs: performance.now() - started, body: Buffer.concat(chunks), status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('the big list timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** One unpaged listing of the big interview's invites by the service. */
export async function measureBigList(server: Server, interviewID: string, token: string): Promise<BigListRun> {
  await waitQuiet(server);
  const rssBeforeMb = rssMb(server.child.pid!);
  const sampler = new RssSampler(server.child.pid!);
  const reply = await getStreamed(server.port, `/v1/invites/getList?interviewID=${encodeURIComponent(interviewID)}`, token);
  const peakMb = sampler.stop();
  if (reply.status !== 200) throw new Error(`invites/getList of the big interview answered ${reply.status}: ${reply.body.subarray(0, 300).toString()}`);
  const rows = (JSON.parse(reply.body.toString('utf8')) as { result: unknown[] }).result.length;
  if (rows !== BIG_LIST_INVITES) throw new Error(`invites/getList of the big interview gave ${rows} rows, expected ${BIG_LIST_INVITES}`);
  return { ttfbMs: reply.ttfbMs, totalMs: reply.totalMs, bytes: reply.body.length, rows, rssBeforeMb, rssGrowthMb: Math.max(0, peakMb - rssBeforeMb) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const num = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The report's section: medians over the rounds, and the memory target. */
export function bigListSection(runs: BigListRun[]): { title: string; lines: string[]; verdicts: string[] } {
  const m = (f: (r: BigListRun) => number) => median(runs.map(f));
  const growth = Math.max(...runs.map((r) => r.rssGrowthMb));
  const mb = m((r) => r.bytes) / 2 ** 20;
  return {
    title: 'Lists at scale (the service alone)',
    lines: [
      `invites/getList of one interview with ${num(BIG_LIST_INVITES)} invites of ${BIG_LIST_TURNS}-turn transcripts, unpaged, one request at a time, ${runs.length} round${runs.length > 1 ? 's' : ''} (medians; memory: the highest):`,
      '',
      '| first byte | whole answer | size | throughput | RSS before | RSS growth (highest) | target |',
      '|--:|--:|--:|--:|--:|--:|---|',
      `| ${num(m((r) => r.ttfbMs))} ms | ${num(m((r) => r.totalMs))} ms | ${num(mb, 1)} MB | ${num((mb * 1000) / m((r) => r.totalMs), 1)} MB/s | ${num(m((r) => r.rssBeforeMb))} MB | ${num(growth, 1)} MB | ≤ ${BIG_LIST_RSS_TARGET_MB} MB |`,
      '',
      'RSS growth = the highest VmRSS sampled every 100 ms while the answer was written, minus VmRSS just before the request.',
    ],
    verdicts: [
      `invites/getList of ${num(BIG_LIST_INVITES)} ${BIG_LIST_TURNS}-turn transcripts, unpaged: ${growth <= BIG_LIST_RSS_TARGET_MB ? 'met' : 'NOT met'}: RSS grew ${num(growth, 1)} MB (target ≤ ${BIG_LIST_RSS_TARGET_MB}); first byte after ${num(m((r) => r.ttfbMs))} ms`,
    ],
  };
}
