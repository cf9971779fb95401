import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { Browser, CHROMIUM, PHONE, launchBrowser } from './helpers/browser';
import { makeInterview, makeProduct } from './helpers/factories';
import { StandInSpeaker, StandInTranscriber, spokenWav } from './helpers/speech-servers';
import { waitFor } from './helpers/wait';

/*
 * The callbacks given to page.evaluate run in the browser; the project's TypeScript has no DOM library,
 * so these declare the little of the page's globals that they use.
 */
declare const document: { activeElement: { id: string; textContent: string | null } | null; documentElement: { scrollWidth: number } };
declare const window: { __spoken?: { text: string; lang: string }[]; __voicesAsked?: number };
declare const speechSynthesis: { speak(u: { text: string; lang: string }): void; getVoices(): unknown[] };

/** The picture of the room in voice mode in docs/voice.md: written into docs/ by `npm run docs:screenshot` only. */
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '..', 'docs', 'interview-room-voice.png') : join(tmpdir(), `irs-interview-room-voice-${process.pid}.png`);

/** espeak-ng makes the fake microphone's sound at test time; CI must have it as it has chromium. */
const ESPEAK = ['/usr/bin/espeak-ng', '/usr/local/bin/espeak-ng'].some((path) => existsSync(path));
const describeWithMicrophone: jest.Describe = (existsSync(CHROMIUM) && ESPEAK) || process.env.CI ? describe : describe.skip;

const PRODUCT = 'Lumen Notes';
const SAID = 'Mostly on Monday mornings, to plan the week ahead.';
const GUIDELINES = ['1. When do you use Lumen Notes?', '2. What would you change first?', '3. Who else on your team uses it?'].join('\n');
const GREETING = 'Hello Maya, and thank you for taking the time to talk with us about Lumen Notes. When do you use Lumen Notes?';
const Q2 = 'What would you change first?';
const Q3 = 'Who else on your team uses it?';
const KEY = 'sk-e2e-voice-browser';

/**
 * A voice interview in Debian's chromium on a phone-sized screen. Its microphone is chromium's fake
 * capture device playing a WAV that espeak-ng spoke; the recording goes to a stand-in transcription
 * server that checks what it receives (a non-empty WebM/Opus recording, the invite's language), and
 * the questions come back as MP3 from a stand-in speech server. Then a failing transcriber and the
 * recording sent again, the kept recording fetched and erased, typing instead of speaking, a refused
 * microphone, and the browser's own speech synthesis when there is no speech server.
 */
describeWithMicrophone('A voice interview in the browser', () => {
  let transcriber: StandInTranscriber;
  let speaker: StandInSpeaker;
  let t: TestApp;
  let admin: string;
  let baseUrl: string;
  let dir: string;
  let wav: string;
  let orgID: string;
  let interviewID: string;

  beforeAll(async () => {
    if (!ESPEAK) throw new Error('espeak-ng is not installed: the voice suite makes its fake microphone\'s sound with it');
    transcriber = await StandInTranscriber.start();
    speaker = await StandInSpeaker.start();
    t = await startApp({
      TRANSCRIBER: JSON.stringify({ baseUrl: transcriber.url, model: 'Systran/faster-whisper-small', apiKeyEnv: 'IRS_E2E_VOICE_KEY' }),
      SPEAKER: JSON.stringify({ baseUrl: speaker.url, model: 'kokoro', voice: 'af_heart', apiKeyEnv: 'IRS_E2E_VOICE_KEY' }),
      IRS_E2E_VOICE_KEY: KEY,
    });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = (await t.app.getUrl()).replace('[::1]', 'localhost');
    admin = await adminToken(t);
    orgID = uniq('org');
    const productID = await makeProduct(t, admin, { orgID, name: PRODUCT });
    interviewID = await makeInterview(t, admin, productID, { interviewName: 'Your week with Lumen Notes', guidelines: GUIDELINES, mode: 'voice', keepAudio: true });
    dir = mkdtempSync(join(tmpdir(), 'irs-voice-browser-'));
    wav = join(dir, 'answer.wav');
    writeFileSync(wav, spokenWav(SAID));
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await transcriber?.close();
    await speaker?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    transcriber.next.length = 0;
    transcriber.otherwise = { text: SAID };
  });

  /** A new pending invite: its linkID. */
  async function invite(): Promise<string> {
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin)).expect(200);
    return (res.body.result[0] as string).split('/').pop()!;
  }

  async function open(page: Page, linkID: string): Promise<void> {
    const res = await page.goto(`${baseUrl}/i/${linkID}`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    const csp = res?.headers()['content-security-policy'] ?? '';
    // The room's own policy: its script, style and media from itself; no product image here, so images from itself alone.
    expect(csp).toContain("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'");
  }

  /** Consent and start, as an interviewee does. */
  async function start(page: Page, email = 'maya@example.com'): Promise<void> {
    await page.getByLabel('Name', { exact: true }).fill('Maya Patel');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('checkbox', { name: /^I agree/ }).check();
    await page.getByRole('button', { name: 'Start interview' }).click();
    await page.getByRole('button', { name: 'Record answer' }).waitFor();
  }

  const conversation = (page: Page) =>
    page.locator('#turns > li:not(.turn--consent)').evaluateAll((items) => items.map((li) => `${li.querySelector('.turn__who')?.textContent}: ${li.querySelector('.turn__text')?.textContent}`));
  const voiceState = (page: Page) => page.locator('#voice').getAttribute('data-state');
  const status = (page: Page) => page.locator('#voice-status');
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim());

  /** Press Record answer, let the fake microphone speak for a moment, press Stop and send. */
  async function speak(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Record answer' }).click();
    await page.getByRole('button', { name: 'Stop and send' }).waitFor();
    expect(await voiceState(page)).toBe('recording');
    // A second of sound: the timer beside the button says when it is there.
    await page.locator('#record-time').filter({ hasText: /^0:0[1-9] \/ 2:50$/ }).waitFor();
    await page.getByRole('button', { name: 'Stop and send' }).click();
  }

  describe('with a fake microphone that is allowed', () => {
    let browser: Browser;
    let page: Page;
    let linkID: string;

    beforeAll(async () => {
      browser = await launchBrowser(PHONE, ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`]);
      page = browser.page;
      linkID = await invite();
    }, 60_000);

    afterAll(() => browser?.close());

    it('pending: says, before the consent, that answers are spoken and their recordings kept', async () => {
      await open(page, linkID);
      const notice = page.locator('.voice-notice');
      expect(await notice.innerText()).toBe(
        'In this interview you answer by speaking: your browser will ask to use the microphone. You can always type instead. Your recordings are kept with your answers for the research team.',
      );
      expect(browser.errors).toEqual([]);
    });

    it('started: the record button first, the greeting spoken by the speech server, the answer box still there', async () => {
      const spoken = speaker.received.length;
      await start(page);
      expect(await conversation(page)).toEqual([`Interviewer: ${GREETING}`]);
      expect(await focused(page)).toBe('record');
      expect(await status(page).innerText()).toBe('Press Record answer and speak; press it again to send. You can also type your answer below.');
      await page.getByLabel('Your answer').waitFor();
      // The question, fetched as MP3 from the speech server and played to the end.
      await page.locator('#voice[data-spoken="1"]').waitFor();
      expect(speaker.received.slice(spoken).map((r) => r.body)).toEqual([{ model: 'kokoro', voice: 'af_heart', input: GREETING, response_format: 'mp3' }]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport!.width);
      expect(browser.errors).toEqual([]);
    });

    it('answer spoken: recording, sending, the transcript shown, then the next question, spoken', async () => {
      const calls = transcriber.received.length;
      await speak(page);
      await page.locator('#voice[data-state="transcribed"]').waitFor();
      expect(await status(page).innerText()).toBe('Transcribed. Your answer is shown above.');
      expect(await conversation(page)).toEqual([`Interviewer: ${GREETING}`, `You: ${SAID}`, `Interviewer: ${Q2}`]);
      expect(await focused(page)).toBe('record');
      // What the stand-in transcriber was sent: the browser's own WebM/Opus recording, non-empty, in the invite's language.
      const [got] = transcriber.received.slice(calls);
      expect(got).toMatchObject({ authorization: `Bearer ${KEY}`, model: 'Systran/faster-whisper-small', language: 'en', responseFormat: 'verbose_json', otherFields: [] });
      expect({ name: got.file?.name, type: got.file?.type }).toEqual({ name: 'answer.webm', type: 'audio/webm' });
      expect(got.file!.bytes.length).toBeGreaterThan(1000);
      expect(got.file!.bytes.readUInt32BE(0)).toBe(0x1a45dfa3);
      // The next question, said by the speech server.
      await page.locator('#voice[data-spoken="3"]').waitFor();
      expect(speaker.received.at(-1)!.body.input).toBe(Q2);
      expect(browser.errors).toEqual([]);
    });

    it('a failing transcriber: the page says so and offers to send the same recording again, which works', async () => {
      transcriber.next.push({ status: 503 });
      const calls = transcriber.received.length;
      await speak(page);
      const again = page.getByRole('button', { name: 'Send the recording again' });
      await again.waitFor();
      expect(await status(page).innerText()).toBe('We could not transcribe your recording just now. Send it again, or type your answer.');
      expect(await focused(page)).toBe('resend');
      expect((await conversation(page)).at(-1)).toBe(`Interviewer: ${Q2}`);
      await again.click();
      await page.locator('#voice[data-state="transcribed"]').waitFor();
      expect(await again.isVisible()).toBe(false);
      expect((await conversation(page)).slice(-2)).toEqual([`You: ${SAID}`, `Interviewer: ${Q3}`]);
      const [failed, retried] = transcriber.received.slice(calls);
      expect(Buffer.compare(failed.file!.bytes, retried.file!.bytes)).toBe(0);
      // The 503 the page got is the only error the console shows.
      expect(browser.errors).toEqual([expect.stringMatching(/503/)]);
      browser.errors.length = 0;
    });

    it('the team fetches each kept recording, the very bytes the browser sent, until the person is erased', async () => {
      const recordings = transcriber.received.slice(-3).filter((r, i) => i !== 1);
      const answers = await t.http.get('/v1/interviews/getAnswers').query({ interviewID }).set(bearer(admin)).expect(200);
      const mine = (answers.body.result as { linkID: string; turnIndex: number }[]).filter((a) => a.linkID === linkID);
      expect(mine.map((a) => a.turnIndex)).toEqual([2, 4]);
      for (const [i, { turnIndex }] of mine.entries()) {
        const res = await t.http.get('/v1/invites/getAudio').query({ linkID, turnIndex }).set(bearer(admin)).buffer(true).parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('audio/webm');
        expect(Buffer.compare(res.body as Buffer, recordings[i].file!.bytes)).toBe(0);
      }
      await t.http.post('/v1/participants/erase').set(bearer(admin)).send({ email: 'maya@example.com', orgID }).expect(200);
      const gone = await t.http.get('/v1/invites/getAudio').query({ linkID, turnIndex: 2 }).set(bearer(admin));
      expect(gone.status).toBe(404);
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM invite_audio WHERE link_id = ?', [linkID]))[0].n)).toBe(0);
    });

    it('typing stays possible, and the keyboard reaches the voice controls before the answer box', async () => {
      const other = await invite();
      await open(page, other);
      await start(page, 'maya.typed@example.com');
      const order: (string | undefined)[] = [];
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        order.push(await focused(page));
      }
      // Send and End interview follow the box; Record answer had the focus.
      expect(order).toEqual(['replay', 'mute', 'answer', 'Send', 'end']);
      await page.getByLabel('Your answer').fill('On Monday mornings, on the train to work.');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText(Q2).waitFor();
      expect((await conversation(page)).slice(-2)).toEqual(['You: On Monday mornings, on the train to work.', `Interviewer: ${Q2}`]);
      await page.locator('#voice[data-spoken="3"]').waitFor();
    });

    it('mute: the next question is not spoken until the interviewee asks for it', async () => {
      const mute = page.getByRole('button', { name: 'Mute the interviewer' });
      await mute.click();
      expect(await mute.getAttribute('aria-pressed')).toBe('true');
      const spoken = speaker.received.length;
      await page.getByLabel('Your answer').fill('The search, which never finds the notes I wrote last week.');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText(Q3).waitFor();
      expect(speaker.received.length).toBe(spoken);
      // Still muted after a reload (the tab remembers it).
      await page.reload();
      expect(await page.getByRole('button', { name: 'Mute the interviewer' }).getAttribute('aria-pressed')).toBe('true');
      await page.getByRole('button', { name: 'Play the question again' }).click();
      await waitFor('the question asked for', async () => (speaker.received.length > spoken ? true : undefined));
      expect(speaker.received.at(-1)!.body.input).toBe(Q3);
      await page.getByRole('button', { name: 'Mute the interviewer' }).click();
      expect(browser.errors).toEqual([]);
    });

    it('takes the screenshot of the room in voice mode for the docs', async () => {
      const pictured = await invite();
      await open(page, pictured);
      await start(page, 'maya.pictured@example.com');
      await speak(page);
      await page.locator('#voice[data-state="transcribed"]').waitFor();
      await page.getByRole('button', { name: 'Record answer' }).click();
      await page.locator('#record-time').filter({ hasText: /^0:0[1-9] \/ 2:50$/ }).waitFor();
      await page.screenshot({ path: SCREENSHOT, animations: 'disabled', caret: 'hide' });
      expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
      if (process.env.UPDATE_SCREENSHOTS !== '1') rmSync(SCREENSHOT);
      await page.getByRole('button', { name: 'Stop and send' }).click();
      await page.locator('#voice[data-state="transcribed"]').waitFor();
    });
  });

  describe('with the microphone refused', () => {
    let browser: Browser;

    beforeAll(async () => {
      // No fake permission prompt: the browser refuses the page the microphone.
      browser = await launchBrowser(PHONE, ['--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`]);
    }, 60_000);

    afterAll(() => browser?.close());

    it('says so in words and offers typing, which works', async () => {
      const page = browser.page;
      await open(page, await invite());
      await start(page, 'maya.refused@example.com');
      const calls = transcriber.received.length;
      await page.getByRole('button', { name: 'Record answer' }).click();
      await page.locator('#voice[data-state="refused"]').waitFor();
      expect(await status(page).innerText()).toBe(
        "The microphone is blocked, so your answer cannot be recorded. Type it below instead, or allow the microphone in your browser's settings and press Record answer again.",
      );
      expect(await focused(page)).toBe('answer');
      await page.keyboard.type('I use it every Monday to plan the week.');
      await page.keyboard.press('Enter');
      await page.getByText(Q2).waitFor();
      expect(transcriber.received.length).toBe(calls);
      expect(browser.errors).toEqual([]);
    });
  });

  describe('without a speech server', () => {
    let other: TestApp;
    let browser: Browser;
    let otherUrl: string;

    beforeAll(async () => {
      other = await startApp({ TRANSCRIBER: JSON.stringify({ baseUrl: transcriber.url, model: 'Systran/faster-whisper-small' }) });
      await other.app.listen(0, '127.0.0.1');
      otherUrl = (await other.app.getUrl()).replace('[::1]', 'localhost');
      browser = await launchBrowser(PHONE, ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`]);
      // What the page asks the browser to say, and whether it waited for the list of voices.
      await browser.context.addInitScript(() => {
        window.__spoken = [];
        window.__voicesAsked = 0;
        speechSynthesis.speak = (u) => void window.__spoken!.push({ text: u.text, lang: u.lang });
        const voices = speechSynthesis.getVoices.bind(speechSynthesis);
        speechSynthesis.getVoices = () => (window.__voicesAsked!++, voices());
      });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await other?.close();
    });

    it("speaks each question with the browser's speech synthesis, in the page's language, without waiting for its voices", async () => {
      const token = await adminToken(other);
      const product = await makeProduct(other, token, { orgID: uniq('org'), name: PRODUCT });
      const spoken = await makeInterview(other, token, product, { guidelines: GUIDELINES, mode: 'voice', language: 'es' });
      const res = await other.http.get('/v1/invites/createInvites').query({ interviewID: spoken, count: 1 }).set(bearer(token)).expect(200);
      const page = browser.page;
      await page.goto(res.body.result[0].replace(/^http:\/\/localhost:\d+/, otherUrl), { waitUntil: 'load' });
      await page.getByLabel('Nombre').fill('Maya Patel');
      await page.getByLabel('Correo electrónico').fill('maya@example.com');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Empezar la entrevista' }).click();
      await page.getByRole('button', { name: 'Grabar respuesta' }).waitFor();
      const said = () => page.evaluate(() => window.__spoken ?? []);
      const greeting = (await conversation(page))[0].replace(/^[^:]+: /, '');
      await waitFor('the greeting said', async () => ((await said()).length === 1 ? true : undefined));
      expect(await said()).toEqual([{ text: greeting, lang: 'es' }]);

      await page.getByRole('button', { name: 'Grabar respuesta' }).click();
      await page.locator('#record-time').filter({ hasText: /^0:0[1-9] \/ 2:50$/ }).waitFor();
      await page.getByRole('button', { name: 'Detener y enviar' }).click();
      await page.locator('#voice[data-state="transcribed"]').waitFor();
      expect(transcriber.received.at(-1)!.language).toBe('es');
      await waitFor('the next question said', async () => ((await said()).length === 2 ? true : undefined));
      expect((await said())[1]).toEqual({ text: Q2, lang: 'es' });
      expect(await page.evaluate(() => window.__voicesAsked)).toBe(0);
      expect(await status(page).innerText()).toBe('Transcrita. Tu respuesta aparece arriba.');
      expect(browser.errors).toEqual([]);
    });
  });
});
