/**
 * A JSON column's value as the database holds it: the text jsonText wrote (JSON.stringify's), not yet
 * parsed. A streamed list writes it into the response as it is (stringifyRow), where parsing it to
 * write it again was most of the work: an unpaged invites/getList of 1,000 transcripts spent about
 * 10 ms of its 50 ms of CPU parsing and re-serializing them (bench dataset, this machine), and the
 * response is byte for byte the same, since JSON.stringify(JSON.parse(s)) is s for any s that
 * JSON.stringify wrote. Any other serializer (Nest's answer of a page, express's res.json) calls
 * toJSON(), and gets the value itself.
 */
export class StoredJson<T = unknown> {
  constructor(readonly text: string) {}

  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}

/** T with the JSON columns K as the database holds them (null stays null). */
export type WithStoredJson<T, K extends keyof T> = Omit<T, K> & { [P in K]: StoredJson<Exclude<T[P], null>> | Extract<T[P], null> };

/**
 * JSON.stringify(row) for a row whose values may be StoredJson: each of those is written as its text,
 * the other values by JSON.stringify, in the row's key order, undefined values left out. The same bytes
 * as JSON.stringify(row) when each text is JSON.stringify's (stored-json.spec.ts holds it to that). A
 * row without one (or an array, or a row with a toJSON of its own) is JSON.stringify's alone. Only the
 * lists that read JSON as stored use it (answerList's `stringify`): looking for StoredJson in every
 * row of the others cost products/getList of 10,000 rows about 3% of its CPU.
 */
export function stringifyRow(row: object): string {
  if (!holdsStoredJson(row)) return JSON.stringify(row);
  let out = '{';
  for (const [key, value] of Object.entries(row)) {
    const json = value instanceof StoredJson ? value.text : (JSON.stringify(value) as string | undefined);
    if (json === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${json}`;
  }
  return `${out}}`;
}

function holdsStoredJson(row: object): boolean {
  if (Array.isArray(row) || typeof (row as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const value of Object.values(row)) if (value instanceof StoredJson) return true;
  return false;
}
