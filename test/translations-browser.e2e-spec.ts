import type { Page } from 'playwright-core';
import { TestApp, bearer, uniq } from './helpers/app';
import { Browser, ScreenOptions, describeInBrowser, useAppInBrowsers } from './helpers/browser';
import { makeInterview, makeProduct } from './helpers/factories';

const PRODUCT = 'Lumen Notes';
const GUIDELINES = 'Team note: three markets, one study.\n1. How did you first hear about Lumen Notes?\n2. What almost made you give up in the first week?';
const GERMAN = 'Notiz des Teams: drei Märkte.\n1. Wie haben Sie zum ersten Mal von Lumen Notes gehört?\n2. Was hätte Sie in der ersten Woche fast aufgeben lassen?';
const JAPANESE = 'チームのメモ：三つの市場。\n1. Lumen Notes を最初にどこで知りましたか？\n2. 最初の週にやめそうになったのはなぜですか？';

/** What the page says in each language (the catalogs'), and what the interviewee answers in it. */
const WALKS = {
  de: {
    name: 'Deutsch',
    labels: { before: 'Bevor Sie beginnen', name: 'Name', email: 'E-Mail', agree: /^Ich bin einverstanden/, start: 'Interview beginnen', answer: 'Ihre Antwort', send: 'Senden', done: 'Vielen Dank!' },
    questions: ['Wie haben Sie zum ersten Mal von Lumen Notes gehört?', 'Was hätte Sie in der ersten Woche fast aufgeben lassen?'],
    answers: ['Eine Kollegin hat mir Lumen Notes in einem Teammeeting im Frühjahr gezeigt.', 'Der Import unserer alten Notizen hat zwei ganze Abende gedauert.', 'Nein, danke.'],
    anythingElse: 'Gibt es noch etwas, das Sie uns über Lumen Notes sagen möchten?',
  },
  ja: {
    name: '日本語',
    labels: { before: '始める前に', name: 'お名前', email: 'メールアドレス', agree: /^上記の内容に同意し/, start: 'インタビューを始める', answer: 'あなたの回答', send: '送信', done: 'ありがとうございました！' },
    questions: ['Lumen Notes を最初にどこで知りましたか？', '最初の週にやめそうになったのはなぜですか？'],
    answers: ['同僚が会議のメモを見せてくれて、とても整っていたのでその日の午後に登録しました。', '前のアプリからメモを移すのに時間がかかり、フォルダの構造も崩れてしまいました。', '特にありません。'],
    anythingElse: 'Lumen Notes について、ほかに伝えたいことはありますか？',
  },
} as const;

/**
 * One study in three languages: an `auto` interview written in English with German and Japanese
 * translations. An interviewee whose browser speaks English chooses the language on the page before
 * starting, and is asked the team's questions in it; the answers keep the question as asked.
 */
describeInBrowser('A study in several languages, chosen on the page, in a phone-sized browser', () => {
  let t: TestApp;
  let admin: string;
  let baseUrl: string;
  let launch: (screen: ScreenOptions) => Promise<Browser>;
  let interviewID: string;
  useAppInBrowsers((app) => ({ t, admin, baseUrl, launch } = app));

  beforeAll(async () => {
    const productID = await makeProduct(t, admin, { name: PRODUCT, orgID: uniq('org') });
    interviewID = await makeInterview(t, admin, productID, { interviewName: 'Three markets', guidelines: GUIDELINES, translations: { de: GERMAN, ja: JAPANESE } });
  });

  async function link(): Promise<string> {
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin));
    const url = res.body.result[0] as string;
    return url.slice(url.lastIndexOf('/') + 1);
  }

  /** Sends an answer with the Send button and waits for the interviewer's turn after it. */
  async function send(page: Page, labels: { answer: string; send: string }, text: string): Promise<string> {
    const turns = page.locator('#turns > li');
    const before = await turns.count();
    await page.getByLabel(labels.answer).fill(text);
    await page.getByRole('button', { name: labels.send, exact: true }).click();
    await turns.nth(before + 1).waitFor();
    return (await turns.nth(before + 1).locator('.turn__text').innerText()).trim();
  }

  it.each(['de', 'ja'] as const)('walks the interview in %s, chosen on the page: the questions in it, the answers stored with them as asked', async (language) => {
    const walk = WALKS[language];
    const browser = await launch({ locale: 'en-US' });
    const { page, errors } = browser;
    const linkID = await link();
    await page.goto(`${baseUrl}/i/${linkID}`, { waitUntil: 'load' });
    await page.getByRole('heading', { name: 'Before you start' }).waitFor();
    // The interview's languages, each by its own name: the base one and the translated ones.
    const choices = page.getByRole('navigation', { name: 'Language' }).getByRole('link');
    expect(await choices.allInnerTexts()).toEqual(['English', 'Deutsch', '日本語']);
    await page.getByRole('link', { name: walk.name, exact: true }).click();
    await page.getByRole('heading', { name: walk.labels.before }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang)).toBe(language);
    expect(await page.getByRole('link', { name: walk.name, exact: true }).getAttribute('aria-current')).toBe('true');

    await page.getByLabel(walk.labels.name, { exact: true }).fill('Lukas Sato');
    await page.getByLabel(walk.labels.email, { exact: true }).fill('lukas@example.com');
    await page.getByRole('checkbox', { name: walk.labels.agree }).check();
    await page.getByRole('button', { name: walk.labels.start }).click();
    const opening = page.locator('#turns .turn--interviewer .turn__text').first();
    await opening.waitFor();
    expect((await opening.innerText()).endsWith(walk.questions[0])).toBe(true);
    expect(await page.locator('body').innerText()).not.toContain('How did you first hear');

    expect(await send(page, walk.labels, walk.answers[0])).toBe(walk.questions[1]);
    expect(await send(page, walk.labels, walk.answers[1])).toBe(walk.anythingElse);
    await send(page, walk.labels, walk.answers[2]);
    await page.getByRole('heading', { name: walk.labels.done }).waitFor();
    expect(errors).toEqual([]);

    const invite = (await t.http.get('/v1/invites/getOne').query({ linkID }).set(bearer(admin))).body.result;
    expect(invite.status).toBe('completed');
    const rows = (await t.http.get('/v1/interviews/getAnswers').query({ interviewID }).set(bearer(admin))).body.result as Record<string, unknown>[];
    expect(rows.filter((row) => row.linkID === linkID).map((row) => [row.language, row.questionIndex, row.asked, row.answer])).toEqual([
      [language, 0, walk.questions[0], walk.answers[0]],
      [language, 1, walk.questions[1], walk.answers[1]],
      [language, null, null, walk.answers[2]],
    ]);
  }, 120_000);
});
