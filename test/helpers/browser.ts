import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions, type Locator, type Page, type Response } from 'playwright-core';
import { TestApp, adminToken, startApp } from './app';

/** Debian's chromium package (browser downloads from npm do not work here); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Without these, chromium keeps trying to reach Google's hosts, which this machine's network refuses.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Browser suites run where chromium is installed, and always in CI (.ci/run installs it): there a
 * missing browser fails the suite instead of skipping it.
 */
export const describeInBrowser: jest.Describe = existsSync(CHROMIUM) || process.env.CI ? describe : describe.skip;

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/** PIDs whose command line names our user-data-dir: every process of this browser, and only this one. */
function browserPids(userDataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(`--user-data-dir=${userDataDir}`)) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** What a suite may choose about the browser's screen: a phone's, for instance (see PHONE). */
export type ScreenOptions = Pick<BrowserContextOptions, 'viewport' | 'deviceScaleFactor' | 'isMobile' | 'hasTouch' | 'userAgent' | 'locale'>;

/** A 360 px wide Android phone: the narrowest screen the interview room is made for. */
export const PHONE: ScreenOptions = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

/**
 * Debian's chromium through playwright-core, with a fresh profile. Playwright refuses --user-data-dir
 * in args for launch(), so the profile goes through launchPersistentContext. `args` adds switches
 * (a fake microphone, for instance).
 */
export async function launchBrowser(screen: ScreenOptions = {}, args: string[] = []): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'irs-chromium-'));
  let context: BrowserContext | undefined;
  const close = async () => {
    try {
      if (context) await Promise.race([context.close(), new Promise((r) => setTimeout(r, 5_000).unref())]);
    } finally {
      for (const pid of browserPids(userDataDir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      rmSync(userDataDir, { recursive: true, force: true });
    }
  };
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...ARGS, ...args],
      viewport: { width: 1280, height: 900 },
      ...screen,
      timeout: 30_000,
    });
    context.setDefaultTimeout(10_000);
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    return { context, page, errors, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * The preamble of a suite that meets the app in phone-sized browsers: the app listening on a port of its
 * own (baseUrl, as a browser reaches it), an admin token, and `launch`, whose browsers are closed after
 * the suite, before the app.
 */
export function useAppInBrowsers(bind: (app: { t: TestApp; admin: string; baseUrl: string; launch: (screen?: ScreenOptions) => Promise<Browser> }) => unknown): void {
  let t: TestApp | undefined;
  const browsers: Browser[] = [];
  const launch = async (screen: ScreenOptions = {}): Promise<Browser> => {
    const browser = await launchBrowser({ ...PHONE, ...screen });
    browsers.push(browser);
    return browser;
  };

  beforeAll(async () => {
    t = await startApp();
    await t.app.listen(0, '127.0.0.1');
    const baseUrl = (await t.app.getUrl()).replace('[::1]', 'localhost');
    await bind({ t, admin: await adminToken(t), baseUrl, launch });
  }, 60_000);

  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await t?.close();
  });
}

/** Opens /docs and waits until Swagger UI has rendered the operations. */
export async function openDocs(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/docs`, { waitUntil: 'domcontentloaded' });
  await page.locator('#swagger-ui .information-container .title').waitFor();
  await page.locator('.opblock').first().waitFor();
}

/** Authorize → type the token → Authorize (aria "Apply credentials") → Close. */
export async function authorize(page: Page, token: string): Promise<void> {
  await page.locator('.auth-wrapper button.authorize').click();
  const dialog = page.locator('.dialog-ux .modal-ux');
  await dialog.locator('input#auth-bearer-value').fill(token);
  await dialog.getByRole('button', { name: 'Apply credentials' }).click();
  // Authorized state: the value turns into "******" and Logout (aria "Remove authorization") appears.
  await dialog.getByRole('button', { name: 'Remove authorization' }).waitFor();
  await dialog.locator('button.btn-done').click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('.auth-wrapper button.authorize.locked').waitFor();
}

/** Expands an operation (id = operations-<tag>-<operationId>) and presses "Try it out". */
export async function tryItOut(page: Page, tag: string, operationId: string): Promise<Locator> {
  const op = page.locator(`#operations-${tag}-${operationId}`);
  await op.locator('.opblock-summary-control').click();
  await op.locator('.try-out__btn').click();
  await op.locator('button.execute').waitFor();
  return op;
}

export const paramInput = (op: Locator, name: string, location: 'query' | 'header' | 'path' = 'query') =>
  op.locator(`.parameters tr[data-param-name="${name}"][data-param-in="${location}"] input`);

/** Name → current value of every text input in the parameters table. */
export async function paramValues(op: Locator): Promise<Record<string, string>> {
  return op
    .locator('.parameters tr[data-param-name]')
    .evaluateAll((rows) => Object.fromEntries(rows.map((r) => [r.getAttribute('data-param-name'), (r.querySelector('input') as { value: string } | null)?.value ?? ''])));
}

export interface UiResponse {
  status: number;
  body: unknown;
  url: string;
  network: Response;
}

/** Presses Execute and returns what the UI shows, once it shows the response the server actually sent. */
export async function execute(page: Page, op: Locator, method: string, path: string): Promise<UiResponse> {
  const clear = op.locator('button.btn-clear');
  if (await clear.count()) {
    // A previous response is on screen: clear it so we never read a stale one.
    await clear.click();
    await op.locator('.live-responses-table').waitFor({ state: 'detached' });
  }
  const sent = page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === path);
  await op.locator('button.execute').click();
  const network = await sent;
  const status = op.locator('.responses-wrapper .live-responses-table .response .response-col_status');
  await status.filter({ hasText: String(network.status()) }).waitFor();
  const text = await op.locator('.responses-wrapper .live-responses-table .response-col_description pre.microlight').first().innerText();
  return { status: Number((await status.innerText()).trim()), body: JSON.parse(text), url: await op.locator('.request-url pre').innerText(), network };
}
