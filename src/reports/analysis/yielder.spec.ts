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

  it('rests on a timer of restMs when it gives way: a timer due before the rest ends has fired', async () => {
    // Timers fire in the order they fall due: the 1 ms timer before the rest's. A turn of the event
    // loop (setImmediate, no rest) would come back before it. How much of a core a rest leaves is the
    // benchmark's to measure (the analysis worker's pace), not a test's.
    const resting = new Yielder(0, undefined, 20);
    let fired = false;
    setTimeout(() => (fired = true), 1);
    await resting.giveWay();
    expect(fired).toBe(true);
    expect(resting.yields).toBe(1);
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
