import { Yielder } from './yielder';

describe('Yielder', () => {
  it('does not yield before its budget is spent', () => {
    const yielder = new Yielder(60_000);
    for (let i = 0; i < 1000; i++) expect(yielder.due()).toBe(false);
    expect(yielder.yields).toBe(0);
  });

  it('lets a pending setImmediate callback run once the budget is spent', async () => {
    const yielder = new Yielder(0);
    let ran = false;
    setImmediate(() => (ran = true));
    expect(yielder.due()).toBe(true);
    await yielder.giveWay();
    expect(ran).toBe(true);
    expect(yielder.yields).toBe(1);
  });

  it('lets a timer fire while a busy loop gives way', async () => {
    const yielder = new Yielder(4);
    let fired = 0;
    const timer = setInterval(() => fired++, 1);
    // Busy until the timer has fired three times: the loop ends only if giving way lets it run.
    while (fired < 3) if (yielder.due()) await yielder.giveWay();
    clearInterval(timer);
    expect(yielder.yields).toBeGreaterThan(0);
  });

  it('rests for restMs when it gives way, so that a busy loop takes about budget / (budget + rest) of a core', async () => {
    const yielder = new Yielder(5, undefined, 15);
    let busy = 0;
    let spins = 0;
    const started = performance.now();
    while (performance.now() - started < 200) {
      const from = performance.now();
      // Busy until the budget is spent.
      while (!yielder.due()) spins++;
      busy += performance.now() - from;
      await yielder.giveWay();
    }
    const share = busy / (performance.now() - started);
    expect(yielder.yields).toBeGreaterThan(3);
    expect(spins).toBeGreaterThan(0);
    // 5 / (5 + 15) = 0.25; timers fire late rather than early, so the share can only be lower.
    expect(share).toBeLessThan(0.4);
    expect(share).toBeGreaterThan(0.05);
  });

  it('stops the loop at its next turn once its signal is aborted', async () => {
    const stop = new AbortController();
    const yielder = new Yielder(0, stop.signal);
    let turns = 0;
    const loop = (async () => {
      for (;;) {
        if (yielder.due()) await yielder.giveWay();
        if (++turns === 3) stop.abort(new Error('stopping'));
      }
    })();
    await expect(loop).rejects.toThrow('stopping');
    expect(turns).toBe(3);
  });
});
