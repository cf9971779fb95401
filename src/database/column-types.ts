import type { ColumnType, ValueTransformer } from 'typeorm';
import { isMysqlUrl } from '../config/app-config';

/**
 * Entities are declared once for both engines. MySQL's TEXT holds only 64 KB, too small for
 * guidelines and transcripts, and SQLite knows no MEDIUMTEXT; the engine is fixed per process
 * by DATABASE_URL, which is read here because decorators run at import time.
 * MEDIUMTEXT holds 16 MB (transcripts are promised 5 MB).
 */
export const LONG_TEXT: ColumnType = isMysqlUrl(process.env.DATABASE_URL) ? 'mediumtext' : 'text';

/** Millisecond timestamps on both engines (SQLite stores them as ISO-like text). */
export const TIMESTAMP = { type: 'datetime', precision: 3 } as const;

/**
 * JSON kept as text we write ourselves rather than a native JSON column: MySQL's JSON type
 * reorders object keys and MariaDB's is LONGTEXT anyway; text keeps transcripts byte-exact.
 */
export const jsonText: ValueTransformer = {
  to: (value: unknown) => (value === undefined ? undefined : value === null ? null : JSON.stringify(value)),
  from: (value: string | null) => (value === null || value === undefined ? null : JSON.parse(value)),
};
