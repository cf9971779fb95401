import { ConsoleLogger, LogLevel } from '@nestjs/common';
import type { AppConfig, LogLevelName } from '../config/app-config';

const LEVELS: Record<LogLevelName, LogLevel[]> = {
  silent: [],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

const LEVEL_NAMES: Record<LogLevel, string> = { fatal: 'FATAL', error: 'ERROR', warn: 'WARN', log: 'INFO', debug: 'DEBUG', verbose: 'TRACE' };

/** `key=value`, quoting values with spaces so a line still splits into its fields. */
function field(key: string, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `${key}=${/[\s"=]/.test(text) ? JSON.stringify(text) : text}`;
}

/** Nest's start-up chatter (a line per module and per route): debug, not info. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Longest string a record may hold and still take the short way (Nest truncates very long values). */
const FLAT_STRING_MAX = 2000;

/** A record of numbers, booleans, nulls and short strings: nothing in it can be circular or too long. */
function isFlatRecord(value: unknown): value is Record<string, string | number | boolean | null> {
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const v of Object.values(value)) {
    if (v === null || typeof v === 'number' || typeof v === 'boolean') continue;
    if (typeof v !== 'string' || v.length > FLAT_STRING_MAX) return false;
  }
  return true;
}

type JsonOptions = Parameters<ConsoleLogger['getJsonLogObject']>[1];

/** Pending lines past this many characters are written at once rather than at the end of the turn. */
const PENDING_MAX = 64 * 1024;

/**
 * Flat JSON lines (the request line, once per request) bound for stdout, written once per turn of the
 * event loop rather than once each. Node writes stdout to a file or a pipe with a blocking write(2):
 * about 6 µs a line under load, a thirtieth of a single read's time. The lines of a turn go out together
 * when it ends (setImmediate), before the next turn reads the network; any other line the logger writes
 * flushes them first, so the order of lines on stdout is unchanged, and exit writes what is left.
 */
class StdoutLines {
  private pending = '';
  private scheduled = false;
  private hooked = false;
  private readonly flushNow = (): void => this.flush();

  push(line: string): void {
    this.pending += line;
    if (!this.hooked) {
      this.hooked = true;
      process.once('exit', this.flushNow);
    }
    if (this.pending.length >= PENDING_MAX) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushNow);
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.pending === '') return;
    const out = this.pending;
    this.pending = '';
    process.stdout.write(out);
  }
}

const stdoutLines = new StdoutLines();

/** Writes the request lines still waiting for the end of this turn (tests read stdout synchronously). */
export function flushLogLines(): void {
  stdoutLines.flush();
}

/** ConsoleLogger (JSON lines) with Nest's start-up chatter moved to debug. */
export class ServiceLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && STARTUP_CONTEXTS.has(context)) return this.debug(message, ...rest);
    // The request line (a flat record and its context, once per request) is written here at once:
    // ConsoleLogger.log would first sort its arguments and look each one over for errors to print.
    if (rest.length === 1 && typeof context === 'string' && this.writesFlatLines() && isFlatRecord(message)) {
      if (this.isLevelEnabled('log')) this.pushLine(message, { context, logLevel: 'log' });
      return;
    }
    super.log(message, ...rest);
  }

  /** JSON lines to stdout with nothing to colour, redact or hand to console.log. */
  private writesFlatLines(): boolean {
    return this.options.json === true && !this.options.colors && !this.options.forceConsole && !this.options.redact;
  }

  private pushLine(message: unknown, options: JsonOptions): void {
    stdoutLines.push(`${JSON.stringify(this.getJsonLogObject(message, options))}\n`);
  }

  /**
   * The same JSON line as ConsoleLogger writes. For a flat record bound for stdout (the request log
   * line, once per request) plain JSON.stringify gives the same text without the guards against cycles
   * and huge values that cost several microseconds a line, and StdoutLines writes it with the turn's
   * other lines; anything else takes Nest's own way.
   */
  protected override printAsJson(message: unknown, options: JsonOptions): void {
    const stream = options.writeStreamType ?? 'stdout';
    if (stream !== 'stdout' || !this.writesFlatLines() || !isFlatRecord(message) || options.errorStack !== undefined || options.error || options.params) {
      stdoutLines.flush();
      return super.printAsJson(message, options);
    }
    this.pushLine(message, options);
  }
}

/**
 * One readable line per event, for a person at a terminal: `12:04:05.123 INFO  HTTP GET /v1/... 200 3.1 ms`.
 * The service logs objects ({msg, ...fields}); they print as the message followed by key=value pairs,
 * and a stack, when there is one, on the lines below.
 */
export class PrettyLogger extends ServiceLogger {
  protected override formatMessage(logLevel: LogLevel, message: unknown, _pid: string, _level: string, contextMessage: string): string {
    const time = new Date().toISOString().slice(11, 23);
    const level = this.colorize(LEVEL_NAMES[logLevel].padEnd(5), logLevel);
    return `${time} ${level} ${contextMessage}${this.describe(message, logLevel)}\n`;
  }

  protected override formatContext(context: string): string {
    return context ? `${context} ` : '';
  }

  private describe(message: unknown, logLevel: LogLevel): string {
    if (typeof message === 'string') return this.colorize(message, logLevel);
    if (!message || typeof message !== 'object' || Array.isArray(message)) return this.stringifyMessage(message, logLevel);
    const { msg, stack, ...fields } = message as Record<string, unknown>;
    let line: string;
    if (msg === 'request') {
      const { method, path, status, durationMs, requestId, ...rest } = fields;
      line = `${String(method)} ${String(path)} ${String(status)} ${String(durationMs)} ms ${field('req', requestId)}`;
      line += Object.entries(rest).map(([k, v]) => ` ${field(k, v)}`).join('');
    } else {
      line = [typeof msg === 'string' ? this.colorize(msg, logLevel) : undefined, ...Object.entries(fields).map(([k, v]) => field(k, v))].filter(Boolean).join(' ');
    }
    return typeof stack === 'string' ? `${line}\n${stack.replace(/^/gm, '    ')}` : line;
  }
}

/**
 * JSON lines (one object per event, for log collectors) unless LOG_FORMAT=pretty, or LOG_FORMAT is
 * unset and stdout is a terminal: then one readable line per event.
 */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>): ConsoleLogger {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  const logLevels = LEVELS[config.logLevel];
  return pretty ? new PrettyLogger({ logLevels, colors: process.stdout.isTTY === true }) : new ServiceLogger({ json: true, logLevels });
}
