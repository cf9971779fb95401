import { rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { InviteLifecycleService } from '../src/invites/invite-lifecycle.service';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { Browser, PHONE, describeInBrowser, launchBrowser } from './helpers/browser';
import { makeInterview, makeProduct } from './helpers/factories';

/*
 * The callbacks given to page.evaluate run in the browser. The project's TypeScript has no DOM library
 * (it is a server), so these declare the little of the page's globals that they use.
 */
interface PageElement {
  id: string;
  textContent: string | null;
  tagName: string;
  matches(selector: string): boolean;
  contains(other: unknown): boolean;
  getBoundingClientRect(): { top: number; bottom: number; left: number; width: number };
  appendChild(child: unknown): unknown;
}
declare const document: {
  activeElement: PageElement | null;
  documentElement: { scrollWidth: number };
  body: PageElement;
  querySelector(selector: string): (PageElement & { complete?: boolean; naturalWidth?: number }) | null;
  elementFromPoint(x: number, y: number): unknown;
  createElement(tag: string): PageElement;
  addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
};
declare const window: { __pwned?: number; __inline?: number };

/**
 * The README's picture of the room. Every run takes it (and checks its size); `npm run docs:screenshot`
 * sets UPDATE_SCREENSHOTS=1 to write it into docs/, so an ordinary test run leaves the checkout clean.
 */
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '..', 'docs', 'interview-room.png') : join(tmpdir(), `irs-interview-room-${process.pid}.png`);

const PRODUCT = 'Lumen Notes';
const INTERVIEW = 'Your first week with Lumen Notes';
/** Three questions for the interviewee, and notes the research team wrote for itself. */
const NOTES = ['Recruited from the March onboarding cohort', 'Compare with the churn survey before the readout'];
const GUIDELINES = [
  `Team notes: ${NOTES[0]}.`,
  '1. How did you first hear about Lumen Notes?',
  '2. What almost made you give up in the first week?',
  '- What would you change first?',
  `${NOTES[1]}.`,
].join('\n');
const GREETING = 'Hello Maya, and thank you for taking the time to talk with us about Lumen Notes. How did you first hear about Lumen Notes?';
const Q2 = 'What almost made you give up in the first week?';
const Q3 = 'What would you change first?';
const ANYTHING_ELSE = 'Is there anything else you would like to tell us about Lumen Notes?';
const CLOSING = 'Thank you, Maya, that is all our questions. Your answers help the team behind Lumen Notes. Goodbye!';
const TYPING = 'The interviewer is typing…';
const HOSTILE = '<img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script> is what I would paste into notes, to be honest';

/** A product logo, served by a server of the test's own (the app does not host product images). */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff9a62"/><stop offset="1" stop-color="#e8505b"/></linearGradient></defs>
<rect width="64" height="64" rx="14" fill="url(#g)"/>
<path d="M20 18h18l8 8v20a2 2 0 0 1-2 2H20a2 2 0 0 1-2-2V20a2 2 0 0 1 2-2z" fill="#fff"/>
<path d="M24 30h16M24 36h16M24 42h10" stroke="#e8505b" stroke-width="3" stroke-linecap="round"/>
</svg>`;

/**
 * The interview room as an interviewee meets it: a phone-sized Chromium opens the invite link, gives
 * consent, answers the built-in interviewer until it says goodbye, reloads along the way, and meets
 * the other ends of a link (ended early, expired, unknown). Everything is asserted on what a person
 * (or a screen reader) gets: labels, focus, text, and a console without errors.
 */
describeInBrowser('The interview room at /i/{linkID}, in a phone-sized browser', () => {
  let t: TestApp;
  let admin: string;
  let browser: Browser | undefined;
  let page: Page;
  let baseUrl: string;
  let imageServer: Server | undefined;
  let imageUrl: string;
  let imageRequests = 0;
  let orgID: string;
  let interviewID: string;

  beforeAll(async () => {
    t = await startApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = (await t.app.getUrl()).replace('[::1]', 'localhost');
    admin = await adminToken(t);

    imageServer = createServer((req, res) => {
      imageRequests++;
      res.writeHead(req.url === '/logo.svg' ? 200 : 404, { 'Content-Type': 'image/svg+xml' }).end(LOGO);
    });
    await new Promise<void>((resolve) => imageServer!.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}/logo.svg`;

    orgID = uniq('org');
    const productID = await makeProduct(t, admin, { name: PRODUCT, desc: 'Meeting notes that write themselves.', orgID, imageLink: imageUrl });
    interviewID = await makeInterview(t, admin, productID, { interviewName: INTERVIEW, guidelines: GUIDELINES });

    browser = await launchBrowser(PHONE);
    page = browser.page;
    // Any Content-Security-Policy violation reaches the console, where the tests look for errors.
    await browser.context.addInitScript(() => {
      // eslint-disable-next-line no-console -- in the page: the console is how the test hears of it
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close(); // never leaves a chromium behind, even when a test failed
    await new Promise((resolve) => (imageServer ? imageServer.close(resolve) : resolve(undefined)));
    await t?.close();
  });

  beforeEach(() => {
    browser!.errors.length = 0;
  });

  /** New pending invites of the interview: their linkIDs. */
  async function invites(count = 1): Promise<string[]> {
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count }).set(bearer(admin));
    expect(res.status).toBe(200);
    return (res.body.result as string[]).map((url) => url.slice(url.lastIndexOf('/') + 1));
  }

  /** An invite started through the API, as if on another device. */
  async function startedInvite(): Promise<string> {
    const [linkID] = await invites();
    await t.http.post(`/i/${linkID}/start`).send({ name: 'Maya Patel', email: 'maya@example.com', consent: true }).expect(200);
    return linkID;
  }

  async function open(linkID: string, expectedStatus = 200): Promise<void> {
    const res = await page.goto(`${baseUrl}/i/${linkID}`, { waitUntil: 'load' });
    expect(res?.status()).toBe(expectedStatus);
    const csp = res?.headers()['content-security-policy'] ?? '';
    // Images from the room itself and from the product image's own origin, never from any host.
    // (An unknown link's page shows no product, so it allows no other origin.)
    const origin = expectedStatus === 404 ? '' : ` ${new URL(imageUrl).origin}`;
    expect(csp.split('; ').find((d) => d.startsWith('img-src'))).toBe(`img-src 'self' data:${origin}`);
    expect(csp).toContain("default-src 'self'; script-src 'self'; style-src 'self'");
  }

  const answerBox = () => page.getByLabel('Your answer');
  const turns = () => page.locator('ol#turns[aria-live="polite"] > li');
  const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || document.activeElement?.tagName);
  const bodyText = () => page.locator('body').innerText();
  const controls = () => page.locator('input, textarea, select, button');

  /** The texts of the conversation, as the page shows them (the consent record aside). */
  async function conversation(): Promise<string[]> {
    return page.locator('#turns > li:not(.turn--consent)').evaluateAll((items) => items.map((li) => `${li.querySelector('.turn__who')?.textContent}: ${li.querySelector('.turn__text')?.textContent}`));
  }

  /** The console holds nothing but the failures a test caused on purpose. */
  function expectConsole(...expected: RegExp[]): void {
    const errors = browser!.errors;
    expect(errors).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(errors[i]).toMatch(pattern));
  }

  /** Nothing wider than the phone: no sideways scrolling. */
  async function expectFitsThePhone(): Promise<void> {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport!.width);
  }

  /** The element is inside the window and nothing covers it (the sticky answer box could). */
  async function expectInSight(locator: Locator): Promise<void> {
    const box = (await locator.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.viewport!.height);
    const uncovered = await locator.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return [r.top + 2, r.bottom - 2].every((y) => el.contains(document.elementFromPoint(r.left + r.width / 2, y)));
    });
    expect(uncovered).toBe(true);
  }

  /** Sends an answer with the Send button and waits for the interviewer's next turn. */
  async function send(text: string): Promise<void> {
    const before = await turns().count();
    await answerBox().fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    await turns().nth(before + 1).waitFor();
  }

  describe('one interviewee, from the invite to the thank-you', () => {
    let linkID: string;

    beforeAll(async () => {
      [linkID] = await invites();
    });

    it('pending: shows the product, the consent and a labelled form, and none of the team notes', async () => {
      await open(linkID);
      await expectFitsThePhone();

      await page.getByRole('heading', { level: 1, name: INTERVIEW }).waitFor();
      expect(await bodyText()).toContain(PRODUCT);
      // The product's image has loaded from the product's host (CSP img-src lets it through).
      await page.waitForFunction(() => {
        const img = document.querySelector('img.product__image');
        return img !== null && img.complete === true && (img.naturalWidth ?? 0) > 0;
      });
      expect(imageRequests).toBeGreaterThan(0);

      // An image of another origin (the same server under another name) is refused by the browser.
      const before = imageRequests;
      const otherOrigin = imageUrl.replace('127.0.0.1', 'localhost');
      const refused = page.waitForEvent('console', (m) => m.type() === 'error' && m.text().includes('CSP violation: img-src'));
      await page.evaluate((src) => {
        const img = document.createElement('img') as PageElement & { src: string };
        img.src = src;
        document.body.appendChild(img);
      }, otherOrigin);
      await refused;
      expect(imageRequests).toBe(before);
      browser!.errors.length = 0;

      expect(await bodyText()).toContain('conducted by an automated interviewer');
      await expect(page.getByLabel('Name', { exact: true }).getAttribute('type')).resolves.toBe('text');
      await expect(page.getByLabel('Email', { exact: true }).getAttribute('type')).resolves.toBe('email');
      await expect(page.getByLabel('Occupation').getAttribute('name')).resolves.toBe('occupation');
      expect(await page.getByText('(optional)').isVisible()).toBe(true);
      await page.getByRole('checkbox', { name: /^I agree/ }).waitFor();
      await page.getByRole('button', { name: 'Start interview' }).waitFor();

      // The guidelines' notes and the owner never reach the interviewee, not even in the markup.
      const html = await page.content();
      for (const secret of [...NOTES, 'Team notes', orgID]) {
        expect(html).not.toContain(secret);
      }
      expectConsole();
    });

    it('pending: the keyboard reaches name, email, occupation, consent and the button in that order', async () => {
      await open(linkID);
      const order: (string | undefined)[] = [];
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        order.push(await focused());
      }
      expect(order).toEqual(['name', 'email', 'occupation', 'consent', 'Start interview']);
    });

    it('pending: a form without a name or without consent says what is missing, in words, and moves focus there', async () => {
      await open(linkID);
      let requests = 0;
      const count = (r: Request) => void (r.url().endsWith('/start') && requests++);
      page.on('request', count);
      const alert = page.getByRole('alert');

      await page.getByRole('button', { name: 'Start interview' }).click();
      await alert.filter({ hasText: 'Please enter your name.' }).waitFor();
      expect(await focused()).toBe('name');
      await expect(page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');

      await page.keyboard.type('Maya Patel');
      await expect(page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).resolves.toBeNull();
      await page.getByLabel('Email', { exact: true }).fill('maya@example.com');
      await page.getByLabel('Occupation').fill('Product designer');
      await page.getByLabel('Occupation').press('Enter');
      await alert.filter({ hasText: 'Please tick "I agree" to start the interview.' }).waitFor();
      expect(await focused()).toBe('consent');
      page.off('request', count);
      expect(requests).toBe(0);
      expectConsole();
    });

    it('pending → started: Start interview opens the conversation, the interviewer greeting by first name', async () => {
      // Focus is on the checkbox (previous test): Space ticks it, as a keyboard user would.
      await page.keyboard.press('Space');
      expect(await page.getByRole('checkbox', { name: /^I agree/ }).isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Start interview' }).click();

      await answerBox().waitFor();
      expect(await focused()).toBe('answer'); // ready to type
      expect(await conversation()).toEqual([`Interviewer: ${GREETING}`]);
      // What was agreed to is on record, one click away.
      const consent = page.locator('#turns > li.turn--consent');
      expect(await consent.innerText()).toBe('You agreed to take part');
      await consent.getByText('You agreed to take part').click();
      expect(await consent.innerText()).toContain('conducted by an automated interviewer');

      await page.getByRole('button', { name: 'Send' }).waitFor();
      await page.getByRole('button', { name: 'End interview' }).waitFor();
      expect(await page.getByRole('textbox').count()).toBe(1);
      await expectFitsThePhone();
      expectConsole();
    });

    it('started: Send shows the answer, "the interviewer is typing" while the reply is pending, then the next question; one request however often it is pressed', async () => {
      expect(await page.getByText(TYPING).isVisible()).toBe(false);

      // Hold the reply at the network until the test has seen the pending state.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let replies = 0;
      await page.route('**/reply', async (route) => {
        replies++;
        await held;
        await route.continue();
      });
      try {
        await answerBox().fill('A colleague shared a meeting summary she had made with it, and it was so tidy I signed up that afternoon.');
        await page.getByRole('button', { name: 'Send' }).click();

        await page.getByText(TYPING).waitFor({ state: 'visible' });
        expect((await conversation()).at(-1)).toBe('You: A colleague shared a meeting summary she had made with it, and it was so tidy I signed up that afternoon.');
        expect(await answerBox().inputValue()).toBe('');
        expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
        expect(await focused()).toBe('answer'); // not lost to the page when Send was disabled
        // Impatient presses while the reply is pending send nothing more.
        await answerBox().press('Enter');
        await page.getByRole('button', { name: 'Send' }).click({ force: true });
        expect(replies).toBe(1);
      } finally {
        release();
      }
      await page.getByText(TYPING).waitFor({ state: 'hidden' });
      await page.unroute('**/reply');

      expect((await conversation()).at(-1)).toBe(`Interviewer: ${Q2}`);
      expect(replies).toBe(1);
      expect(await focused()).toBe('answer');
      expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
      // A screen reader reads the question together with the answer box.
      const describedBy = (await answerBox().getAttribute('aria-describedby'))!.split(' ');
      expect(await page.locator(`[id="${describedBy[0]}"]`).textContent()).toBe(Q2);
      expectConsole();
    });

    it('started: Enter sends, Shift+Enter starts a new line, and the lines stay lines', async () => {
      await answerBox().click();
      await page.keyboard.type('The import from my old app.');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('It lost every tag I had, and I nearly went back.');
      expect(await answerBox().inputValue()).toBe('The import from my old app.\nIt lost every tag I had, and I nearly went back.');
      const before = await turns().count();
      await page.keyboard.press('Enter');
      await turns().nth(before + 1).waitFor();

      expect((await conversation()).slice(-2)).toEqual(['You: The import from my old app.\nIt lost every tag I had, and I nearly went back.', `Interviewer: ${Q3}`]);
      expect(await page.locator('.turn--interviewee .turn__text').last().innerText()).toContain('\n'); // shown on two lines
      expect(await focused()).toBe('answer');
      expectConsole();
    });

    it('started: an empty answer is not sent; the page says so', async () => {
      await answerBox().fill('   ');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please write an answer first.' }).waitFor();
      expect(await focused()).toBe('answer');
    });

    it('started: a reload resumes the same conversation, with the answer box', async () => {
      const before = await conversation();
      await page.reload();
      await answerBox().waitFor();
      expect(await conversation()).toEqual(before);
      expect(before).toHaveLength(5);
      expect(await page.getByRole('alert').isVisible()).toBe(false);
      expectConsole();
    });

    it('started: markup in an answer shows as text, live and after a reload; nothing runs, nothing breaks the CSP', async () => {
      await send(HOSTILE);
      const shown = async () => (await conversation()).filter((line) => line.startsWith('You:')).at(-1);
      expect(await shown()).toBe(`You: ${HOSTILE}`);
      expect((await conversation()).at(-1)).toBe(`Interviewer: ${ANYTHING_ELSE}`);

      await page.reload();
      await answerBox().waitFor();
      expect(await shown()).toBe(`You: ${HOSTILE}`); // rendered by the server, escaped
      expect(await page.locator('#turns img, #turns script').count()).toBe(0);
      expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
      expectConsole();
    });

    it('the CSP refuses inline script, and a violation would show in the console', async () => {
      // Proves the no-CSP-violation assertions above can fail: an inline script is refused and reported.
      const reported = page.waitForEvent('console', (message) => message.text().startsWith('CSP violation: script-src'));
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__inline = 1';
        document.body.appendChild(script);
      });
      await reported;
      expect(await page.evaluate(() => window.__inline)).toBeUndefined();
      expect(browser!.errors).toContainEqual(expect.stringMatching(/^console: CSP violation: script-src/));
      expect(browser!.errors.every((e) => /Content Security Policy|CSP violation/.test(e))).toBe(true);
    });

    it('started → completed: answering until the interviewer says goodbye shows the thank-you, with no inputs left', async () => {
      await send('No, that is everything. Thanks!');
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      expect((await conversation()).at(-1)).toBe(`Interviewer: ${CLOSING}`);
      expect(await controls().count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.matches('section.card--done'))).toBe(true);
      expect(await page.getByText(TYPING).isVisible()).toBe(false);
      expect(await bodyText()).toContain(`your answers have reached the team behind ${PRODUCT}`);

      await page.reload();
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      expect(await controls().count()).toBe(0);
      const invite = await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin));
      expect(invite.body.result).toMatchObject({ status: 'completed' });
      expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
      await expectFitsThePhone();
      expectConsole();
    });
  });

  it('End interview asks first; Cancel keeps the interview, OK ends it (abandoned: no answer was given)', async () => {
    const linkID = await startedInvite();
    await open(linkID);
    await answerBox().waitFor();
    let ends = 0;
    const count = (r: Request) => void (r.url().endsWith(`/i/${linkID}/end`) && ends++);
    page.on('request', count);

    const dialogs: string[] = [];
    page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'End interview' }).click();
    expect(dialogs).toEqual(['End the interview now? Your answers so far will be kept.']);
    expect(ends).toBe(0);
    await answerBox().waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'End interview' }).click();
    await page.getByRole('heading', { name: 'The interview has ended' }).waitFor();
    page.off('request', count);
    expect(ends).toBe(1);
    expect(await controls().count()).toBe(0);
    expect(await conversation()).toEqual([`Interviewer: ${GREETING}`]);
    const invite = await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin));
    expect(invite.body.result).toMatchObject({ status: 'abandoned', completed_on: null });
    expectConsole();
  });

  it('a start form sent after the interview was started on another device opens that conversation', async () => {
    const [linkID] = await invites();
    await open(linkID);
    await t.http.post(`/i/${linkID}/start`).send({ name: 'Maya Patel', email: 'maya@example.com', consent: true }).expect(200);

    await page.getByLabel('Name', { exact: true }).fill('Maya Patel');
    await page.getByLabel('Email', { exact: true }).fill('maya@example.com');
    await page.getByRole('checkbox', { name: /^I agree/ }).check();
    await page.getByRole('button', { name: 'Start interview' }).click();
    await answerBox().waitFor();
    expect(await conversation()).toEqual([`Interviewer: ${GREETING}`]);
    expectConsole(/status of 409/);
  });

  it('a reply that cannot reach the server says so in plain words and keeps the answer to send again', async () => {
    const linkID = await startedInvite();
    await open(linkID);
    await answerBox().waitFor();
    await page.route('**/reply', (route) => route.abort('connectionfailed'));
    try {
      await answerBox().fill('It was a friend who told me about it over lunch one day.');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('alert').filter({ hasText: 'We could not reach the server. Check your connection and try again.' }).waitFor();
    } finally {
      await page.unroute('**/reply');
    }
    expect(await answerBox().inputValue()).toBe('It was a friend who told me about it over lunch one day.');
    expect(await conversation()).toEqual([`Interviewer: ${GREETING}`]);
    expect(await page.getByText(TYPING).isVisible()).toBe(false);
    expect(await focused()).toBe('answer');

    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(Q2).waitFor();
    expect(await page.getByRole('alert').isVisible()).toBe(false);
    expectConsole(/ERR_CONNECTION_FAILED|net::ERR_/);
  });

  it('expired: the link says it has expired, with no inputs', async () => {
    const [linkID] = await invites();
    await expect(t.app.get(InviteLifecycleService).expire(linkID, new Date(Date.now() + 400 * 86_400_000))).resolves.toBe(true);
    await open(linkID);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(await bodyText()).toMatch(/This interview link expired on .+\. If you would still like to take part, ask the team that sent it for a new link\./);
    expect(await controls().count()).toBe(0);
    await expectFitsThePhone();
    expectConsole();
  });

  it('expired while open: Send shows that the link expired and that the answer was not sent, not a generic error', async () => {
    const linkID = await startedInvite();
    await open(linkID);
    await answerBox().waitFor();
    await expect(t.app.get(InviteLifecycleService).expire(linkID, new Date(Date.now() + 400 * 86_400_000))).resolves.toBe(true);

    await answerBox().fill('Through a colleague who kept sending me her tidy meeting notes.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(await bodyText()).toContain('Your last answer was not sent.');
    expect(await bodyText()).not.toContain('Something went wrong');
    expect(await controls().count()).toBe(0);
    expect(await conversation()).toEqual([`Interviewer: ${GREETING}`]);
    expect(await page.evaluate(() => document.activeElement?.matches('section.card--expired'))).toBe(true);
    expectConsole(/status of 409/);
  });

  it('an unknown link: a 404 page in plain words that does not repeat the link', async () => {
    await open('no-such-link-0123456789', 404);
    await page.getByRole('heading', { level: 1, name: 'This link does not lead to an interview' }).waitFor();
    const text = await bodyText();
    expect(text).toContain('There is no interview at this address. Check that you opened the whole link');
    expect(text).not.toContain('no-such-link');
    expect(await controls().count()).toBe(0);
    expectConsole(/status of 404/);
  });

  it('takes the README screenshot: a short conversation on a phone, with the product name and image', async () => {
    const linkID = await startedInvite();
    await t.http.post(`/i/${linkID}/reply`).send({ content: 'A colleague shared her meeting notes from it, and they were so tidy that I signed up that afternoon.' }).expect(200);
    await open(linkID);
    await answerBox().waitFor();
    await page.waitForFunction(() => document.querySelector('img.product__image')?.naturalWidth);
    await answerBox().fill('Honestly? The import from my old app.');

    // Everything a reader should see is on the phone's screen at once, and not under the answer box.
    for (const locator of [page.getByText(PRODUCT, { exact: true }), page.locator('img.product__image'), page.getByText(GREETING), page.getByText(Q2), answerBox(), page.getByRole('button', { name: 'Send' })]) {
      await expectInSight(locator);
    }
    await page.screenshot({ path: SCREENSHOT, animations: 'disabled', caret: 'hide' });
    expect(statSync(SCREENSHOT).size).toBeLessThan(150_000);
    if (process.env.UPDATE_SCREENSHOTS !== '1') rmSync(SCREENSHOT);
    expectConsole();
  });
});
