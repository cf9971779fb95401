/**
 * How fast the machine itself ran, sampled through the run: one fixed piece of CPU work in this process
 * (a JSON round trip of 1,000 product-like rows, the median of nine: the kind of work the servers do,
 * allocation and collection included), timed before each section and at the end.
 *
 * On a shared host the same machine has run 2-3× slower for minutes with none of our processes busy (a
 * paired products/getOne took 0.31 ms a request at one hour and 1.1 ms at another): another tenant of
 * the host, which the load average does not see. Figures measured in such minutes are lower. The paired
 * section (the two builds in turns) is not affected; the load measurements, one server's seconds after
 * another's, are.
 */
import { performance } from 'node:perf_hooks';
import { fmt, median } from './numbers';

const ROWS = Array.from({ length: 1000 }, (_, i) => ({
  productID: `0199a0b2-${String(i).padStart(4, '0')}-7000-8000-000000000000`,
  name: `Product ${i}`,
  desc: 'A product under study, with a description of some length. '.repeat(2),
  orgID: 'org-1',
  userID: null,
  url: `https://example.com/products/${i}`,
  createdAt: new Date(Date.UTC(2026, 10, 30, 0, 0, i)).toISOString(),
}));

/** The fixed work's time in ms: the median of nine, after one not timed (the first pays for the code's warm-up). */
export function calibrationMs(): number {
  const times: number[] = [];
  for (let i = -1; i < 9; i++) {
    const started = performance.now();
    if ((JSON.parse(JSON.stringify(ROWS)) as unknown[]).length !== ROWS.length) throw new Error('the calibration work went wrong');
    if (i >= 0) times.push(performance.now() - started);
  }
  return median(times);
}

/** A spread of the samples from which the report says the machine ran slower for a while. */
const SLOWER = 1.25;

export class MachineSpeed {
  private readonly samples: { before: string; ms: number }[] = [];

  /** Times the fixed work now, before `section` ("the end" for the last). */
  sample(before: string): void {
    this.samples.push({ before, ms: calibrationMs() });
  }

  /** One line for the report's header. */
  describe(): string {
    if (this.samples.length === 0) return 'not sampled';
    const slowest = this.samples.reduce((a, b) => (b.ms > a.ms ? b : a));
    const fastest = Math.min(...this.samples.map((s) => s.ms));
    const spread = slowest.ms / fastest;
    return (
      `a JSON round trip of 1,000 rows in the bench's process (median of 9): ${this.samples.map((s) => `${fmt(s.ms, 2)} ms before ${s.before}`).join(', ')}; ` +
      `the slowest ${fmt(spread, 2)}× the fastest (before ${slowest.before}): ` +
      (spread >= SLOWER
        ? 'the machine ran slower for part of the run (the host\'s other tenants, or processes of ours still busy between sections), and the figures measured then are lower (not the paired section\'s)'
        : 'the machine ran at about one speed')
    );
  }
}
