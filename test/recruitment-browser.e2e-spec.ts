import { TestApp, adminToken, bearer, startApp, uniq } from './helpers/app';
import type { Page } from 'playwright-core';
import { Browser, PHONE, describeInBrowser, launchBrowser } from './helpers/browser';
import { freePort } from './helpers/built-server';
import { makeInterview, makeProduct } from './helpers/factories';
import { PANEL, PANEL_REDIRECTS, SCREENER } from './helpers/recruitment';
import { waitFor } from './helpers/wait';

/**
 * A panel participant's walk in a phone-sized Chromium: from the panel's study link through the screener,
 * the consent and the interview, to the panel's completion URL (captured, never loaded); a person the
 * screener turns away; one who finds the quota full; and the first person coming back.
 */
describeInBrowser('The open study link /s/{openID}, in a phone-sized browser', () => {
  let t: TestApp;
  let admin: string;
  let browser: Browser | undefined;
  let baseUrl: string;
  let interviewID: string;
  let openURL: string;
  /** Every request the browser made to the panel: answered here, never sent. */
  const panel: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://localhost:${port}`;
    t = await startApp({ INVITE_BASE_URL: `${baseUrl}/i` });
    await t.app.listen(port, '127.0.0.1');
    admin = await adminToken(t);
    const productID = await makeProduct(t, admin, { name: 'Acme Kits', orgID: uniq('org') });
    interviewID = await makeInterview(t, admin, productID, { interviewName: 'Meal kits', guidelines: '1. What made you try meal kits?\n2. What would you change?' });
    const res = await t.http
      .post('/v1/interviews/setRecruitment')
      .set(bearer(admin))
      .send({
        interviewID,
        open: true,
        participantParam: 'PROLIFIC_PID',
        passthrough: ['STUDY_ID'],
        screener: SCREENER,
        quotas: [{ quotaID: 'weekly', screenerID: 'frequency', options: ['Weekly'], max: 1 }],
        redirects: PANEL_REDIRECTS,
      });
    expect(res.status).toBe(200);
    openURL = res.body.result.openURL.replace(/^https?:\/\/[^/]+/, baseUrl);

    browser = await launchBrowser(PHONE);
    await browser.context.route(`${PANEL}/**`, (route) => {
      panel.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'the panel' });
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Waits until the browser has asked the panel for `url` (the redirect, captured by the route above). */
  async function sentTo(url: string): Promise<void> {
    await waitFor(`the browser sent to ${url}`, async () => (panel.includes(url) ? true : undefined), 20_000).catch(async (e: Error) => {
      throw new Error(`${e.message}; the panel saw ${JSON.stringify(panel)}; the page is at ${page.url()}: ${(await page.locator('main').innerText().catch(() => '')).slice(0, 500)}; errors ${JSON.stringify(browser!.errors)}`);
    });
  }

  /**
   * A page of its own for each person: the one before may still be on its way to the panel (the room
   * follows a redirect by itself a moment after the end).
   */
  let page: Page;
  let pages = 0;
  async function freshPage(): Promise<Page> {
    page = pages++ > 0 ? await browser!.context.newPage() : browser!.page;
    return page;
  }

  async function screener(pid: string, frequency: string, devices: string[]): Promise<void> {
    await freshPage();
    const res = await page.goto(`${openURL}?PROLIFIC_PID=${encodeURIComponent(pid)}&STUDY_ID=S-7`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { name: 'A few questions first' }).waitFor();
    // The screener comes before any consent.
    expect(await page.getByLabel(/I agree/).count()).toBe(0);
    await page.getByRole('radio', { name: frequency }).check();
    for (const device of devices) await page.getByRole('checkbox', { name: device }).check();
  }

  it('walks from the panel link through the screener, the consent and the interview to the completion URL', async () => {
    await screener('P-1', 'Weekly', ['Phone']);
    const done = `${PANEL}/complete?cc=DONE&pid=P-1&study=S-7`;
    const redirected = sentTo(done);
    await Promise.all([page.waitForURL(/\/i\/[A-Za-z0-9_-]{32}$/), page.getByRole('button', { name: 'Continue' }).click()]);

    await page.getByLabel('Name').fill('Maya Patel');
    await page.getByLabel('Email').fill('maya@example.com');
    await page.getByLabel(/I agree/).check();
    await page.getByRole('button', { name: 'Start interview' }).click();
    const answer = page.getByLabel('Your answer');
    await answer.waitFor();
    // Typed key by key, as a person does: the script counts the characters typed.
    await answer.pressSequentially('A friend cooked one of the recipes for us and it was lovely.', { delay: 110 });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('What would you change?').waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'End interview' }).click();
    await redirected;

    const [invite] = (await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin))).body.result;
    expect(invite).toMatchObject({ status: 'completed', source: 'open', participantID: 'P-1', passthrough: { STUDY_ID: 'S-7' }, segment: 'Weekly; Phone', quality: { score: 1, flags: [] } });
    expect(browser!.errors).toEqual([]);
  }, 90_000);

  it('sends a person the screener turns away to the screen-out URL', async () => {
    await screener('P-2', 'Never', ['Laptop']);
    const url = `${PANEL}/screenout?pid=P-2`;
    const redirected = sentTo(url);
    await page.getByRole('button', { name: 'Continue' }).click();
    await redirected;
  }, 60_000);

  it('sends a person whose quota is full to the over-quota URL', async () => {
    await screener('P-3', 'Weekly', ['Laptop']);
    const url = `${PANEL}/full?pid=P-3`;
    const redirected = sentTo(url);
    await page.getByRole('button', { name: 'Continue' }).click();
    await redirected;
  }, 60_000);

  it('sends the first person, coming back, to their own outcome without a second invite', async () => {
    const before = (await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin))).body.result.length;
    const url = `${PANEL}/complete?cc=DONE&pid=P-1&study=S-7`;
    panel.length = 0;
    const redirected = sentTo(url);
    // The navigation ends at the panel, which only the route above answers: goto may call that a failure; what counts is where it went.
    await (await freshPage()).goto(`${openURL}?PROLIFIC_PID=P-1&STUDY_ID=S-7`).catch(() => undefined);
    await redirected;
    expect((await t.http.get('/v1/invites/getList').query({ interviewID }).set(bearer(admin))).body.result.length).toBe(before);
  }, 60_000);
});
