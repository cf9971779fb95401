import { ServiceLoad, serviceBusy } from './service-load';

describe('ServiceLoad', () => {
  it('counts as busy before its first sample and once stopped', () => {
    const load = new ServiceLoad();
    const busy = serviceBusy(load.buffer);
    expect(busy()).toBe(true);
    load.record(0, 1_000);
    expect(busy()).toBe(false);
    load.stop();
    expect(busy()).toBe(true);
  });

  it('is busy from a window with work in it until a second passes without one', () => {
    const load = new ServiceLoad();
    const busy = serviceBusy(load.buffer);
    load.record(0.001, 10);
    expect(busy()).toBe(false);
    load.record(0.5, 20);
    expect(busy()).toBe(true);
    load.record(0, 1_019);
    expect(busy()).toBe(true);
    load.record(0, 1_020);
    expect(busy()).toBe(false);
    // A request's 0.2 ms in a 10 ms window is work.
    load.record(0.02, 1_030);
    expect(busy()).toBe(true);
  });
});
