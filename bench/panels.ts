/**
 * The open study link under load (npm run bench:panels, after npm run build; MySQL/MariaDB in
 * DATABASE_URL, ideally a database of its own): the built service in a process of its own, panel
 * arrivals at a fixed rate (open loop: each sent on its schedule, whatever the answers before it) at one
 * open link with a screener and a quota, while interviews run on other links of the same interview.
 * Reports the rate reached, the arrivals' latency, the interviews' answer latency meanwhile, and whether
 * the quota held exactly.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const RATE = Number(process.env.PANELS_RATE ?? 200);
const SECONDS = Number(process.env.PANELS_SECONDS ?? 15);
const QUOTA = 100;
const INTERVIEWS = 20;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url || !/^(mysql|mariadb):\/\//i.test(url)) throw new Error('npm run bench:panels needs DATABASE_URL=mysql://… or mariadb://… (a database of its own)');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), INVITE_BASE_URL: `${base}/i`, ROOM_RATE_LIMIT_MAX: '1000000', ROOM_LINK_RATE_LIMIT_MAX: '1000000', RATE_LIMIT_MAX: '1000000', LOG_LEVEL: 'warn' };
  // Its output goes to ours: a start-up that fails says why.
  const server: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 300) throw new Error('the service did not answer /health within 60 s');
      await sleep(200);
    }
    const token = /irs_[A-Za-z0-9_-]+/.exec(execFileSync(process.execPath, [join(ROOT, 'dist', 'src', 'auth', 'token.cli.js'), 'create', '--admin', '--name', 'bench panels'], { cwd: ROOT, env, encoding: 'utf8' }))![0];
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as { result: any };
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.result;
    };
    const { productID } = await api('POST', '/v1/products/addOne', { name: 'Bench kits', orgID: `bench-${Date.now()}` });
    const { interviewID } = await api('POST', '/v1/interviews/addOne', { productID, interviewName: 'Panel bench', guidelines: '1. What made you try it?\n2. What would you change?\n3. Who else uses it?' });
    const recruitment = await api('POST', '/v1/interviews/setRecruitment', {
      interviewID,
      open: true,
      screener: [{ screenerID: 'freq', question: 'How often?', multiple: false, options: [{ option: 'Weekly', qualifies: true }, { option: 'Monthly', qualifies: true }, { option: 'Never', qualifies: false }] }],
      quotas: [{ quotaID: 'weekly', screenerID: 'freq', options: ['Weekly'], max: QUOTA }],
      redirects: { overquota: 'https://panel.example/full?pid={pid}', screenout: 'https://panel.example/out?pid={pid}' },
    });
    const openPath = new URL(recruitment.openURL).pathname;

    // Interviews running meanwhile: link invites started and answered every second or so.
    const links: string[] = (await api('GET', `/v1/invites/createInvites?interviewID=${interviewID}&count=${INTERVIEWS}`)).map((u: string) => u.slice(u.lastIndexOf('/') + 1));
    const replyLatency: number[] = [];
    let running = true;
    const interviews = links.map(async (linkID, k) => {
      await fetch(`${base}/i/${linkID}/start`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: `P ${k}`, email: `p${k}@bench.example`, consent: true }) });
      for (let n = 0; running; n++) {
        const started = performance.now();
        const res = await fetch(`${base}/i/${linkID}/reply`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ content: `Answer ${n} of person ${k}: it saves me time on busy weekday evenings.` }) });
        await res.arrayBuffer();
        if (res.status !== 200) break;
        replyLatency.push(performance.now() - started);
        await sleep(1000);
      }
    });

    // Arrivals: open loop at RATE a second, a third each Weekly, Monthly and Never.
    const total = RATE * SECONDS;
    const latency: number[] = [];
    const outcome: Record<string, number> = {};
    const t0 = performance.now();
    const sent: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const answer = ['Weekly', 'Monthly', 'Never'][i % 3];
      sent.push(
        (async () => {
          const started = performance.now();
          try {
            const res = await fetch(`${base}${openPath}?pid=bench-${i}&irs_screened=1&irs_q_freq=${answer}`, { redirect: 'manual' });
            await res.arrayBuffer();
            latency.push(performance.now() - started);
            const where = res.headers.get('location') ?? '';
            const kind = res.status !== 303 ? `status ${res.status}` : where.includes('/i/') ? `room (${answer})` : where.includes('/full') ? 'overquota' : where.includes('/out') ? 'screenedout' : 'other';
            outcome[kind] = (outcome[kind] ?? 0) + 1;
          } catch {
            outcome.error = (outcome.error ?? 0) + 1;
          }
        })(),
      );
    }
    const sentIn = (performance.now() - t0) / 1000;
    await Promise.all(sent);
    const doneIn = (performance.now() - t0) / 1000;
    running = false;
    await Promise.all(interviews);

    const invites: { status: string; segment: string | null; source: string }[] = await api('GET', `/v1/invites/getList?interviewID=${interviewID}`);
    const weeklyHolding = invites.filter((i) => i.source === 'open' && i.segment === 'Weekly' && ['pending', 'started', 'completed'].includes(i.status)).length;
    latency.sort((a, b) => a - b);
    replyLatency.sort((a, b) => a - b);
    const lines = [
      `# Open study link: ${RATE} arrivals a second for ${SECONDS} s (npm run bench:panels)`,
      '',
      `- arrivals: ${total}, sent in ${sentIn.toFixed(1)} s (${(total / sentIn).toFixed(0)}/s), all answered in ${doneIn.toFixed(1)} s`,
      `- arrival latency: p50 ${pct(latency, 50).toFixed(1)} ms, p95 ${pct(latency, 95).toFixed(1)} ms, p99 ${pct(latency, 99).toFixed(1)} ms, max ${latency[latency.length - 1].toFixed(1)} ms`,
      `- outcomes: ${Object.entries(outcome).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `- quota "weekly" (max ${QUOTA}): ${weeklyHolding} open invites of Weekly hold a place ${weeklyHolding === QUOTA ? '(exact)' : '(NOT EXACT)'}`,
      `- ${INTERVIEWS} interviews answering meanwhile: ${replyLatency.length} answers, p50 ${pct(replyLatency, 50).toFixed(1)} ms, p95 ${pct(replyLatency, 95).toFixed(1)} ms`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
