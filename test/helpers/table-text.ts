import type { DataSource } from 'typeorm';
import { ENGINE } from '../../src/config/engine';

/** Every table of the database, whatever migrations added. */
export async function allTables(db: DataSource): Promise<string[]> {
  const rows: { name: string }[] =
    ENGINE === 'mysql'
      ? await db.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()')
      : await db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  return rows.map((r) => r.name);
}

/** The words of a text as a reader sees them: letters and digits, lower-cased. Written apart from the service's own rule on purpose. */
export function readerWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/** Every run of four consecutive words of the texts. */
export function fourWordRuns(texts: readonly string[]): Set<string> {
  const runs = new Set<string>();
  for (const text of texts) {
    const words = readerWords(text);
    for (let i = 0; i + 4 <= words.length; i++) runs.add(words.slice(i, i + 4).join(' '));
  }
  return runs;
}

/** Each string a stored value holds: the value itself, or the strings inside it when it is JSON text (transcripts, results). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    out.push(value);
    if (/^[[{"]/.test(value)) {
      try {
        stringsOf(JSON.parse(value) as unknown, out);
      } catch {
        // not JSON: the text itself is enough
      }
    }
  } else if (Array.isArray(value)) {
    for (const inner of value) stringsOf(inner, out);
  } else if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    for (const inner of Object.values(value)) stringsOf(inner, out);
  } else if (Buffer.isBuffer(value)) {
    out.push(value.toString('utf8'));
  }
  return out;
}

/**
 * Where in the whole database any of `runs` (four consecutive words) still stands: "table.column" →
 * the runs found there. Every column of every row of every table is read.
 */
export async function whereRunsRemain(db: DataSource, runs: ReadonlySet<string>): Promise<Record<string, string[]>> {
  const found: Record<string, Set<string>> = {};
  for (const table of await allTables(db)) {
    const rows: Record<string, unknown>[] = await db.query(`SELECT * FROM ${table}`);
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        for (const text of stringsOf(value)) {
          const words = readerWords(text);
          for (let i = 0; i + 4 <= words.length; i++) {
            const run = words.slice(i, i + 4).join(' ');
            if (runs.has(run)) (found[`${table}.${column}`] ??= new Set()).add(run);
          }
        }
      }
    }
  }
  return Object.fromEntries(Object.entries(found).map(([where, set]) => [where, [...set]]));
}
