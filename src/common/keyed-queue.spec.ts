import { KeyedQueue } from './keyed-queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe(KeyedQueue.name, () => {
  let sut: KeyedQueue;

  beforeEach(() => {
    sut = new KeyedQueue();
  });

  it('runs the tasks of one key one after another, in order', async () => {
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`${name} end`);
      return name;
    };
    await expect(Promise.all([sut.run('a', task('first', 20)), sut.run('a', task('second', 1))])).resolves.toEqual(['first', 'second']);
    expect(log).toEqual(['first start', 'first end', 'second start', 'second end']);
  });

  it('runs tasks of different keys at the same time', async () => {
    const log: string[] = [];
    let release!: () => void;
    const blocked = sut.run('a', () => new Promise<void>((resolve) => (release = resolve)).then(() => log.push('a')));
    await sut.run('b', async () => log.push('b'));
    release();
    await blocked;
    expect(log).toEqual(['b', 'a']);
  });

  it('goes on with the next task after one fails, and passes the failure to its caller', async () => {
    const failing = sut.run('a', async () => {
      throw new Error('boom');
    });
    const next = sut.run('a', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('forgets a key once its work is done', async () => {
    await sut.run('a', async () => 1);
    await tick();
    expect(sut.size).toBe(0);
  });
});
