import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metrics } from '../metrics/metrics.service';
import type { ConfigType } from '@nestjs/config';
import type { voiceConfig } from './voice.config';
import {
  EmptyRecordingException,
  NoSpeechException,
  NotThatAudioException,
  RecordingTooLargeException,
  RecordingTooLongException,
  TranscriberUnavailableException,
  VoiceUnavailableException,
} from './voice.errors';
import { VoiceService } from './voice.service';

/** `seconds` of silence as a 16 kHz, 16-bit mono WAV file. */
function wav(seconds: number): Buffer {
  const data = Math.round(seconds * 16_000) * 2;
  const header = Buffer.alloc(44);
  header.write('RIFFxxxxWAVEfmt ', 0, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

const WEBM = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]);
const metrics = new Metrics({ port: null });
const transcriberAt = (baseUrl: string): ConfigType<typeof voiceConfig> => ({ transcriber: { baseUrl, model: 'm', apiKey: null, timeoutMs: 1000, responseFormat: 'verbose_json' }, speaker: null });

describe(VoiceService.name, () => {
  describe('checkRecording: the audio route\'s limits before anything is sent anywhere', () => {
    const sut = new VoiceService({ transcriber: null, speaker: null }, metrics);

    it('takes a WAV of up to 180 s and a WebM of any stated length', () => {
      expect(() => sut.checkRecording({ type: 'audio/wav', bytes: wav(180) })).not.toThrow();
      expect(() => sut.checkRecording({ type: 'audio/webm', bytes: WEBM })).not.toThrow();
    });

    it('refuses an empty recording, one over 10 MiB, one longer than 180 s, and bytes of another type', () => {
      expect(() => sut.checkRecording({ type: 'audio/webm', bytes: Buffer.alloc(0) })).toThrow(EmptyRecordingException);
      expect(() => sut.checkRecording({ type: 'audio/webm', bytes: Buffer.concat([WEBM, Buffer.alloc(10 * 1024 * 1024)]) })).toThrow(RecordingTooLargeException);
      expect(() => sut.checkRecording({ type: 'audio/wav', bytes: wav(180.5) })).toThrow(RecordingTooLongException);
      expect(() => sut.checkRecording({ type: 'audio/webm', bytes: wav(1) })).toThrow(NotThatAudioException);
      expect(() => sut.checkRecording({ type: 'audio/wav', bytes: WEBM })).toThrow(new NotThatAudioException('audio/wav'));
    });

    it('says voice interviews cannot run without a transcriber', () => {
      expect(sut.canTranscribe).toBe(false);
      expect(() => sut.assertVoiceAvailable()).toThrow(VoiceUnavailableException);
      expect(sut.modes()).toEqual([
        { mode: 'text', available: true, questionsSpokenBy: null },
        { mode: 'voice', available: false, questionsSpokenBy: 'browser' },
      ]);
    });
  });

  describe('transcribe', () => {
    let server: Server;
    let baseUrl: string;
    let answer: (res: import('node:http').ServerResponse) => void;

    beforeAll(async () => {
      server = createServer((req, res) => {
        req.resume();
        req.on('end', () => answer(res));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    const json = (body: unknown, status = 200) => (res: import('node:http').ServerResponse) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

    it('answers the text, trimmed', async () => {
      answer = json({ text: '  It helps me plan.  ', duration: 3.2 });
      await expect(new VoiceService(transcriberAt(baseUrl), metrics).transcribe({ type: 'audio/webm', bytes: WEBM }, 'en')).resolves.toBe('It helps me plan.');
    });

    it.each([
      ['an HTTP error', json({ error: { message: 'no model' } }, 500)],
      ['an answer that is not the protocol\'s', json({ transcript: 'x' })],
      ['an answer that is not JSON', (res: import('node:http').ServerResponse) => res.writeHead(200).end('It helps me plan.')],
      ['no answer within timeoutMs', () => undefined],
    ])('is unavailable (503) on %s', async (_what, respond) => {
      answer = respond;
      await expect(new VoiceService(transcriberAt(baseUrl), metrics).transcribe({ type: 'audio/webm', bytes: WEBM }, 'en')).rejects.toThrow(TranscriberUnavailableException);
    });

    it('refuses a recording the transcriber reports longer than 180 s (413), and one with no words (400)', async () => {
      answer = json({ text: 'A long story.', duration: 181 });
      await expect(new VoiceService(transcriberAt(baseUrl), metrics).transcribe({ type: 'audio/webm', bytes: WEBM }, 'en')).rejects.toThrow(RecordingTooLongException);
      answer = json({ text: ' ' });
      await expect(new VoiceService(transcriberAt(baseUrl), metrics).transcribe({ type: 'audio/webm', bytes: WEBM }, 'en')).rejects.toThrow(NoSpeechException);
    });

    it('is unavailable without a transcriber', async () => {
      await expect(new VoiceService({ transcriber: null, speaker: null }, metrics).transcribe({ type: 'audio/webm', bytes: WEBM }, 'en')).rejects.toThrow(TranscriberUnavailableException);
    });
  });
});
