import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import { Browser, PHONE, describeInBrowser, launchBrowser } from './helpers/browser';
import { makeInterview, makeProduct } from './helpers/factories';
import { StandInModel } from './helpers/stand-in-model';
import { waitFor } from './helpers/wait';

/* The callbacks given to page.evaluate run in the browser; the project's TypeScript has no DOM library. */
declare const document: {
  documentElement: { scrollWidth: number };
  addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
};
declare const window: { __pwned?: number };

/**
 * The README's picture of a shared report. Every run takes it (and checks its size); `npm run
 * docs:screenshot` sets UPDATE_SCREENSHOTS=1 to write it into docs/.
 */
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '..', 'docs', 'shared-report.png') : join(tmpdir(), `irs-shared-report-${process.pid}.png`);

const PRODUCT = 'Lumen Notes';
const INTERVIEW = 'Why teams pick Lumen Notes';
const Q1 = 'What do you use Lumen Notes for?';
const Q2 = 'What would you change first?';
const HOSTILE = '<img src=x onerror="window.__pwned=1"> search is slow on big notebooks, <script>window.__pwned=2</script> honestly slow';

const PROBED = 'Just quick notes for myself during the day, nothing fancy.';
const NOTHING_ELSE = 'No, that is all from me, thanks for asking.';

/** Twelve interviewees, answers as people write them: two topics per question, a few short answers probed. */
const PEOPLE: [string, string, string][] = [
  ['Maya', 'Meeting notes for the whole team, shared right after every call we have.', 'Pricing is too expensive for a small team, we pay per seat and it adds up.'],
  ['Tom', 'Team meeting notes and the agendas we write before the weekly meeting.', 'The price per seat is too expensive now that we have grown to twenty people.'],
  ['Ines', 'Our meeting notes, mostly. Everyone adds action items during the call.', 'Honestly the pricing. It is too expensive compared with what we used before.'],
  ['Omar', 'Meeting notes with action items that sync to our task board automatically.', 'It is too expensive for our budget, the team plan price went up again.'],
  ['Lena', 'Research notes for my thesis: long drafts, citations and reading lists.', HOSTILE],
  ['Kofi', 'Research notes and long drafts of papers, with all my sources in one place.', 'Search is slow when a notebook gets big, I wait seconds for every result.'],
  ['Sara', 'I keep my research notes and literature reviews for the thesis in it.', 'The slow search on large notebooks. It freezes for a while before results.'],
  ['Jun', 'Research drafts and notes on papers I read for my doctoral work.', 'Search is really slow on my big notebooks, please make it faster.'],
  ['Ana', 'Meeting notes for client calls, shared with the account team afterwards.', 'Too expensive. The pricing should have a cheaper plan for small teams.'],
  ['Ben', 'Research notes and reading lists, tagged by chapter of my thesis.', 'Search gets slow on big notebooks and that breaks my flow when writing.'],
  ['Eva', 'Notes.', 'I love it, nothing really, it is a great app and I enjoy using it every day.'],
  ['Raj', 'Meeting notes and decisions from our product team meetings each week.', 'The pricing is too expensive for startups like ours, we almost left for that.'],
];

/** How the stand-in model (an OpenAI-compatible server in the test) codes the answers. */
const MODEL = new StandInModel([
  { labels: ['Meeting notes for the team'], description: 'Notes of meetings, shared with the team.', pattern: /meeting/i },
  { labels: ['Research notes and drafts'], description: 'Long research notes and drafts for a thesis or papers.', pattern: /research|thesis|papers/i },
  { labels: ['Too expensive for small teams'], description: 'The price per seat is too high.', pattern: /expensive|pric/i },
  { labels: ['Slow search on big notebooks'], description: 'Search is slow once a notebook grows.', pattern: /slow|search/i },
  { labels: ['Nothing more to add'], description: 'The interviewee had said it all.', pattern: /that is all/i },
]);

/**
 * A shared report as its reader meets it: a research lead's study runs through the room, a report is
 * made (every answer coded, by a stand-in model) and shared, and Chromium opens the link with no
 * token, at a desktop's width and a phone's, and as printed. Asserted on what a person gets: headings,
 * figures, charts with their numbers as text, quotes that are in the transcripts, each theme's answers
 * behind a disclosure, markup shown as text, nothing loaded from elsewhere; and after an interviewee
 * is erased, nothing of theirs.
 */
describeInBrowser('A shared report at /r/{shareID}, in a browser', () => {
  let t: TestApp;
  let admin: string;
  let browser: Browser | undefined;
  let page: Page;
  let baseUrl: string;
  let path: string;
  let reportID: string;
  const requested: string[] = [];

  let orgID: string;

  beforeAll(async () => {
    t = await startApp({ REPORT_POLL_SECONDS: '1', INTERVIEWER_AGENTS: MODEL.agents(await MODEL.start()) });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = (await t.app.getUrl()).replace('[::1]', 'localhost');
    admin = await adminToken(t);

    orgID = uniq('org');
    const productID = await makeProduct(t, admin, { name: PRODUCT, orgID });
    const interviewID = await makeInterview(t, admin, productID, { interviewName: INTERVIEW, guidelines: `Team notes: recruited from the spring cohort.\n1. ${Q1}\n2. ${Q2}` });
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: PEOPLE.length + 2 }).set(bearer(admin));
    const links = (res.body.result as string[]).map((url) => url.slice(url.lastIndexOf('/') + 1));
    for (const [i, [name, first, second]] of PEOPLE.entries()) {
      await t.http.post(`/i/${links[i]}/start`).send({ name, email: `${name.toLowerCase()}@example.com`, consent: true }).expect(200);
      await t.http.post(`/i/${links[i]}/reply`).send({ content: first }).expect(200);
      // A short answer is probed once; the answer to the probe moves on.
      if (first.split(' ').length < 8) await t.http.post(`/i/${links[i]}/reply`).send({ content: PROBED }).expect(200);
      await t.http.post(`/i/${links[i]}/reply`).send({ content: second }).expect(200);
      await t.http.post(`/i/${links[i]}/reply`).send({ content: NOTHING_ELSE }).expect(200);
    }
    // One abandoned; one never started.
    await t.http.post(`/i/${links[PEOPLE.length]}/start`).send({ name: 'Leo', email: 'leo@example.com', consent: true }).expect(200);
    await t.http.post(`/i/${links[PEOPLE.length]}/end`).send({}).expect(200);

    reportID = (await t.http.post('/v1/reports/addOne').set(bearer(admin)).send({ interviewID, analyst: 'stand-in' }).expect(201)).body.result.reportID;
    await waitFor('the report', async () => {
      const r = (await t.http.get('/v1/reports/getOne').query({ reportID }).set(bearer(admin))).body.result;
      return r.status === 'completed' ? r : undefined;
    }, 20_000);
    const shared = await t.http.post('/v1/reports/share').set(bearer(admin)).send({ reportID }).expect(200);
    path = new URL(shared.body.result.url).pathname;

    browser = await launchBrowser({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    page = browser.page;
    page.on('request', (r) => requested.push(r.url()));
    await browser.context.addInitScript(() => {
      // eslint-disable-next-line no-console -- in the page: the console is how the test hears of it
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await MODEL.stop();
  });

  it('opens without a token and reads as a report: the study, the figures, the funnel', async () => {
    const res = await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: INTERVIEW }).waitFor();
    const text = await page.locator('body').innerText();
    expect(text).toContain(PRODUCT);
    expect(text).toMatch(/Analyst: stand-in/);
    expect(text).not.toContain('spring cohort'); // the team's notes are not questions
    // 14 invites: 12 completed, 1 abandoned, 1 pending; 13 started.
    const figures = await page.getByRole('region', { name: 'At a glance' }).innerText();
    expect(figures).toMatch(/Invites\s+14/);
    expect(figures).toMatch(/Completed\s+12/);
    expect(figures).toMatch(/92%/); // 12 of 13 started
    const funnel = page.getByRole('img', { name: /invited/i }).first();
    expect(await funnel.getAttribute('aria-label')).toMatch(/14/);
    expect(browser!.errors).toEqual([]);
  });

  it('shows each question with its sentiment, themes and verbatim quotes', async () => {
    for (const question of [Q1, Q2]) await page.getByRole('heading', { name: question }).waitFor();
    const second = page.locator('section', { has: page.getByRole('heading', { name: Q2 }) }).last();
    const text = await second.innerText();
    expect(text).toMatch(/expensive|pricing/i);
    expect(text).toMatch(/search|slow/i);
    expect(await second.getByRole('img', { name: /negative|positive|neutral/i }).count()).toBeGreaterThan(0);
    const quotes = await page.locator('blockquote').allInnerTexts();
    expect(quotes.length).toBeGreaterThan(2);
    const answers = [...PEOPLE.flatMap(([, a, b]) => [a, b]), PROBED, NOTHING_ELSE];
    for (const quote of quotes) expect({ quote, found: answers.some((answer) => answer.includes(quote.trim())) }).toEqual({ quote, found: true });
  });

  it('lists under each theme its answers, collapsed until the reader opens them, as they were given', async () => {
    const second = page.locator('section', { has: page.getByRole('heading', { name: Q2 }) }).last();
    const slow = second.locator('li.theme', { has: page.getByRole('heading', { name: 'Slow search on big notebooks' }) });
    const list = slow.locator('details');
    expect(await list.getAttribute('open')).toBeNull();
    expect(await slow.getByText('Search is slow when a notebook gets big', { exact: false }).isVisible()).toBe(false);
    await list.locator('summary').click();
    expect(await list.getAttribute('open')).not.toBeNull();
    expect(await list.locator('summary').innerText()).toBe('5 answers in this theme');
    const answers = await list.locator('li').allInnerTexts();
    const slowAnswers = PEOPLE.map(([, , answer]) => answer).filter((answer) => /slow|search/i.test(answer));
    expect(answers.sort()).toEqual(slowAnswers.sort());
    // Markup in an answer is text on the page.
    expect(answers).toContain(HOSTILE);
  });

  it('says per question how much the themes hold and how many answers fell in other', async () => {
    const second = page.locator('section', { has: page.getByRole('heading', { name: Q2 }) }).last();
    // Eva's answer to question 2 is in no theme.
    expect(await second.locator('.coverage').innerText()).toBe('Coverage 92% · 1 answer (from 1 interviewee) in no theme: other');
    const first = page.locator('section', { has: page.getByRole('heading', { name: Q1 }) }).last();
    expect(await first.locator('.coverage').innerText()).toMatch(/^Coverage \d+% · \d+ answers? \(from \d+ interviewees?\) in no theme: other$/);
    expect(await page.getByText('No quote had to be left out.', { exact: false }).count()).toBe(1);
  });

  it('shows markup from an answer as text and runs nothing; loads nothing from elsewhere', async () => {
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await page.locator('img[src="x"], script').count()).toBe(0);
    expect(requested.every((url) => url.startsWith(baseUrl) || url.startsWith('data:'))).toBe(true);
    expect(browser!.errors).toEqual([]);
  });

  it('fits a phone without sideways scrolling, and prints', async () => {
    await page.setViewportSize(PHONE.viewport!);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport!.width);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('heading', { name: Q2 }).isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
  });

  it('takes the README screenshot', async () => {
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
    await page.setViewportSize({ width: 1000, height: 2300 });
    // The first theme's answers open, as a reader checking it would have them.
    await page.locator('li.theme details summary').first().click();
    await page.screenshot({ path: SCREENSHOT, animations: 'disabled' });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(20_000);
    if (process.env.UPDATE_SCREENSHOTS !== '1') rmSync(SCREENSHOT, { force: true });
  });

  it('shows nothing of an interviewee once they are erased, and no longer says that no quote had to be left out', async () => {
    // Omar wrote the longest answer about meeting notes: the model quoted it.
    const [, notes, price] = PEOPLE[3];
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
    expect(await page.locator('blockquote').allInnerTexts()).toContain(notes.split(' ').slice(0, 5).join(' '));
    await t.http.post('/v1/participants/erase').set(bearer(admin)).send({ email: 'omar@example.com', orgID }).expect(200);
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
    const second = page.locator('section', { has: page.getByRole('heading', { name: Q2 }) }).last();
    const pricing = second.locator('li.theme', { has: page.getByRole('heading', { name: 'Too expensive for small teams' }) });
    await pricing.locator('summary').click();
    const answers = await pricing.locator('details li').allInnerTexts();
    expect(answers.length).toBe(5);
    expect(answers).not.toContain(price);
    const text = await page.locator('body').innerText();
    for (const words of [notes.slice(0, 30), price.slice(0, 30), 'sync to our task board']) expect(text).not.toContain(words);
    const method = await page.getByRole('region', { name: 'How this report was made' }).innerText();
    expect(method).not.toContain('No quote had to be left out');
    expect(method).toContain('Interviewees were erased after the report was made');
    expect(browser!.errors).toEqual([]);
  });

  it('says the link is gone once the report is unshared, without repeating the link', async () => {
    await t.http.post('/v1/reports/unshare').set(bearer(admin)).send({ reportID }).expect(200);
    const res = await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'This report link is not valid or has expired' }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain(path.split('/').pop());
  });
});
