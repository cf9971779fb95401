import { stringify } from 'csv-stringify';
import { Readable, pipeline } from 'node:stream';
import type { ExportRow } from './answer-rows';
import type { ExportFormat } from './dto/answer-queries.dto';

/** The export's columns, in order: the CSV header and every JSON line's keys. */
export const EXPORT_COLUMNS: readonly (keyof ExportRow)[] = [
  'linkID',
  'questionIndex',
  'question',
  'turnIndex',
  'answer',
  'followUp',
  'at',
  'words',
  'sentiment',
  'language',
  'status',
  'startedOn',
  'completedOn',
  'name',
  'email',
  'occupation',
];

/** Cells people wrote, which a spreadsheet program could take for a formula. */
const FREE_TEXT = new Set<keyof ExportRow>(['question', 'answer', 'name', 'email', 'occupation']);

/** A cell that starts like a formula (=, +, -, @, a tab, a carriage return), prefixed with ' so spreadsheets show it as text (OWASP CSV injection). */
export function neutralised(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV record: free text neutralised, null empty, the rest as it is. */
function csvRecord(row: ExportRow): (string | number | boolean | null)[] {
  return EXPORT_COLUMNS.map((column) => {
    const value = row[column];
    return typeof value === 'string' && FREE_TEXT.has(column) ? neutralised(value) : value;
  });
}

export function exportFileName(interviewID: string, format: ExportFormat): string {
  return `answers-${interviewID}.${format}`;
}

/**
 * The export as a byte stream, written as the rows are read (each chunk is released once written).
 * CSV through csv-stringify: RFC 4180 (CRLF records, fields quoted when they hold a comma, a quote or a
 * line break), a header row, and a byte-order mark so that spreadsheet programs read UTF-8. A read
 * that fails half-way fails the stream: the client sees a download cut short, never a partial file
 * that looks complete.
 */
export function exportBody(chunks: AsyncIterable<ExportRow[]>, format: ExportFormat): Readable {
  if (format === 'jsonl') {
    return Readable.from(
      (async function* () {
        for await (const rows of chunks) yield rows.map((row) => `${JSON.stringify(row, EXPORT_COLUMNS as string[])}\n`).join('');
      })(),
    );
  }
  const records = Readable.from(
    (async function* () {
      for await (const rows of chunks) for (const row of rows) yield csvRecord(row);
    })(),
  );
  const csv = stringify({
    header: true,
    columns: EXPORT_COLUMNS as string[],
    bom: true,
    record_delimiter: 'windows',
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
  // The error reaches the CSV stream (it is destroyed with it); the response handles it from there.
  pipeline(records, csv, () => undefined);
  return csv;
}
