import { Readable } from 'node:stream';
import Papa from 'papaparse';
import type { ExportRow } from '../invites/answer-rows';
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
  'asked',
  'status',
  'startedOn',
  'completedOn',
  'name',
  'email',
  'occupation',
];

/** An export row of a coded export (exportAnswers?reportID=): the labels of its themes in that report. */
export type CodedExportRow = ExportRow & { themes: string[] | null };

/** The coded export's columns: the export's, then the themes. */
export const CODED_EXPORT_COLUMNS: readonly (keyof CodedExportRow)[] = [...EXPORT_COLUMNS, 'themes'];

/** How a coded export's CSV cell joins an answer's theme labels. */
export const THEME_SEPARATOR = '; ';

/** Cells people (or a model) wrote, which a spreadsheet program could take for a formula. */
const FREE_TEXT = new Set<keyof CodedExportRow>(['question', 'asked', 'answer', 'name', 'email', 'occupation', 'themes']);

/**
 * A cell that starts like a formula, prefixed with ' so spreadsheets show it as text (OWASP CSV
 * injection): its first character that is not whitespace (spaces, tabs, no-break and other Unicode
 * spaces, line breaks) is =, +, - or @, since some spreadsheet programs skip leading whitespace before
 * they look for a formula; or it starts with a tab or a carriage return.
 */
export function neutralised(text: string): string {
  return /^\s*[=+\-@]|^[\t\r]/u.test(text) ? `'${text}` : text;
}

/** One CSV record: free text neutralised, null empty, theme labels joined, the rest as it is. */
function csvRecord(row: ExportRow | CodedExportRow, columns: readonly (keyof CodedExportRow)[]): (string | number | boolean | null)[] {
  return columns.map((column) => {
    const raw = (row as CodedExportRow)[column];
    const value = Array.isArray(raw) ? raw.join(THEME_SEPARATOR) : raw;
    return typeof value === 'string' && FREE_TEXT.has(column) ? neutralised(value) : value;
  });
}

export function exportFileName(interviewID: string, format: ExportFormat): string {
  return `answers-${interviewID}.${format}`;
}

/** What a spreadsheet program reads as UTF-8, written first. */
const BOM = '\uFEFF';
/** RFC 4180's record delimiter; every record ends with one, the last too. */
const CRLF = '\r\n';
/** Quoting as RFC 4180 asks: a field is quoted when it holds a comma, a quote or a line break (papaparse also quotes one that starts or ends with a space). */
const CSV: Papa.UnparseConfig = { header: false, newline: CRLF, quoteChar: '"', escapeChar: '"', delimiter: ',', escapeFormulae: false };

/** Records as CSV text, each ended by CRLF. */
function csvText(records: readonly (readonly unknown[])[]): string {
  return records.length === 0 ? '' : Papa.unparse(records as unknown[][], CSV) + CRLF;
}

/**
 * The export as a byte stream, written a page of rows at a time as they are read (each page is
 * released once written). CSV through papaparse: RFC 4180, a header row, and a byte-order mark so
 * that spreadsheet programs read UTF-8. papaparse rather than a record-by-record stream: a page is one
 * call and one string, and it allocates about a quarter of what csv-stringify did per record (which
 * made most of a large export's garbage, and so its memory). A read that fails half-way fails the
 * stream: the client sees a download cut short, never a partial file that looks complete.
 */
export function exportBody(chunks: AsyncIterable<ExportRow[] | CodedExportRow[]>, format: ExportFormat, columns: readonly (keyof CodedExportRow)[] = EXPORT_COLUMNS): Readable {
  if (format === 'jsonl') {
    return Readable.from(
      (async function* () {
        for await (const rows of chunks) yield rows.map((row) => `${JSON.stringify(row, columns as string[])}\n`).join('');
      })(),
    );
  }
  return Readable.from(
    (async function* () {
      yield BOM + csvText([columns]);
      for await (const rows of chunks) yield csvText(rows.map((row) => csvRecord(row, columns)));
    })(),
  );
}
