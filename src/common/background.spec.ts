import { Logger } from '@nestjs/common';
import { Background, BackgroundStopping, LeaseLost } from './background';

/** Polls until `condition` holds, for up to two seconds. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

/** A promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe(Background.name, () => {
  let background: Background;
  beforeEach(() => (background = new Background()));
  afterEach(() => background.stop());

  it('looks once per wake, and once more (not once per wake) when woken during a look', async () => {
    const held = gate();
    let looks = 0;
    background.loop({ name: 'sweep', everyMs: 60_000 }, async () => {
      looks++;
      if (looks === 1) await held.promise;
    });
    background.start();
    background.wake('sweep');
    await until(() => looks === 1);
    background.wake('sweep');
    background.wake('sweep');
    held.open();
    await until(() => looks === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(looks).toBe(2);
  });

  it('does nothing when woken before it starts, after it stops, or by a name no loop has', async () => {
    let looks = 0;
    background.loop({ name: 'sweep', everyMs: 60_000 }, async () => void looks++);
    background.wake('sweep');
    background.wake('nobody');
    background.start();
    await background.stop();
    background.wake('sweep');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(looks).toBe(0);
  });

  it('looks every period, and at start when asked to', async () => {
    let looks = 0;
    background.loop({ name: 'sweep', everyMs: 20, atStart: true }, async () => void looks++);
    background.start();
    await until(() => looks >= 3);
  });

  it('says a failing look once, and that it works again when it does', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    let looks = 0;
    background.loop({ name: 'relay', everyMs: 60_000, failing: 'cannot claim', recovered: 'working again' }, async () => {
      looks++;
      if (looks <= 3) throw new Error('database away');
    });
    background.start();
    for (let i = 1; i <= 4; i++) {
      background.wake('relay');
      await until(() => looks === i);
    }
    await until(() => log.mock.calls.length === 1);
    expect(warn.mock.calls).toEqual([[{ msg: 'cannot claim', error: 'database away' }]]);
    expect(log.mock.calls).toEqual([[{ msg: 'working again' }]]);
    warn.mockRestore();
    log.mockRestore();
  });

  it('claims due items up to its concurrency with a token and a lease, and claims again as runs finish', async () => {
    const due = [1, 2, 3, 4, 5];
    const claims: { token: string; limit: number; leaseMs: number }[] = [];
    const running = new Map<number, () => void>();
    const ran: number[] = [];
    let finishAtOnce = false;
    background.leased<number>({
      name: 'work',
      everyMs: 60_000,
      atStart: true,
      leaseMs: 30_000,
      concurrency: 2,
      claim: async (token, limit, now, leaseEnds) => {
        claims.push({ token, limit, leaseMs: leaseEnds.getTime() - now.getTime() });
        return due.splice(0, limit);
      },
      run: async (item) => {
        const g = gate();
        running.set(item, g.open);
        if (!finishAtOnce) await g.promise;
        ran.push(item);
      },
    });
    background.start();
    await until(() => running.size === 2);
    expect(claims).toEqual([{ token: expect.stringMatching(/^[0-9a-f-]{36}$/), limit: 2, leaseMs: 30_000 }]);
    running.get(1)!();
    await until(() => running.size === 3);
    expect(claims.map((c) => c.limit)).toEqual([2, 1]);
    expect(new Set(claims.map((c) => c.token)).size).toBe(2);
    finishAtOnce = true;
    for (const open of running.values()) open();
    await until(() => ran.length === 5);
    expect(ran.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('renews the lease when a run starts and while it runs, and aborts the run when a renewal finds the claim taken over', async () => {
    const renewals: number[] = [];
    let reason: unknown;
    background.leased<string>({
      name: 'reports',
      everyMs: 60_000,
      atStart: true,
      leaseMs: 750,
      concurrency: 1,
      claim: async () => (renewals.length === 0 ? ['report'] : []),
      renew: async (_item, leaseEnds, now) => {
        renewals.push(leaseEnds.getTime() - now.getTime());
        return renewals.length < 3;
      },
      run: (_item, signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            resolve();
          }),
        ),
    });
    background.start();
    await until(() => reason !== undefined);
    expect(reason).toBeInstanceOf(LeaseLost);
    expect(renewals).toEqual([750, 750, 750]);
  });

  it('stops: waits for the look under way, then aborts the runs under way (they hand back) and waits for them', async () => {
    const handedBack: string[] = [];
    let started = false;
    background.leased<string>({
      name: 'relay',
      everyMs: 60_000,
      atStart: true,
      leaseMs: 60_000,
      concurrency: 4,
      claim: async () => (started ? [] : ((started = true), ['a', 'b'])),
      run: (item, signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            expect(signal.reason).toBeInstanceOf(BackgroundStopping);
            setTimeout(() => {
              handedBack.push(item);
              resolve();
            }, 20);
          }),
        ),
    });
    background.start();
    await until(() => started);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await background.stop();
    expect(handedBack.sort()).toEqual(['a', 'b']);
  });
});
