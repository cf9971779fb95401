import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a transcription request carried, as the stand-in parsed it from the multipart body. */
export interface ReceivedTranscription {
  authorization: string | null;
  contentType: string;
  model: string | null;
  language: string | null;
  responseFormat: string | null;
  /** Any form field the protocol does not have. */
  otherFields: string[];
  file: { name: string; type: string; bytes: Buffer } | null;
}

/** How the stand-in answers one transcription: a text (with the duration verbose_json reports), an HTTP error, or no answer at all. */
export type TranscriptionBehaviour = { text: string; duration?: number } | { status: number } | { hang: true };

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function close(server: Server, hanging: Set<ServerResponse>): Promise<void> {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * A stand-in for an OpenAI-compatible transcription server (speaches, whisper.cpp's server):
 * `POST /v1/audio/transcriptions`, multipart/form-data with `file`, `model`, `language` and
 * `response_format`, parsed by the platform's own multipart parser (undici's Response.formData), and
 * answered as the protocol answers: `{text}` for json, `{text, language, duration, segments}` for
 * verbose_json. It keeps what it received, and answers as each test tells it to (`next`), the
 * default being `otherwise`.
 */
export class StandInTranscriber {
  readonly received: ReceivedTranscription[] = [];
  /** Answers for the next requests, first one first; when none is queued, `otherwise`. */
  readonly next: TranscriptionBehaviour[] = [];
  otherwise: TranscriptionBehaviour = { text: 'It helps me plan my week.' };
  private readonly hanging = new Set<ServerResponse>();

  private readonly server: Server = createServer((req, res) => void this.handle(req, res));
  /** The base URL to configure, like an OpenAI-compatible server's: http://127.0.0.1:<port>/v1. */
  url = '';

  static async start(): Promise<StandInTranscriber> {
    const sut = new StandInTranscriber();
    sut.url = await listen(sut.server);
    return sut;
  }

  close(): Promise<void> {
    return close(this.server, this.hanging);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const contentType = req.headers['content-type'] ?? '';
    let form: FormData;
    try {
      form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"error":{"message":"not multipart/form-data"}}');
      return;
    }
    const file = form.get('file');
    const text = (name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : null);
    this.received.push({
      authorization: req.headers.authorization ?? null,
      contentType,
      model: text('model'),
      language: text('language'),
      responseFormat: text('response_format'),
      otherFields: [...new Set(form.keys())].filter((k) => !['file', 'model', 'language', 'response_format'].includes(k)),
      file: file instanceof Blob ? { name: (file as File).name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) } : null,
    });
    const behaviour = this.next.shift() ?? this.otherwise;
    if ('hang' in behaviour) {
      this.hanging.add(res);
      return;
    }
    if ('status' in behaviour) {
      res.writeHead(behaviour.status, { 'Content-Type': 'application/json' }).end('{"error":{"message":"the model is not loaded"}}');
      return;
    }
    const verbose = text('response_format') === 'verbose_json';
    const duration = behaviour.duration ?? 2.4;
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify(verbose ? { task: 'transcribe', language: text('language'), duration, text: behaviour.text, segments: [{ id: 0, start: 0, end: duration, text: behaviour.text }] } : { text: behaviour.text }));
  }
}

/** What a speech request carried. */
export interface ReceivedSpeech {
  authorization: string | null;
  body: { model?: unknown; voice?: unknown; input?: unknown; response_format?: unknown; [key: string]: unknown };
}

/**
 * `seconds` of silence as MPEG-1 Layer III: frames of 128 kbit/s at 44.1 kHz whose side information is
 * all zero (no audio data), which every MP3 decoder plays as silence. What an OpenAI-compatible
 * speech server returns for `response_format: "mp3"`, without an encoder on the machine.
 */
export function silentMp3(seconds: number): Buffer {
  const frames = Math.max(1, Math.ceil((seconds * 44_100) / 1152));
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/**
 * A stand-in for an OpenAI-compatible speech server (speaches, LocalAI): `POST /v1/audio/speech` with
 * JSON `{model, voice, input, response_format}`, answered with MP3 audio (silence, longer the longer
 * the input), or with the HTTP error a test sets in `failWith`.
 */
export class StandInSpeaker {
  readonly received: ReceivedSpeech[] = [];
  failWith: number | null = null;

  private readonly server: Server = createServer((req, res) => void this.handle(req, res));
  /** The base URL to configure, like an OpenAI-compatible server's: http://127.0.0.1:<port>/v1. */
  url = '';

  static async start(): Promise<StandInSpeaker> {
    const sut = new StandInSpeaker();
    sut.url = await listen(sut.server);
    return sut;
  }

  close(): Promise<void> {
    return close(this.server, new Set());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/audio/speech' || !String(req.headers['content-type']).startsWith('application/json')) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(raw.toString('utf8')) as ReceivedSpeech['body'];
    this.received.push({ authorization: req.headers.authorization ?? null, body });
    if (this.failWith !== null) {
      res.writeHead(this.failWith, { 'Content-Type': 'application/json' }).end('{"error":{"message":"voice not found"}}');
      return;
    }
    const audio = silentMp3(Math.min(3, 0.3 + String(body.input).length / 60));
    res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Content-Length': audio.length }).end(audio);
  }
}

/** A WAV file of `text` spoken by espeak-ng (installed with the browser tests' tools), at 22,050 Hz, 16-bit mono. */
export function spokenWav(text: string, voice = 'en'): Buffer {
  const file = join(tmpdir(), `irs-espeak-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.wav`);
  try {
    execFileSync('espeak-ng', ['-v', voice, '-w', file, text], { stdio: 'ignore', timeout: 30_000 });
    return readFileSync(file);
  } finally {
    rmSync(file, { force: true });
  }
}

/** `seconds` of silence as a 16 kHz, 16-bit mono WAV file (large recordings without running espeak-ng for minutes). */
export function silentWav(seconds: number, rate = 16_000): Buffer {
  const data = Math.round(seconds * rate) * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}
