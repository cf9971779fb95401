import { text } from 'node:stream/consumers';
import type { ExportRow } from '../invites/answer-rows';
import { EXPORT_COLUMNS, exportBody } from './answers-export';

function row(overrides: Partial<ExportRow>): ExportRow {
  return {
    linkID: 'link-1',
    questionIndex: 0,
    question: 'How did you find us?',
    turnIndex: 2,
    answer: 'A friend.',
    followUp: false,
    at: '2026-01-02T03:04:05.000Z',
    words: 2,
    sentiment: 0.25,
    language: 'en',
    asked: 'How did you find us?',
    status: 'completed',
    startedOn: '2026-01-02T03:00:00.000Z',
    completedOn: null,
    name: null,
    email: null,
    occupation: null,
    ...overrides,
  };
}

async function* pages(...chunks: ExportRow[][]): AsyncGenerator<ExportRow[]> {
  for (const chunk of chunks) yield chunk;
}

describe(exportBody.name, () => {
  it('writes CSV as RFC 4180 asks: a BOM, the header, CRLF after every record, quotes doubled inside quoted fields', async () => {
    const csv = await text(
      exportBody(
        pages(
          [row({ answer: 'Fast, "really" fast.\r\nAnd cheap.', name: 'Ada Lovelace', email: 'ada@example.com' })],
          [],
          [row({ linkID: '-dash-id', questionIndex: null, question: null, turnIndex: 6, answer: 'No', followUp: true, sentiment: -0.5, words: 1 })],
        ),
        'csv',
      ),
    );
    expect(csv).toBe(
      `\uFEFF${EXPORT_COLUMNS.join(',')}\r\n` +
        'link-1,0,How did you find us?,2,"Fast, ""really"" fast.\r\nAnd cheap.",false,2026-01-02T03:04:05.000Z,2,0.25,en,How did you find us?,completed,2026-01-02T03:00:00.000Z,,Ada Lovelace,ada@example.com,\r\n' +
        // An identifier and a number that start with - are written as they are.
        '-dash-id,,,6,No,true,2026-01-02T03:04:05.000Z,1,-0.5,en,How did you find us?,completed,2026-01-02T03:00:00.000Z,,,,\r\n',
    );
  });

  it("prefixes free-text cells that start like a formula with ', in every free-text column", async () => {
    const csv = await text(
      exportBody(pages([row({ question: '=1+2', answer: '+SUM(A1)', name: '@me', email: '-x@example.com', occupation: '\tTab' })]), 'csv'),
    );
    const record = csv.split('\r\n')[1];
    expect(record).toBe(
      "link-1,0,'=1+2,2,'+SUM(A1),false,2026-01-02T03:04:05.000Z,2,0.25,en,How did you find us?,completed,2026-01-02T03:00:00.000Z,,'@me,'-x@example.com,'\tTab",
    );
  });

  it.each([
    ['leading spaces', '   =HYPERLINK(1)'],
    ['a leading tab', '\t=1+1'],
    ['a leading no-break space', '\u00a0+1+1'],
    ['an ideographic space', '\u3000-2+3'],
    ['a line break first', '\n@SUM(1)'],
  ])('prefixes a cell whose first character that is not whitespace starts a formula (%s)', async (_case, answer) => {
    const record = (await text(exportBody(pages([row({ answer })]), 'csv'))).split('\r\n').slice(1, -1).join('\r\n');
    expect(record).toContain(`'${answer}`);
  });

  it('leaves text with =, +, - or @ after its first word as it is', async () => {
    const record = (await text(exportBody(pages([row({ answer: 'a = b + c - d @ e' })]), 'csv'))).split('\r\n')[1];
    expect(record).toContain(',2,a = b + c - d @ e,false,');
  });

  it('quotes a free-text cell that starts or ends with a space, so that no importer trims it', async () => {
    const record = (await text(exportBody(pages([row({ answer: ' padded ' })]), 'csv'))).split('\r\n')[1];
    expect(record).toContain(',2," padded ",false,');
  });

  it('writes the header alone for an interview without answers', async () => {
    expect(await text(exportBody(pages(), 'csv'))).toBe(`\uFEFF${EXPORT_COLUMNS.join(',')}\r\n`);
  });

  it('fails the stream when a later page cannot be read, after what was read', async () => {
    async function* failing(): AsyncGenerator<ExportRow[]> {
      yield [row({})];
      throw new Error('connection lost');
    }
    const body = exportBody(failing(), 'csv');
    const received: string[] = [];
    body.on('data', (chunk: Buffer | string) => received.push(chunk.toString()));
    await expect(new Promise((resolve, reject) => body.on('end', resolve).on('error', reject))).rejects.toThrow('connection lost');
    expect(received.join('')).toContain('link-1,0,How did you find us?');
  });

  it('writes JSON Lines with the export columns in order', async () => {
    const lines = (await text(exportBody(pages([row({ answer: 'Line\nbreak' })]), 'jsonl'))).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    expect(Object.keys(JSON.parse(lines[0]) as object)).toEqual(EXPORT_COLUMNS);
    expect((JSON.parse(lines[0]) as ExportRow).answer).toBe('Line\nbreak');
  });
});
