/**
 * What the benchmark drives: the operations measured under load (with their targets), the sizes
 * timed sequentially for growth, and the check that every server answers all of them alike.
 */
import type { Dataset } from './dataset';
import { Server, http, serves } from './processes';

/**
 * A target for the service against one of the other servers (by name): req/s at least `minRatio`
 * of that server's, or time per request at most `maxTime` times its own.
 */
export interface Target {
  against: 'textbook' | 'floor' | 'nest-bare';
  minRatio?: number;
  maxTime?: number;
}

export interface Op {
  key: string;
  label: string;
  method: 'GET' | 'POST';
  path: (d: Dataset) => string;
  body?: (d: Dataset) => string;
  /**
   * Many targets instead of `path`, spread over the load generator's connections: each connection
   * cycles through its own, so no two requests to one target are ever in flight together. In the
   * parity check, server i answers on paths[i].
   */
  paths?: (d: Dataset) => string[];
  /** No Authorization header: the interview room's credential is its link. */
  public?: boolean;
  /** Under load, `[<n>]` in the body becomes a number no other request of the run had (LoadConfig.uniqueBodies); the parity check sends the body as it is. */
  uniqueBodies?: boolean;
  /** The rows it changes are put back (resetRoom) after the parity check and after every measurement. */
  resets?: boolean;
  write?: boolean;
  /** None: no target yet (the report shows "–", and no p99 target applies). */
  targets: Target[];
  check?: (result: unknown) => string | undefined;
}

/**
 * For every operation with a target: the service's p99 latency at most this many times textbook Nest's.
 * The service does more on every request than textbook Nest (rate limits, request logs, security
 * headers, idempotency), so the targets are parity, not a lead, where one row is read or written.
 */
export const P99_TARGET = { against: 'textbook', maxRatio: 1.1 } as const;
/** The yardstick on single reads and writes: the service's req/s at least textbook Nest's. */
const TEXTBOOK: Target = { against: 'textbook', minRatio: 1.0 };
/** On lists of 1,000 rows, where rows dominate: the service's req/s at least this many times textbook Nest's. */
const TEXTBOOK_LIST: Target = { against: 'textbook', minRatio: 1.2 };
/** For the growth cases: µs/row may rise at most this much from any size to a larger one. */
export const GROWTH_TARGET = 1.5;
/**
 * Against an earlier build of the service (--compare; issue 30: "no figure worse than 5% below today's"):
 * every figure measured on both within 5%: req/s at least 0.95 × the earlier build's, p99 and the growth
 * cases' time per request at most 1.05 × its own.
 */
export const EARLIER_TARGET = 0.05;

const q = encodeURIComponent;

/**
 * room/reply's answer: 18 words, over the built-in agent's 8-word probe threshold, so no answer is
 * probed. Under load each request's `[<n>]` becomes a number of its own (uniqueBodies), so that no two
 * answers are equal, as in a real interview: the same answer every time raised duplicate_answer on each
 * invite's first reply, after which the flag skips the lookup, and the bench measured a path few
 * interviews take.
 */
export const ROOM_ANSWER = 'I tried it on Monday with my team (run [<n>]), and it mostly went well, apart from the export.';
export const isArrayOf = (n: number) => (r: unknown) => (Array.isArray(r) && r.length === n ? undefined : `expected ${n} items, got ${Array.isArray(r) ? r.length : typeof r}`);

export const OPS: Op[] = [
  {
    key: 'products/getOne',
    label: 'products/getOne',
    method: 'GET',
    path: (d) => `/v1/products/getOne?productID=${q(d.productID)}`,
    targets: [TEXTBOOK],
  },
  {
    key: 'invites/getOne',
    label: 'invites/getOne (20-turn transcript)',
    method: 'GET',
    path: (d) => `/v1/invites/getOne?linkID=${q(d.linkID)}`,
    targets: [TEXTBOOK],
    check: (r) => ((r as { conversation?: unknown[] }).conversation?.length === 20 ? undefined : 'expected a 20-turn transcript'),
  },
  {
    key: 'products/getList',
    label: 'products/getList (1,000 rows)',
    method: 'GET',
    path: (d) => `/v1/products/getList?orgID=${q(d.orgs['1000'])}`,
    targets: [TEXTBOOK_LIST],
    check: isArrayOf(1000),
  },
  {
    key: 'invites/getList',
    label: 'invites/getList (1,000 invites)',
    method: 'GET',
    path: (d) => `/v1/invites/getList?interviewID=${q(d.readInterviewID)}`,
    targets: [],
    check: isArrayOf(1000),
  },
  {
    key: 'products/addOne',
    label: 'products/addOne',
    method: 'POST',
    path: () => '/v1/products/addOne',
    body: (d) =>
      JSON.stringify({
        name: 'Bench Notes',
        desc: 'A product written by the benchmark; deleted after each measurement.',
        orgID: d.writeOrgID,
        url: 'https://products.example/bench',
        imageLink: 'https://images.example/bench.png',
      }),
    write: true,
    targets: [TEXTBOOK],
    check: (r) => (typeof (r as { productID?: unknown }).productID === 'string' ? undefined : 'expected {productID}'),
  },
  {
    key: 'invites/createInvites',
    label: 'createInvites (count=1000)',
    method: 'GET',
    path: (d) => `/v1/invites/createInvites?interviewID=${q(d.writeInterviewID)}&count=1000`,
    write: true,
    targets: [],
    check: isArrayOf(1000),
  },
  {
    key: 'room/reply',
    label: 'room/reply (built-in agent)',
    method: 'POST',
    path: (d) => `/i/${d.roomLinks[0]}/reply`,
    paths: (d) => d.roomLinks.map((linkID) => `/i/${linkID}/reply`),
    body: () => JSON.stringify({ content: ROOM_ANSWER }),
    uniqueBodies: true,
    public: true,
    resets: true,
    targets: [],
    check: (r) => {
      const { status, turns } = r as { status?: unknown; turns?: { role?: unknown }[] };
      return status === 'started' && turns?.length === 2 && turns[0].role === 'interviewee' && turns[1].role === 'interviewer'
        ? undefined
        : 'expected {status: "started", turns: [the answer, the next question]}';
    },
  },
];

export interface ScaleCase {
  key: string;
  rows: number;
  path: (d: Dataset) => string;
  write?: boolean;
}

export const SCALING: ScaleCase[] = [
  ...(['100', '1000', '10000'] as const).map((n) => ({ key: 'products/getList', rows: Number(n), path: (d: Dataset) => `/v1/products/getList?orgID=${q(d.orgs[n])}` })),
  ...[10, 100, 1000].map((n) => ({
    key: 'invites/createInvites',
    rows: n,
    path: (d: Dataset) => `/v1/invites/createInvites?interviewID=${q(d.writeInterviewID)}&count=${n}`,
    write: true,
  })),
];

export function headersFor(token: string, op: { method: string; public?: boolean }): Record<string, string> {
  return { ...(op.public ? {} : { authorization: `Bearer ${token}` }), ...(op.method === 'POST' ? { 'content-type': 'application/json' } : {}) };
}

/**
 * Every server must answer every operation it serves with a 2xx and what the operation expects, with
 * the same status as the first server (the service) and, for reads, a byte-identical body: room/reply
 * too, each server answering on its own invite, all as RoomService.start left them; an earlier build of
 * the service (--compare) the status only, its bodies lacking the fields added since. The rows the
 * writes add and the answers room/reply appends are left for the caller to delete.
 */
export async function checkParity(servers: Server[], d: Dataset, token: string): Promise<void> {
  const [reference] = servers;
  for (const op of OPS) {
    const paths = op.paths?.(d);
    // Server i answers on paths[i], whichever of them serve the operation.
    const serving = servers.flatMap((server, i) => (serves(server, op.key) ? [{ server, path: paths?.[i] ?? op.path(d) }] : []));
    if (serving[0]?.server !== reference) throw new Error(`${op.key}: ${reference.phrase} must serve every operation`);
    const replies = await Promise.all(serving.map(({ server, path }) => http(server.port, op.method, path, headersFor(token, op), op.body?.(d))));
    for (const [i, reply] of replies.entries()) {
      const { server } = serving[i];
      if (reply.status < 200 || reply.status >= 300) throw new Error(`${op.key} on ${server.phrase}: HTTP ${reply.status} ${reply.body.slice(0, 300)}`);
      const problem = op.check?.((JSON.parse(reply.body) as { result: unknown }).result);
      if (problem) throw new Error(`${op.key} on ${server.phrase}: ${problem}`);
    }
    const [first, ...rest] = replies;
    for (const [i, reply] of rest.entries()) {
      const other = serving[i + 1].server;
      if (reply.status !== first.status) throw new Error(`${op.key}: ${reference.phrase} answered ${first.status}, ${other.phrase} ${reply.status}`);
      if (!op.write && !other.earlier && reply.body !== first.body) {
        let at = 0;
        while (at < first.body.length && first.body[at] === reply.body[at]) at++;
        const excerpt = (body: string) => body.slice(Math.max(0, at - 60), at + 60);
        throw new Error(
          `${op.key}: the bodies of ${reference.phrase} and ${other.phrase} differ at character ${at}:\n` +
            `  ${reference.label}: …${excerpt(first.body)}\n  ${other.label}: …${excerpt(reply.body)}`,
        );
      }
    }
  }
  for (const c of SCALING.filter((c) => !c.write)) {
    for (const s of servers.filter((s) => serves(s, c.key))) {
      const reply = await http(s.port, 'GET', c.path(d), headersFor(token, { method: 'GET' }));
      const problem = reply.status === 200 ? isArrayOf(c.rows)((JSON.parse(reply.body) as { result: unknown }).result) : `HTTP ${reply.status}`;
      if (problem) throw new Error(`${c.key} (${c.rows} rows) on ${s.phrase}: ${problem}`);
    }
  }
}
