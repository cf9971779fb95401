/** Driver error codes meaning "the database is not reachable right now" (answered with 503). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_QUERY_INTERRUPTED',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
]);

const UNAVAILABLE_MESSAGES = [/pool is closed/i, /queue limit reached/i, /connection is in closed state/i, /can't add new command when connection is in closed state/i];

const DUPLICATE_CODES = new Set(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE']);

function codeOf(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return typeof code === 'string' ? code : undefined;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((re) => re.test(message));
}

export function isDuplicateKey(error: unknown): boolean {
  const code = codeOf(error);
  return !!code && DUPLICATE_CODES.has(code);
}

/**
 * Errors after which a whole transaction can simply run again: InnoDB rolled it back to break a
 * deadlock, or gave up waiting for a lock (innodb_lock_wait_timeout); SQLite found the database locked.
 */
const CONFLICT_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'SQLITE_BUSY']);

export function isLockConflict(error: unknown): boolean {
  const code = codeOf(error);
  return !!code && CONFLICT_CODES.has(code);
}

