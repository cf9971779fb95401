import { BadRequestException, StreamableFile } from '@nestjs/common';
import { Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ListAnswer, PagedList, answerList, decodeCursor, encodeCursor, namedCondition } from './keyset';
import { LIST_MAX_ROWS } from './limits';

interface Row {
  id: string;
  createdAt: Date;
}

/** A list of `n` rows served a page at a time as KeysetList serves them; `failAt` makes the n-th page call fail. */
function listOf(n: number, options: { failAt?: number; count?: number } = {}) {
  const rows: Row[] = Array.from({ length: n }, (_, i) => ({ id: `r${String(i).padStart(6, '0')}`, createdAt: new Date(Date.UTC(2026, 0, 1) + i) }));
  const calls = { pages: 0, counts: 0 };
  const list = {
    async page(limit: number, cursor?: string) {
      calls.pages++;
      if (calls.pages === options.failAt) throw new Error('database gone');
      const start = cursor === undefined ? 0 : rows.findIndex((r) => r.id === decodeCursor(cursor).id) + 1;
      const slice = rows.slice(start, start + limit);
      const more = start + limit < rows.length;
      return { rows: slice, next: more ? encodeCursor(slice[slice.length - 1].createdAt, slice[slice.length - 1].id) : undefined };
    },
    async countUpTo(max: number) {
      calls.counts++;
      return Math.min(options.count ?? rows.length, max);
    },
  } satisfies PagedList<Row>;
  return { list, rows, calls };
}

const ids = (items: { id: string }[]) => items.map((r) => r.id);

async function streamed(answer: ListAnswer<{ id: string }>): Promise<{ id: string }[]> {
  expect(answer).toBeInstanceOf(StreamableFile);
  const body = JSON.parse(await text((answer as StreamableFile).getStream())) as { result: { id: string }[] };
  return body.result;
}

describe(answerList.name, () => {
  const present = (rows: Row[]) => rows.map((r) => ({ id: r.id }));

  it('with limit, answers that page and the next page\'s cursor', async () => {
    const { list, rows } = listOf(25);
    const answer = await answerList({ limit: 10 }, list, present);
    expect(answer).toEqual({ items: ids(rows.slice(0, 10)).map((id) => ({ id })), next: expect.any(String) });
  });

  it('without limit, answers a list that fits one chunk as a page, without counting', async () => {
    const { list, rows, calls } = listOf(7);
    await expect(answerList({}, list, present, 10)).resolves.toEqual({ items: ids(rows).map((id) => ({ id })) });
    expect(calls).toEqual({ pages: 1, counts: 0 });
  });

  it('without limit, streams a longer list chunk by chunk as {"result": [...]}, every row once, in order', async () => {
    const { list, rows, calls } = listOf(95);
    const answer = await answerList({}, list, present, 10);
    // Nothing but the first chunk and the count is read before the answer starts.
    expect(calls).toEqual({ pages: 1, counts: 1 });
    expect(ids(await streamed(answer))).toEqual(ids(rows));
    expect(calls.pages).toBe(10);
  });

  it('writes each streamed item with the list\'s stringify when it gives one (JSON as stored), JSON.stringify otherwise', async () => {
    const { list, rows } = listOf(25);
    const tagged = (item: { id: string }) => JSON.stringify({ ...item, by: 'list' });
    const answer = await answerList({}, list, present, 10, tagged);
    expect(await streamed(answer)).toEqual(ids(rows).map((id) => ({ id, by: 'list' })));
    const plain = await answerList({}, listOf(25).list, present, 10);
    expect(await streamed(plain)).toEqual(ids(rows).map((id) => ({ id })));
  });

  it('reads the next chunk only when the client has taken the last one (memory bounded by a chunk)', async () => {
    const { list, calls } = listOf(95);
    const stream = ((await answerList({}, list, present, 10)) as StreamableFile).getStream();
    // A client that reads nothing yet: its socket takes the first chunk and then pushes back.
    let taken: () => void = () => undefined;
    const received: Buffer[] = [];
    const slowClient = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk);
        taken = done;
      },
    });
    stream.pipe(slowClient);
    // Every page read here settles within a turn of the event loop: twenty turns let any read-ahead happen.
    const turns = async () => {
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    await turns();
    // Written: the first chunk. Read: that one, the one the stream holds ready, and the one being fetched.
    expect({ written: received.length, pagesRead: calls.pages }).toEqual({ written: 1, pagesRead: 3 });
    // The client takes chunks one by one, and the list is read as it goes.
    while (!stream.readableEnded) {
      taken();
      await turns();
    }
    expect(calls.pages).toBe(10);
    expect(ids(JSON.parse(Buffer.concat(received).toString()).result)).toHaveLength(95);
  });

  it(`refuses with 400, before the first byte, a list of more than ${LIST_MAX_ROWS} rows`, async () => {
    const { list } = listOf(30, { count: LIST_MAX_ROWS + 1 });
    await expect(answerList({}, list, present, 10)).rejects.toThrow(BadRequestException);
  });

  it('fails the stream (the client sees a body cut short) when a later chunk cannot be read', async () => {
    const { list } = listOf(50, { failAt: 3 });
    const answer = (await answerList({}, list, present, 10)) as StreamableFile;
    await expect(text(answer.getStream())).rejects.toThrow('database gone');
  });
});

describe(namedCondition.name, () => {
  it('names the parameters in their order, each bound to its own value', () => {
    expect(namedCondition({ sql: '(w.org_id IN (?, ?) OR w.user_id = ?)', params: ['o1', 'o2', 'u1'] }, 'scope')).toEqual([
      '(w.org_id IN (:scope0, :scope1) OR w.user_id = :scope2)',
      { scope0: 'o1', scope1: 'o2', scope2: 'u1' },
    ]);
  });
});
