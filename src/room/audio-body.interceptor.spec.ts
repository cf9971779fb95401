import { ExecutionContext, HttpException } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, of } from 'rxjs';
import type { Recording } from '../voice/voice.service';
import { AudioBodyInterceptor } from './audio-body.interceptor';

/**
 * The interceptor in front of POST /i/{linkID}/audio, on a real HTTP server: what it makes of a body,
 * and what it refuses before a handler runs.
 */
describe(AudioBodyInterceptor.name, () => {
  const sut = new AudioBodyInterceptor();
  let server: Server;
  let url: string;
  let handled = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const context = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ExecutionContext;
      const handler = { handle: () => (handled++, of((req as unknown as { body: Recording }).body)) };
      lastValueFrom(sut.intercept(context, handler)).then(
        (recording) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ type: (recording as Recording).type, bytes: (recording as Recording).bytes.length })),
        (error: HttpException) => res.writeHead(error.getStatus(), { 'Content-Type': 'text/plain', Connection: 'close' }).end(error.message),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/i/link/audio`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (body: Uint8Array | undefined, type: string | null, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { ...(type === null ? {} : { 'Content-Type': type }), ...headers }, body });

  it('reads the recording into the body with its type, parameters dropped', async () => {
    const res = await post(new Uint8Array(5000).fill(1), 'audio/webm;codecs=opus');
    expect(res.status).toBe(200);
    await expect(res.json()).resolves.toEqual({ type: 'audio/webm', bytes: 5000 });
  });

  it('gives an empty recording when nothing was sent (the service refuses it by name)', async () => {
    const res = await post(undefined, 'audio/wav');
    await expect(res.json()).resolves.toEqual({ type: 'audio/wav', bytes: 0 });
  });

  it('refuses a Content-Type the room does not take with 415, before the handler', async () => {
    const before = handled;
    for (const type of ['application/json', 'audio/flac', 'multipart/form-data; boundary=x', null]) {
      const res = await post(new Uint8Array(10), type);
      expect({ type, status: res.status, text: await res.text() }).toEqual({ type, status: 415, text: expect.stringMatching(/^Content-Type must be one of audio\/webm/) });
    }
    expect(handled).toBe(before);
  });

  it('refuses more than 10 MiB with 413: at once by Content-Length, or as the bytes pass it', async () => {
    const before = handled;
    const declared = await post(new Uint8Array(10 * 1024 * 1024 + 1), 'audio/ogg');
    expect({ status: declared.status, text: await declared.text() }).toEqual({ status: 413, text: 'the recording is larger than 10 MiB' });
    // Chunked, without a length: counted as it arrives.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 11; i++) controller.enqueue(new Uint8Array(1024 * 1024));
        controller.close();
      },
    });
    const streamed = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'audio/mpeg' }, body: chunks, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(handled).toBe(before);
  });

  it('takes exactly 10 MiB', async () => {
    const res = await post(new Uint8Array(10 * 1024 * 1024), 'audio/mp4');
    await expect(res.json()).resolves.toEqual({ type: 'audio/mp4', bytes: 10 * 1024 * 1024 });
  });
});
