import { StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { ResultEnvelopeAdapter } from './result-envelope.adapter';

/** Replies `body` through the adapter on a real Express response; what a client receives. */
async function received(body: unknown, statusCode?: number): Promise<{ status: number; type: string | null; text: string }> {
  const sut = new ResultEnvelopeAdapter();
  const app = express();
  app.get('/', (_req, res: Response) => void sut.reply(res, body, statusCode));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  } finally {
    server.close();
  }
}

describe(ResultEnvelopeAdapter.name, () => {
  it('wraps an object in {result}', async () => {
    await expect(received({ id: 'p1', name: 'Acme Notes' }, 200)).resolves.toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      text: '{"result":{"id":"p1","name":"Acme Notes"}}',
    });
  });

  it('wraps arrays, empty arrays, strings and null', async () => {
    await expect(received([{ id: 'a' }, { id: 'b' }])).resolves.toMatchObject({ text: '{"result":[{"id":"a"},{"id":"b"}]}' });
    await expect(received([])).resolves.toMatchObject({ text: '{"result":[]}' });
    await expect(received('https://example.com/i/abc')).resolves.toMatchObject({ text: '{"result":"https://example.com/i/abc"}' });
    await expect(received(null)).resolves.toMatchObject({ text: '{"result":null}' });
  });

  it('answers a handler that returns nothing with an empty envelope', async () => {
    await expect(received(undefined, 201)).resolves.toEqual({ status: 201, type: 'application/json; charset=utf-8', text: '{}' });
  });

  it('sends a file as it is', async () => {
    await expect(received(new StreamableFile(Readable.from([Buffer.from('raw bytes')])))).resolves.toMatchObject({ status: 200, text: 'raw bytes' });
  });
});
