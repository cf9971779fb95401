import { ConsoleLogger } from '@nestjs/common';
import { PrettyLogger, ServiceLogger, createLogger, flushLogLines } from './logger';

function captureStdout(run: () => void): string {
  const write = process.stdout.write;
  const out: string[] = [];
  process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    run();
    flushLogLines();
  } finally {
    process.stdout.write = write;
  }
  return out.join('');
}

describe(PrettyLogger.name, () => {
  const sut = new PrettyLogger({ logLevels: ['log', 'error', 'warn', 'debug'], colors: false });

  it('writes a request as one line: method, path, status, duration and request id', () => {
    const out = captureStdout(() => sut.log({ msg: 'request', requestId: 'r-1', method: 'GET', path: '/v1/products/getOne', status: 200, durationMs: 3.1 }, 'HTTP'));
    expect(out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}HTTP GET \/v1\/products\/getOne 200 3\.1 ms req=r-1\n$/);
  });

  it('writes other events as the message and key=value fields, quoting values with spaces', () => {
    const out = captureStdout(() => sut.warn({ msg: 'database unavailable', requestId: 'r-2', error: 'connect ECONNREFUSED 127.0.0.1:3306' }, 'ExceptionFilter'));
    expect(out).toMatch(/ WARN {2}ExceptionFilter database unavailable requestId=r-2 error="connect ECONNREFUSED 127\.0\.0\.1:3306"\n$/);
    expect(out.split('\n')).toHaveLength(2);
  });

  it('puts a stack on the lines below its event, indented', () => {
    const write = process.stderr.write;
    const out: string[] = [];
    process.stderr.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      sut.error({ msg: 'unhandled error', requestId: 'r-3', stack: 'Error: boom\n    at f (a.ts:1:1)' }, 'ExceptionFilter');
    } finally {
      process.stderr.write = write;
    }
    expect(out.join('')).toMatch(/ERROR ExceptionFilter unhandled error requestId=r-3\n {4}Error: boom\n {8}at f \(a\.ts:1:1\)\n/);
  });

  it('moves Nest start-up chatter to debug', () => {
    const quiet = new PrettyLogger({ logLevels: ['log'], colors: false });
    expect(captureStdout(() => quiet.log('AppModule dependencies initialized', 'InstanceLoader'))).toBe('');
    expect(captureStdout(() => quiet.log('listening', 'Bootstrap'))).toMatch(/INFO {2}Bootstrap listening\n$/);
  });
});

describe(createLogger.name, () => {
  const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  const setTty = (value: boolean) => Object.defineProperty(process.stdout, 'isTTY', { value, configurable: true });

  afterEach(() => {
    if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  });

  it('writes readable lines by default when stdout is a terminal', () => {
    setTty(true);
    expect(createLogger({ logLevel: 'info', logFormat: 'auto' })).toBeInstanceOf(PrettyLogger);
  });

  it('writes JSON lines by default when stdout is not a terminal', () => {
    setTty(false);
    const logger = createLogger({ logLevel: 'info', logFormat: 'auto' });
    expect(logger).toBeInstanceOf(ServiceLogger);
    expect(logger).not.toBeInstanceOf(PrettyLogger);
    expect(captureStdout(() => logger.log({ msg: 'request', status: 200 }, 'HTTP'))).toMatch(/^\{"level":"log",.*"message":\{"msg":"request","status":200\}/);
  });

  it('writes readable lines with LOG_FORMAT=pretty', () => {
    expect(createLogger({ logLevel: 'info', logFormat: 'pretty' })).toBeInstanceOf(PrettyLogger);
  });

  it('writes JSON with LOG_FORMAT=json, also on a terminal', () => {
    setTty(true);
    const logger: ConsoleLogger = createLogger({ logLevel: 'info', logFormat: 'json' });
    expect(logger).not.toBeInstanceOf(PrettyLogger);
  });
});

describe(ServiceLogger.name, () => {
  const record = { msg: 'request', requestId: 'r-1', method: 'GET', path: '/v1/products/getOne', status: 200, durationMs: 3.1 };
  const withoutTime = (line: string) => line.replace(/"timestamp":\d+/, '"timestamp":0');

  it('writes a flat record exactly as ConsoleLogger writes it', () => {
    const ours = captureStdout(() => new ServiceLogger({ json: true }).log(record, 'HTTP'));
    const nests = captureStdout(() => new ConsoleLogger({ json: true }).log(record, 'HTTP'));
    expect(withoutTime(ours)).toBe(withoutTime(nests));
    expect(JSON.parse(ours)).toEqual({ level: 'log', pid: process.pid, timestamp: expect.any(Number), message: record, context: 'HTTP' });
  });

  it('writes no request line when info is not logged (LOG_LEVEL=warn)', () => {
    expect(captureStdout(() => new ServiceLogger({ json: true, logLevels: ['fatal', 'error', 'warn'] }).log(record, 'HTTP'))).toBe('');
    expect(captureStdout(() => new ServiceLogger({ json: true, logLevels: ['fatal', 'error', 'warn', 'log'] }).log(record, 'HTTP'))).toContain('"msg":"request"');
  });

  it('writes the request lines of one turn of the event loop in one write, in order, when the turn ends', async () => {
    const write = process.stdout.write;
    const writes: string[] = [];
    process.stdout.write = ((chunk: string) => writes.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      const logger = new ServiceLogger({ json: true });
      for (const status of [200, 201, 404]) logger.log({ ...record, status }, 'HTTP');
      expect(writes).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.stdout.write = write;
    }
    expect(writes).toHaveLength(1);
    expect(writes[0].split('\n').map((line) => (line ? (JSON.parse(line) as { message: { status: number } }).message.status : line))).toEqual([200, 201, 404, '']);
  });

  it('writes waiting request lines before any other line, so that stdout keeps their order', () => {
    const logger = new ServiceLogger({ json: true });
    const out = captureStdout(() => {
      logger.log(record, 'HTTP');
      logger.log({ msg: 'nested', detail: { a: 1 } }, 'Ctx');
    });
    const messages = out.trimEnd().split('\n').map((line) => (JSON.parse(line) as { message: { msg: string } }).message.msg);
    expect(messages).toEqual(['request', 'nested']);
  });

  it('leaves nested or long records to ConsoleLogger, with the same result', () => {
    for (const message of [{ msg: 'x', nested: { a: 1 } }, { msg: 'y'.repeat(5000) }, 'plain text']) {
      const ours = captureStdout(() => new ServiceLogger({ json: true }).warn(message, 'Ctx'));
      const nests = captureStdout(() => new ConsoleLogger({ json: true }).warn(message, 'Ctx'));
      expect(withoutTime(ours)).toBe(withoutTime(nests));
    }
  });
});
