import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { ConfigError } from '../src/config/config-error';
import { ENGINE } from '../src/config/engine';
import { MetricsServer } from '../src/metrics/metrics-server';
import { RetentionSweeper } from '../src/participants/retention-sweeper';
import { TestApp, adminToken, bearer, expectError, scopedToken, startApp, uniq } from './helpers/app';
import { BuiltServer, builtMain } from './helpers/built-server';
import { migratedDatabase } from './helpers/migrated-database';
import { OtlpReceiver, ReceivedSpan } from './helpers/otlp-receiver';
import { makeInterview, makeProduct } from './helpers/factories';
import { scrape, valueOf } from './helpers/prometheus';
import { StandInSpeaker, StandInTranscriber, silentMp3, silentWav, spokenWav } from './helpers/speech-servers';
import { waitFor } from './helpers/wait';

const KEY = 'sk-e2e-speech-0123456789';
const SPOKEN = 'Mostly on Monday mornings, to plan the week ahead.';
const GUIDELINES = '1. When do you use it?\n2. What would you change first?';
/** The first bytes of a WebM file (an EBML header), as MediaRecorder starts every recording. */
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]), Buffer.alloc(2000, 7)]);
const DAY = 24 * 60 * 60 * 1000;

/** supertest: audio as bytes; an error's JSON as JSON. */
const bytes = (res: Response, done: (error: Error | null, body: unknown) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => {
    const body = Buffer.concat(chunks);
    done(null, String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(body.toString('utf8')) : body);
  });
};

const transcriberEnv = (url: string, extra: Record<string, unknown> = {}) => JSON.stringify({ baseUrl: url, model: 'Systran/faster-whisper-small', apiKeyEnv: 'IRS_E2E_SPEECH_KEY', timeoutMs: 10_000, ...extra });
const speakerEnv = (url: string) => JSON.stringify({ baseUrl: url, model: 'kokoro', voice: 'af_heart', voices: { de: 'de_thorsten' }, apiKeyEnv: 'IRS_E2E_SPEECH_KEY' });

describe('Voice interviews', () => {
  let transcriber: StandInTranscriber;
  let speaker: StandInSpeaker;
  let t: TestApp;
  let admin: string;
  let orgID: string;
  let productID: string;
  let spoken: Buffer;

  beforeAll(async () => {
    transcriber = await StandInTranscriber.start();
    speaker = await StandInSpeaker.start();
    t = await startApp({ TRANSCRIBER: transcriberEnv(transcriber.url), SPEAKER: speakerEnv(speaker.url), IRS_E2E_SPEECH_KEY: KEY, METRICS_PORT: '0' });
    admin = await adminToken(t);
    orgID = uniq('org');
    productID = await makeProduct(t, admin, { orgID, name: 'Lumen Notes' });
    spoken = spokenWav(SPOKEN);
  });

  afterAll(async () => {
    await t?.close();
    await transcriber?.close();
    await speaker?.close();
  });

  beforeEach(() => {
    transcriber.next.length = 0;
    transcriber.otherwise = { text: SPOKEN };
    speaker.failWith = null;
  });

  const voiceInterview = (settings: Record<string, unknown> = {}) => makeInterview(t, admin, productID, { guidelines: GUIDELINES, mode: 'voice', ...settings });

  /** A started invite of the interview (in `language` when given): its linkID. */
  async function startedInvite(interviewID: string, options: { language?: string; email?: string } = {}): Promise<string> {
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin)).expect(200);
    const linkID = (res.body.result[0] as string).split('/').pop()!;
    await t.http
      .post(`/i/${linkID}/start`)
      .send({ name: 'Maya Patel', email: options.email ?? 'maya@example.com', consent: true, ...(options.language ? { language: options.language } : {}) })
      .expect(200);
    return linkID;
  }

  const sendAudio = (linkID: string, body: Buffer, type: string | null, app: TestApp = t) => {
    const req = app.http.post(`/i/${linkID}/audio`);
    if (type !== null) req.set('Content-Type', type);
    return req.send(body);
  };
  const conversationOf = async (linkID: string) => (await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin)).expect(200)).body.result.conversation as { role: string; content: string }[];
  const keptParts = async (linkID: string) => Number((await t.db.query('SELECT COUNT(*) AS n FROM invite_audio WHERE link_id = ?', [linkID]))[0].n);
  const getAudio = (query: Record<string, unknown>, token = admin) => t.http.get('/v1/invites/getAudio').query(query).set(bearer(token)).buffer(true).parse(bytes);

  describe('GET /v1/interviewers/getModes', () => {
    it('says voice interviews can run, their questions spoken by the speech server, when both servers are configured', async () => {
      const res = await t.http.get('/v1/interviewers/getModes').set(bearer(admin)).expect(200);
      expect(res.body).toEqual({
        result: [
          { mode: 'text', available: true, questionsSpokenBy: null },
          { mode: 'voice', available: true, questionsSpokenBy: 'server' },
        ],
      });
      // Never where the servers are, which models, or their key.
      expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|whisper|kokoro|sk-e2e/);
    });

    it('takes no parameters and needs a token', async () => {
      expectError(await t.http.get('/v1/interviewers/getModes').query({ mode: 'voice' }).set(bearer(admin)), 400, /mode/);
      expectError(await t.http.get('/v1/interviewers/getModes'), 401);
    });
  });

  describe('without a transcriber or a speaker', () => {
    let plain: TestApp;
    let plainAdmin: string;

    beforeAll(async () => {
      plain = await startApp();
      plainAdmin = await adminToken(plain);
    });

    afterAll(() => plain.close());

    it('getModes says voice cannot run, and that the browser would speak', async () => {
      const res = await plain.http.get('/v1/interviewers/getModes').set(bearer(plainAdmin)).expect(200);
      expect(res.body.result).toEqual([
        { mode: 'text', available: true, questionsSpokenBy: null },
        { mode: 'voice', available: false, questionsSpokenBy: 'browser' },
      ]);
    });

    it('refuses mode voice (400 naming the transcriber) on addOne and updateOne, and writes nothing', async () => {
      const product = await makeProduct(plain, plainAdmin, { orgID: uniq('org') });
      const before = Number((await plain.db.query('SELECT COUNT(*) AS n FROM interviews'))[0].n);
      const refused = await plain.http.post('/v1/interviews/addOne').set(bearer(plainAdmin)).send({ productID: product, interviewName: 'Spoken', mode: 'voice' });
      expectError(refused, 400, /^mode "voice" needs a transcriber.*TRANSCRIBER/);
      expect(Number((await plain.db.query('SELECT COUNT(*) AS n FROM interviews'))[0].n)).toBe(before);

      const interviewID = await makeInterview(plain, plainAdmin, product);
      expectError(await plain.http.post('/v1/interviews/updateOne').set(bearer(plainAdmin)).send({ interviewID, mode: 'voice' }), 400, /TRANSCRIBER/);
      const read = await plain.http.get('/v1/interviews/getOne').query({ interviewID }).set(bearer(plainAdmin)).expect(200);
      expect(read.body.result).toMatchObject({ mode: 'text', keepAudio: false });
    });

    it('holds an interview made in voice mode in text once the transcriber is gone, and has no speech for it', async () => {
      const interviewID = await voiceInterview();
      const linkID = await startedInvite(interviewID);
      // The same database, read by a service configured without speech servers.
      const session = await plain.http.get(`/i/${linkID}/session`).expect(200);
      expect(session.body.result).toMatchObject({ mode: 'text', questionsSpokenBy: null });
      expectError(await sendAudio(linkID, spoken, 'audio/wav', plain), 409, /held in text/);
      expectError(await plain.http.get(`/i/${linkID}/speech/1`), 404, /no spoken interviewer turn/);
      expect(await conversationOf(linkID)).toHaveLength(2);
    });
  });

  describe('interviews: mode and keepAudio', () => {
    it('are text and false unless set; null sets them back', async () => {
      const interviewID = await makeInterview(t, admin, productID);
      const get = async () => (await t.http.get('/v1/interviews/getOne').query({ interviewID }).set(bearer(admin)).expect(200)).body.result;
      expect(await get()).toMatchObject({ mode: 'text', keepAudio: false });
      await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, mode: 'voice', keepAudio: true }).expect(200);
      expect(await get()).toMatchObject({ mode: 'voice', keepAudio: true });
      await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID, mode: null, keepAudio: null }).expect(200);
      expect(await get()).toMatchObject({ mode: 'text', keepAudio: false });
    });

    it('refuses a mode other than text or voice, and a keepAudio that is not a boolean', async () => {
      const base = { productID, interviewName: 'Spoken' };
      expectError(await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send({ ...base, mode: 'video' }), 400, /^mode must be one of text, voice$/);
      expectError(await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send({ ...base, keepAudio: 'yes' }), 400, /^keepAudio must be true or false$/);
    });

    it('refuses keepAudio with redactPII, whichever is set second: a recording holds what redaction removes', async () => {
      const both = await t.http.post('/v1/interviews/addOne').set(bearer(admin)).send({ productID, interviewName: 'Spoken', mode: 'voice', keepAudio: true, redactPII: true });
      expectError(both, 400, /^keepAudio cannot be true while redactPII is true/);
      const kept = await voiceInterview({ keepAudio: true });
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID: kept, redactPII: true }), 400, /keepAudio cannot be true while redactPII/);
      const redacted = await voiceInterview({ redactPII: true });
      expectError(await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID: redacted, keepAudio: true }), 400, /keepAudio cannot be true while redactPII/);
      // Both changed at once, the other way round, is fine.
      await t.http.post('/v1/interviews/updateOne').set(bearer(admin)).send({ interviewID: redacted, keepAudio: true, redactPII: false }).expect(200);
    });
  });

  describe('start-up', () => {
    it.each([
      [{ TRANSCRIBER: '{"baseUrl": "http://x/v1",' }, /^TRANSCRIBER is not valid JSON/],
      [{ TRANSCRIBER: JSON.stringify({ baseUrl: 'http://x/v1', model: 'm', apiKeyEnv: 'IRS_E2E_UNSET_SPEECH_KEY' }) }, /^TRANSCRIBER: apiKeyEnv names IRS_E2E_UNSET_SPEECH_KEY, which is not set$/],
      [{ SPEAKER: JSON.stringify({ baseUrl: 'http://x/v1', model: 'm' }) }, /^SPEAKER: voice is required$/],
      [{ SPEAKER: JSON.stringify({ baseUrl: 'http://x/v1', model: 'm', voice: 'v', speed: 2 }) }, /^SPEAKER: unknown field "speed"/],
    ])('refuses to start with %p', async (env, message) => {
      await expect(startApp(env)).rejects.toThrow(ConfigError);
      await expect(startApp(env)).rejects.toThrow(message);
    });

    it('the built server stops with one line naming the variable, and exit code 1', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'irs-voice-start-'));
      try {
        const child = spawn(process.execPath, [builtMain()], {
          cwd: dir,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_PATH: join(__dirname, '..', 'node_modules'), DATABASE_URL: `sqlite:${join(dir, 'd.sqlite')}`, TRANSCRIBER: JSON.stringify({ baseUrl: 'http://localhost:8000/v1', model: 'm', apiKeyEnv: 'NO_SUCH_KEY' }) },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
        expect({ code, stderr }).toEqual({ code: 1, stderr: 'Configuration error: TRANSCRIBER: apiKeyEnv names NO_SUCH_KEY, which is not set\n' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  });

  describe('POST /i/{linkID}/audio', () => {
    it("transcribes the recording in the invite's language and stores the text as the answer, answering as reply does", async () => {
      const interviewID = await voiceInterview();
      const linkID = await startedInvite(interviewID, { language: 'de' });
      const res = await sendAudio(linkID, spoken, 'audio/wav').expect(200);
      expect(res.body.result).toEqual({
        status: 'started',
        turns: [
          { role: 'interviewee', content: SPOKEN },
          { role: 'interviewer', content: 'What would you change first?' },
        ],
        progress: { asked: 2, total: 2 },
        redirectUrl: null,
      });
      // The stand-in got the real protocol: the recording as it was sent, the model, the invite's language.
      expect(transcriber.received.at(-1)).toEqual({
        authorization: `Bearer ${KEY}`,
        contentType: expect.stringMatching(/^multipart\/form-data; boundary=/),
        model: 'Systran/faster-whisper-small',
        language: 'de',
        responseFormat: 'verbose_json',
        otherFields: [],
        file: { name: 'answer.wav', type: 'audio/wav', bytes: spoken },
      });
      expect((await conversationOf(linkID)).slice(2)).toEqual(res.body.result.turns);
      // The interview does not keep audio: nothing of the recording was written.
      expect(await keptParts(linkID)).toBe(0);
    });

    it('takes what browsers record, with its parameters (audio/webm;codecs=opus)', async () => {
      const linkID = await startedInvite(await voiceInterview());
      await sendAudio(linkID, WEBM, 'audio/webm;codecs=opus').expect(200);
      expect(transcriber.received.at(-1)).toMatchObject({ language: 'en', file: { name: 'answer.webm', type: 'audio/webm', bytes: WEBM } });
    });

    it('redacts the transcript first when the interview has redactPII', async () => {
      const linkID = await startedInvite(await voiceInterview({ redactPII: true }));
      transcriber.next.push({ text: 'Write to me at maya.patel@example.com any time.' });
      const res = await sendAudio(linkID, spoken, 'audio/wav').expect(200);
      expect(res.body.result.turns[0]).toEqual({ role: 'interviewee', content: 'Write to me at [email] any time.' });
      expect(JSON.stringify(await conversationOf(linkID))).not.toContain('maya.patel@example.com');
    });

    it('refuses other Content-Types with 415 before reading or transcribing anything, and stores nothing', async () => {
      const linkID = await startedInvite(await voiceInterview());
      const calls = transcriber.received.length;
      for (const type of ['application/json', 'text/plain', 'audio/flac', 'video/webm', 'application/octet-stream', null]) {
        const body = type === 'application/json' ? Buffer.from('{"content":"typed"}') : spoken;
        expectError(await sendAudio(linkID, body, type), 415, /^Content-Type must be one of audio\/webm, audio\/ogg, audio\/mp4, audio\/mpeg, audio\/wav/);
      }
      expect(transcriber.received.length).toBe(calls);
      expect(await conversationOf(linkID)).toHaveLength(2);
    });

    it('refuses a recording over 10 MiB or 180 s with 413, and stores nothing', async () => {
      const linkID = await startedInvite(await voiceInterview({ keepAudio: true }));
      const calls = transcriber.received.length;
      expectError(await sendAudio(linkID, Buffer.concat([WEBM, Buffer.alloc(10 * 1024 * 1024)]), 'audio/webm'), 413, /larger than 10 MiB/);
      // A WAV file says how long it is: refused without asking the transcriber.
      expectError(await sendAudio(linkID, silentWav(181), 'audio/wav'), 413, /longer than 180 seconds/);
      expect(transcriber.received.length).toBe(calls);
      // A WebM recording does not: the transcriber's reported duration decides.
      transcriber.next.push({ text: SPOKEN, duration: 195.5 });
      expectError(await sendAudio(linkID, WEBM, 'audio/webm'), 413, /longer than 180 seconds/);
      expect(transcriber.received.length).toBe(calls + 1);
      expect(await conversationOf(linkID)).toHaveLength(2);
      expect(await keptParts(linkID)).toBe(0);
    });

    it('refuses an empty recording, one that is not of its type, and one without speech (400), storing nothing', async () => {
      const linkID = await startedInvite(await voiceInterview());
      expectError(await sendAudio(linkID, Buffer.alloc(0), 'audio/webm'), 400, /the recording is empty/);
      expectError(await sendAudio(linkID, spoken, 'audio/webm'), 400, /^the recording is not audio\/webm data/);
      transcriber.next.push({ text: '  ' });
      expectError(await sendAudio(linkID, spoken, 'audio/wav'), 400, /^no speech was recognised/);
      expect(await conversationOf(linkID)).toHaveLength(2);
    });

    it('answers 409 for a text interview or an invite not started, and 404 for an unknown link', async () => {
      const text = await startedInvite(await makeInterview(t, admin, productID));
      expectError(await sendAudio(text, spoken, 'audio/wav'), 409, /held in text, not by voice/);
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID: await voiceInterview(), count: 1 }).set(bearer(admin)).expect(200);
      const pending = (res.body.result[0] as string).split('/').pop()!;
      expectError(await sendAudio(pending, spoken, 'audio/wav'), 409, /is pending; that needs it started/);
      const unknown = await sendAudio('no-such-link-0123456789', spoken, 'audio/wav');
      expectError(unknown, 404, /no interview at this link/);
      expect(JSON.stringify(unknown.body)).not.toContain('no-such-link');
    });

    it('answers 503 with Retry-After when the transcriber fails and stores nothing; the same recording again is stored', async () => {
      const linkID = await startedInvite(await voiceInterview({ keepAudio: true }));
      transcriber.next.push({ status: 500 });
      const failed = await sendAudio(linkID, spoken, 'audio/wav');
      expectError(failed, 503, /could not be transcribed just now; nothing was stored/);
      expect(Number(failed.headers['retry-after'])).toBeGreaterThan(0);
      expect(await conversationOf(linkID)).toHaveLength(2);
      expect(await keptParts(linkID)).toBe(0);

      const again = await sendAudio(linkID, spoken, 'audio/wav').expect(200);
      expect(again.body.result.turns[0]).toEqual({ role: 'interviewee', content: SPOKEN });
      expect(await conversationOf(linkID)).toHaveLength(4);
      expect(await keptParts(linkID)).toBe(1);
    });
  });

  describe('a transcriber that does not answer, and rate limits', () => {
    let slow: TestApp;

    beforeAll(async () => {
      slow = await startApp({ TRANSCRIBER: transcriberEnv(transcriber.url, { timeoutMs: 1000 }), IRS_E2E_SPEECH_KEY: KEY, ROOM_LINK_RATE_LIMIT_MAX: '3' });
    });

    afterAll(() => slow.close());

    it('answers 503 once the transcriber has taken timeoutMs, and stores nothing; the link is limited like reply, before its body is read', async () => {
      const slowAdmin = await adminToken(slow);
      const interviewID = await makeInterview(slow, slowAdmin, await makeProduct(slow, slowAdmin, { orgID: uniq('org') }), { mode: 'voice' });
      const res = await slow.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(slowAdmin)).expect(200);
      const linkID = (res.body.result[0] as string).split('/').pop()!;
      await slow.http.post(`/i/${linkID}/start`).send({ name: 'Maya', email: 'maya@example.com', consent: true }).expect(200);

      transcriber.next.push({ hang: true });
      const started = Date.now();
      expectError(await sendAudio(linkID, spoken, 'audio/wav', slow), 503, /could not be transcribed/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      const conversation = (await slow.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(slowAdmin))).body.result.conversation;
      expect(conversation).toHaveLength(2);

      // The link's 3 requests: start, the timed-out recording, this one; the fourth is 429.
      await sendAudio(linkID, spoken, 'audio/wav', slow).expect(200);
      const calls = transcriber.received.length;
      const limited = await sendAudio(linkID, spoken, 'audio/wav', slow);
      expectError(limited, 429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(transcriber.received.length).toBe(calls);
    });
  });

  describe('kept recordings: GET /v1/invites/getAudio', () => {
    it('keeps the recording of each voice answer with its invite, and gives it back byte for byte, outside the envelope', async () => {
      const interviewID = await voiceInterview({ keepAudio: true });
      const linkID = await startedInvite(interviewID);
      // Over 1 MiB: stored in parts, joined again on the way out.
      const long = silentWav(42);
      await sendAudio(linkID, long, 'audio/wav').expect(200);
      await sendAudio(linkID, WEBM, 'audio/webm;codecs=opus').expect(200);
      expect(await keptParts(linkID)).toBe(3);

      const first = await getAudio({ linkID, turnIndex: 2 }).expect(200);
      expect(first.headers['content-type']).toBe('audio/wav');
      expect(first.headers['content-disposition']).toBe(`attachment; filename="${linkID}-2.wav"`);
      expect(Number(first.headers['content-length'])).toBe(long.length);
      expect(Buffer.compare(first.body as Buffer, long)).toBe(0);
      const second = await getAudio({ linkID, turnIndex: 4 }).expect(200);
      expect(second.headers['content-type']).toBe('audio/webm');
      expect(Buffer.compare(second.body as Buffer, WEBM)).toBe(0);
      // The turn indexes are those of the answers in getAnswers.
      const answers = await t.http.get('/v1/interviews/getAnswers').query({ interviewID }).set(bearer(admin)).expect(200);
      expect(answers.body.result.map((a: { turnIndex: number }) => a.turnIndex)).toEqual([2, 4]);
    });

    it('answers 404 for a turn without a recording (a typed answer, a question), for another tenant, and 400 for a bad turnIndex', async () => {
      const linkID = await startedInvite(await voiceInterview({ keepAudio: true }));
      await t.http.post(`/i/${linkID}/reply`).send({ content: 'Typed instead, on the train.' }).expect(200);
      expectError(await getAudio({ linkID, turnIndex: 2 }), 404, new RegExp(`^no recording is kept for turn 2 of invite "${linkID}"$`));
      expectError(await getAudio({ linkID, turnIndex: 1 }), 404, /no recording is kept for turn 1/);
      await sendAudio(linkID, spoken, 'audio/wav').expect(200);
      await getAudio({ linkID, turnIndex: 4 }).expect(200);
      const stranger = await scopedToken(t, { orgID: uniq('org') });
      expectError(await getAudio({ linkID, turnIndex: 4 }, stranger), 404, /^invite ".*" not found$/);
      const own = await scopedToken(t, { orgID });
      await getAudio({ linkID, turnIndex: 4 }, own).expect(200);
      expectError(await getAudio({ linkID, turnIndex: 100_000 }), 400, /^turnIndex must be from 0 to 99999$/);
      expectError(await getAudio({ linkID, turnIndex: -1 }), 400, /^turnIndex must be a whole number$/);
      expectError(await getAudio({ linkID, turnIndex: 'two' }), 400, /turnIndex must be a whole number/);
      expectError(await getAudio({ linkID }), 400, /turnIndex is required/);
      expectError(await t.http.get('/v1/invites/getAudio').query({ linkID, turnIndex: 4 }), 401);
    });

    it('erases the recordings with the transcript: participants/erase', async () => {
      const email = `erase.${uniq('p')}@example.com`;
      const linkID = await startedInvite(await voiceInterview({ keepAudio: true }), { email });
      await sendAudio(linkID, spoken, 'audio/wav').expect(200);
      expect(await keptParts(linkID)).toBe(1);
      await t.http.post('/v1/participants/erase').set(bearer(admin)).send({ email, orgID }).expect(200);
      expect(await keptParts(linkID)).toBe(0);
      expectError(await getAudio({ linkID, turnIndex: 2 }), 404);
      expect(await conversationOf(linkID)).toEqual([]);
    });

    it('erases the recordings with the transcript: retention', async () => {
      const linkID = await startedInvite(await voiceInterview({ keepAudio: true, retentionDays: 1 }));
      await sendAudio(linkID, spoken, 'audio/wav').expect(200);
      await t.http.post(`/i/${linkID}/end`).send({}).expect(200);
      expect(await keptParts(linkID)).toBe(1);
      await t.app.get(RetentionSweeper).sweep(new Date(Date.now() + 2 * DAY));
      expect(await keptParts(linkID)).toBe(0);
      expect(await conversationOf(linkID)).toEqual([]);
    });

    it('deletes the recordings with the invites: interviews/deleteOne and products/deleteOne with cascade', async () => {
      const interviewID = await voiceInterview({ keepAudio: true });
      const linkID = await startedInvite(interviewID);
      await sendAudio(linkID, spoken, 'audio/wav').expect(200);
      await t.http.post('/v1/interviews/deleteOne').set(bearer(admin)).send({ interviewID, cascade: true }).expect(200);
      expect(await keptParts(linkID)).toBe(0);

      const product = await makeProduct(t, admin, { orgID });
      const other = await startedInvite(await makeInterview(t, admin, product, { mode: 'voice', keepAudio: true }));
      await sendAudio(other, spoken, 'audio/wav').expect(200);
      await t.http.post('/v1/products/deleteOne').set(bearer(admin)).send({ productID: product, cascade: true }).expect(200);
      expect(await keptParts(other)).toBe(0);
    });
  });

  describe('GET /i/{linkID}/speech/{turnIndex}', () => {
    const speech = (linkID: string, turnIndex: number | string, app: TestApp = t) => app.http.get(`/i/${linkID}/speech/${turnIndex}`).buffer(true).parse(bytes);

    it("speaks an interviewer turn with the speech server, in the voice of the invite's language", async () => {
      const linkID = await startedInvite(await voiceInterview(), { language: 'de' });
      const [, opening] = await conversationOf(linkID);
      const res = await speech(linkID, 1).expect(200);
      expect(res.headers['content-type']).toBe('audio/mpeg');
      expect(Buffer.compare((res.body as Buffer).subarray(0, 4), silentMp3(0.1).subarray(0, 4))).toBe(0);
      expect(speaker.received.at(-1)).toEqual({ authorization: `Bearer ${KEY}`, body: { model: 'kokoro', voice: 'de_thorsten', input: opening.content, response_format: 'mp3' } });
    });

    it('speaks the closing turn of a completed interview too', async () => {
      const linkID = await startedInvite(await voiceInterview());
      await t.http.post(`/i/${linkID}/reply`).send({ content: 'On Monday mornings, every single week of the year.' }).expect(200);
      await t.http.post(`/i/${linkID}/reply`).send({ content: 'The search, which never finds what I wrote last week.' }).expect(200);
      const last = await t.http.post(`/i/${linkID}/reply`).send({ content: 'No, nothing else to add.' }).expect(200);
      expect(last.body.result.status).toBe('completed');
      const turns = await conversationOf(linkID);
      await speech(linkID, turns.length - 1).expect(200);
      expect(speaker.received.at(-1)!.body).toMatchObject({ voice: 'af_heart', input: turns.at(-1)!.content });
    });

    it('answers 404 for every other turn or invite, never repeating the link', async () => {
      const linkID = await startedInvite(await voiceInterview());
      await t.http.post(`/i/${linkID}/reply`).send({ content: 'Mostly on Monday mornings, to plan the week.' }).expect(200);
      const calls = speaker.received.length;
      for (const turnIndex of [0, 2, 99, 'one', '1.5', -1]) {
        const res = await speech(linkID, turnIndex);
        expectError(res, 404, /^there is no spoken interviewer turn at this index of this interview$/);
      }
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID: await voiceInterview(), count: 1 }).set(bearer(admin)).expect(200);
      const pending = (res.body.result[0] as string).split('/').pop()!;
      expect((await speech(pending, 0)).status).toBe(404);
      const text = await startedInvite(await makeInterview(t, admin, productID));
      expect((await speech(text, 1)).status).toBe(404);
      expect((await speech('no-such-link-0123456789', 1)).status).toBe(404);
      expect(speaker.received.length).toBe(calls);
    });

    it('answers 503 when the speech server fails', async () => {
      const linkID = await startedInvite(await voiceInterview());
      speaker.failWith = 500;
      const res = await speech(linkID, 1);
      expectError(res, 503, /^the question could not be spoken just now$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('answers 404 when the service has no speech server (the page then speaks with the browser)', async () => {
      const noSpeaker = await startApp({ TRANSCRIBER: transcriberEnv(transcriber.url), IRS_E2E_SPEECH_KEY: KEY });
      try {
        const linkID = await startedInvite(await voiceInterview());
        expect((await noSpeaker.http.get(`/i/${linkID}/session`).expect(200)).body.result).toMatchObject({ mode: 'voice', questionsSpokenBy: 'browser' });
        expect((await speech(linkID, 1, noSpeaker)).status).toBe(404);
      } finally {
        await noSpeaker.close();
      }
    });
  });

  describe('the session of a voice interview', () => {
    it('says the room takes spoken answers, how questions are spoken, and whether recordings are kept', async () => {
      const kept = await voiceInterview({ keepAudio: true });
      const res = await t.http.get('/v1/invites/createInvites').query({ interviewID: kept, count: 1 }).set(bearer(admin)).expect(200);
      const pending = (res.body.result[0] as string).split('/').pop()!;
      expect((await t.http.get(`/i/${pending}/session`).expect(200)).body.result).toMatchObject({ mode: 'voice', questionsSpokenBy: 'server', keepAudio: true });
      const text = await startedInvite(await makeInterview(t, admin, productID));
      expect((await t.http.get(`/i/${text}/session`).expect(200)).body.result).toMatchObject({ mode: 'text', questionsSpokenBy: null, keepAudio: false });
    });
  });

  describe('metrics', () => {
    it('times transcriptions and spoken turns and counts their failures by reason, with no link, text or audio in any label', async () => {
      const metricsUrl = `http://127.0.0.1:${t.app.get(MetricsServer).port}/metrics`;
      const before = await scrape(metricsUrl);
      const count = (families: typeof before, service: string) => Number(families.get('irs_voice_call_duration_seconds')?.metrics.find((m) => m.labels?.service === service)?.count ?? 0);
      const linkID = await startedInvite(await voiceInterview());
      transcriber.next.push({ status: 502 }, { text: SPOKEN });
      await sendAudio(linkID, spoken, 'audio/wav').expect(503);
      await sendAudio(linkID, spoken, 'audio/wav').expect(200);
      speaker.failWith = 404;
      await t.http.get(`/i/${linkID}/speech/1`).expect(503);

      const after = await scrape(metricsUrl);
      expect(count(after, 'transcriber') - count(before, 'transcriber')).toBe(2);
      expect(count(after, 'speaker') - count(before, 'speaker')).toBe(1);
      const failures = (families: typeof before, labels: Record<string, string>) => (families.has('irs_voice_failures_total') ? valueOf(families, 'irs_voice_failures_total', labels) : 0);
      expect(failures(after, { service: 'transcriber', reason: 'http-error' }) - failures(before, { service: 'transcriber', reason: 'http-error' })).toBe(1);
      expect(failures(after, { service: 'speaker', reason: 'http-error' }) - failures(before, { service: 'speaker', reason: 'http-error' })).toBe(1);
      const routes = after.get('http_request_duration_seconds')!.metrics.map((m) => `${m.labels!.route} ${m.labels!.status_code}`);
      expect(routes).toEqual(expect.arrayContaining(['/i/:linkID/audio 200', '/i/:linkID/audio 503', '/i/:linkID/speech/:turnIndex 503']));
      const text = await (await fetch(metricsUrl)).text();
      for (const secret of [linkID, 'Monday', KEY]) expect(text).not.toContain(secret);
    });
  });

  describe('traces', () => {
    it('a span for each transcription and spoken turn, inside its request, with nothing of the link, the words or the audio', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'irs-voice-traces-'));
      const collector = await OtlpReceiver.start();
      const databaseUrl = ENGINE === 'mysql' ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'd.sqlite')}`;
      const { db, token } = await migratedDatabase(databaseUrl, 'voice traces');
      let server: BuiltServer | undefined;
      try {
        server = await BuiltServer.start(dir, {
          DATABASE_URL: databaseUrl,
          RATE_LIMIT_MAX: '1000000',
          TRANSCRIBER: transcriberEnv(transcriber.url),
          SPEAKER: speakerEnv(speaker.url),
          IRS_E2E_SPEECH_KEY: KEY,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          // Every trace (the default keeps a tenth of those that start here).
          OTEL_TRACES_SAMPLER: 'always_on',
          OTEL_BSP_SCHEDULE_DELAY: '100',
        });
        const call = async (method: string, path: string, body?: unknown) => {
          const res = await fetch(`${server!.base}${path}`, { method, headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
          return ((await res.json()) as { result: any }).result;
        };
        const { productID: product } = await call('POST', '/v1/products/addOne', { name: 'Traced', orgID: uniq('org') });
        const { interviewID } = await call('POST', '/v1/interviews/addOne', { productID: product, interviewName: 'Traced', mode: 'voice', guidelines: GUIDELINES });
        const [url] = (await call('GET', `/v1/invites/createInvites?interviewID=${interviewID}&count=1`)) as string[];
        const linkID = url.split('/').pop()!;
        await call('POST', `/i/${linkID}/start`, { name: 'Katherine Johnson', email: 'katherine.voice@example.com', consent: true, language: 'fr' });
        transcriber.next.push({ text: 'Marmalade lighthouses whisper about spreadsheets' });
        expect((await fetch(`${server.base}/i/${linkID}/audio`, { method: 'POST', headers: { 'Content-Type': 'audio/wav' }, body: new Uint8Array(spoken) })).status).toBe(200);
        expect((await fetch(`${server.base}/i/${linkID}/speech/3`)).status).toBe(200);

        const named = (name: string) => waitFor(`a span ${name}`, async () => collector.spans.find((s) => s.name === name), 15_000);
        const [request, transcribe, speak] = [await named('POST /i/:linkID/audio'), await named('voice.transcribe'), await named('voice.speak')];
        expect(transcribe.attributes).toEqual({ 'irs.voice.service': 'transcriber', 'irs.voice.content_type': 'audio/wav', 'irs.voice.bytes': spoken.length, 'irs.language': 'fr', 'irs.voice.result': 'ok' });
        expect(collector.ancestors(transcribe).map((s) => s.spanId)).toContain(request.spanId);
        expect(speak.attributes).toMatchObject({ 'irs.voice.service': 'speaker', 'irs.language': 'fr', 'irs.voice.result': 'ok' });
        const values = (span: ReceivedSpan) => [span.name, ...Object.values(span.attributes), ...span.events.flatMap((e) => Object.values(e.attributes))].map((v) => JSON.stringify(v));
        const everything = collector.spans.flatMap(values);
        for (const secret of [linkID, token, KEY, 'katherine.voice', 'Marmalade', 'lighthouses']) {
          expect({ secret, found: everything.filter((v) => v.includes(secret)), inRaw: collector.raw.some((body) => body.includes(secret)) }).toEqual({ secret, found: [], inRaw: false });
        }
      } finally {
        await server?.kill();
        await db.destroy();
        await collector.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  });
});
