import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { TestApp, bearer, uniq } from './helpers/app';
import { Browser, PHONE, ScreenOptions, describeInBrowser, useAppInBrowsers } from './helpers/browser';
import { makeInterview, makeProduct } from './helpers/factories';

/* The callbacks given to page.evaluate run in the browser; the project's TypeScript has no DOM library. */
interface PageElement {
  getBoundingClientRect(): { left: number; right: number; width: number };
}
declare const document: {
  documentElement: PageElement & { lang: string; dir: string; scrollWidth: number };
  body: PageElement;
  querySelector(selector: string): PageElement | null;
};
declare function getComputedStyle(element: PageElement): { direction: string };

/** The README's pictures of the room in Japanese and Arabic: written into docs/ by `npm run docs:screenshot` only. */
const shot = (name: string) => (process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '..', 'docs', name) : join(tmpdir(), `irs-${process.pid}-${name}`));

const PRODUCT = 'Lumen Notes';
const PANEL = 'https://panel.example/complete?pid=4711';

/**
 * The room in the interviewee's language, as a phone-sized Chromium meets it: the browser's locale
 * (which sets Accept-Language for the page's request) or the link's ?lang= chooses it, and a whole
 * interview runs in it with the built-in interviewer, labels, buttons and all.
 */
describeInBrowser('The interview room in the interviewee\'s language, in a phone-sized browser', () => {
  let t: TestApp;
  let admin: string;
  let baseUrl: string;
  let browserWith: (screen: ScreenOptions) => Promise<Browser>;
  useAppInBrowsers((app) => ({ t, admin, baseUrl, launch: browserWith } = app));

  /** One pending link of a new interview about PRODUCT. */
  async function link(interview: Record<string, unknown>): Promise<string> {
    const productID = await makeProduct(t, admin, { name: PRODUCT, orgID: uniq('org') });
    const interviewID = await makeInterview(t, admin, productID, { interviewName: 'Internal: March cohort, churn study', ...interview });
    const res = await t.http.get('/v1/invites/createInvites').query({ interviewID, count: 1 }).set(bearer(admin));
    const url = res.body.result[0] as string;
    return url.slice(url.lastIndexOf('/') + 1);
  }

  /** Fills the start form by its labels in the page's language and starts; waits for the opening. */
  async function start(page: Page, labels: { name: string; email: string; agree: RegExp; start: string }, name: string): Promise<void> {
    await page.getByLabel(labels.name, { exact: true }).fill(name);
    await page.getByLabel(labels.email, { exact: true }).fill('maya@example.com');
    await page.getByRole('checkbox', { name: labels.agree }).check();
    await page.getByRole('button', { name: labels.start }).click();
    await page.locator('#turns .turn--interviewer').first().waitFor();
  }

  /** Sends an answer with the Send button (by its label) and waits for the interviewer's turn after it. */
  async function send(page: Page, answerLabel: string, sendLabel: string, text: string): Promise<string> {
    const turns = page.locator('#turns > li');
    const before = await turns.count();
    await page.getByLabel(answerLabel).fill(text);
    await page.getByRole('button', { name: sendLabel, exact: true }).click();
    await turns.nth(before + 1).waitFor();
    return (await turns.nth(before + 1).locator('.turn__text').innerText()).trim();
  }

  it('runs a whole interview in Japanese, chosen by the browser\'s Accept-Language, and takes its screenshot', async () => {
    const { page, errors } = await browserWith({ locale: 'ja-JP' });
    const linkID = await link({ guidelines: 'チームのメモ：3月の参加者。\n1. Lumen Notes を最初にどこで知りましたか？\n2. 最初の週にやめそうになったのはなぜですか？', publicTitle: 'Lumen Notes の最初の1週間' });
    await page.goto(`${baseUrl}/i/${linkID}`, { waitUntil: 'load' });
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ja', 'ltr']);
    await page.getByRole('heading', { name: '始める前に' }).waitFor();
    expect(await page.locator('#consent-text').innerText()).toBe('このインタビューは自動インタビュアーが行います。回答は記録され、このリンクを送った調査チームと共有されます。');
    await page.getByRole('heading', { level: 1, name: 'Lumen Notes の最初の1週間' }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('Internal: March cohort');
    expect(await page.locator('body').innerText()).not.toContain('チームのメモ');
    await start(page, { name: 'お名前', email: 'メールアドレス', agree: /^上記の内容に同意し/, start: 'インタビューを始める' }, 'Maya Sato');

    const greeting = await page.locator('#turns .turn--interviewer .turn__text').first().innerText();
    expect(greeting).toBe('Mayaさん、こんにちは。Lumen Notes についてお話しする時間をいただき、ありがとうございます。Lumen Notes を最初にどこで知りましたか？');
    expect(await page.locator('#progress').innerText()).toBe('質問 1 / 2');
    expect(await page.locator('.turn--interviewer .turn__who').first().innerText()).toBe('インタビュアー');

    expect(await send(page, 'あなたの回答', '送信', '同僚が会議のメモを見せてくれて、とても整っていたのでその日の午後に登録しました。')).toBe('最初の週にやめそうになったのはなぜですか？');
    expect(await page.locator('#progress').innerText()).toBe('質問 2 / 2');
    // Seven characters are four words at two a word: under eight, so probed, in Japanese.
    await page.getByLabel('あなたの回答').fill('インポートです。');
    await page.screenshot({ path: shot('interview-room-ja.png'), animations: 'disabled', caret: 'hide' });
    expect(statSync(shot('interview-room-ja.png')).size).toBeLessThan(200_000);
    if (process.env.UPDATE_SCREENSHOTS !== '1') rmSync(shot('interview-room-ja.png'));
    expect(await send(page, 'あなたの回答', '送信', 'インポートです。')).toMatch(/^(それについて、もう少し詳しく教えていただけますか？|具体的な例を挙げていただけますか？|そう思われるのはなぜですか？)$/);
    expect(await send(page, 'あなたの回答', '送信', '前のアプリからメモを移すのに時間がかかり、フォルダの構造も崩れてしまいました。')).toBe('Lumen Notes について、ほかに伝えたいことはありますか？');
    expect(await send(page, 'あなたの回答', '送信', '特にありません。')).toMatch(/^Mayaさん、ありがとうございました。質問は以上です。/);
    await page.getByRole('heading', { name: 'ありがとうございました！' }).waitFor();
    expect(await page.locator('body').innerText()).toContain('インタビューは完了し、回答は Lumen Notes のチームに届きました。');
    expect(errors).toEqual([]);
  });

  it('runs a whole interview in Arabic, right to left with the layout mirrored, and takes its screenshot', async () => {
    const { page, errors } = await browserWith({ locale: 'ar-EG' });
    const linkID = await link({ guidelines: '1. كيف سمعت عن Lumen Notes أول مرة؟\n2. ما الذي كاد يجعلك تتوقف في الأسبوع الأول؟', publicTitle: 'أسبوعك الأول مع Lumen Notes' });
    await page.goto(`${baseUrl}/i/${linkID}`, { waitUntil: 'load' });
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir, getComputedStyle(document.body).direction])).toEqual(['ar', 'rtl', 'rtl']);
    await page.getByRole('heading', { level: 1, name: 'أسبوعك الأول مع Lumen Notes' }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('Internal: March cohort');
    // The form's labels start at the right edge of the card.
    const label = (await page.getByText('الاسم', { exact: true }).boundingBox())!;
    const card = (await page.locator('section.card').boundingBox())!;
    expect(card.x + card.width - (label.x + label.width)).toBeLessThan(40);
    await start(page, { name: 'الاسم', email: 'البريد الإلكتروني', agree: /^أوافق على المشاركة/, start: 'بدء المقابلة' }, 'Maya Haddad');

    expect(await page.locator('#turns .turn--interviewer .turn__text').first().innerText()).toBe('مرحبًا Maya، وشكرًا لك على تخصيص وقتك للحديث معنا عن Lumen Notes. كيف سمعت عن Lumen Notes أول مرة؟');
    expect(await page.locator('#progress').innerText()).toBe('السؤال 1 من 2');
    expect(await send(page, 'إجابتك', 'إرسال', 'أرسلت لي زميلتي ملاحظات اجتماع مرتبة جدًا فسجلت في نفس اليوم بعد الظهر.')).toBe('ما الذي كاد يجعلك تتوقف في الأسبوع الأول؟');
    // Mirrored: the interviewer's bubbles start at the right, the interviewee's sit at the left.
    const asked = (await page.locator('.turn--interviewer').first().boundingBox())!;
    const answered = (await page.locator('.turn--interviewee').first().boundingBox())!;
    expect(asked.x + asked.width).toBeGreaterThan(answered.x + answered.width);
    expect(answered.x).toBeLessThan(asked.x);
    expect(PHONE.viewport!.width - (asked.x + asked.width)).toBeLessThan(30);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport!.width);
    await page.getByLabel('إجابتك').fill('استيراد الملاحظات من تطبيقي القديم.');
    await page.screenshot({ path: shot('interview-room-ar.png'), animations: 'disabled', caret: 'hide' });
    expect(statSync(shot('interview-room-ar.png')).size).toBeLessThan(200_000);
    if (process.env.UPDATE_SCREENSHOTS !== '1') rmSync(shot('interview-room-ar.png'));

    expect(await send(page, 'إجابتك', 'إرسال', 'استغرق نقل الملاحظات من تطبيقي القديم وقتًا طويلًا وضاع ترتيب المجلدات كله.')).toBe('هل هناك أي شيء آخر تودّ أن تخبرنا به عن Lumen Notes؟');
    expect(await send(page, 'إجابتك', 'إرسال', 'لا، شكرًا.')).toMatch(/^شكرًا لك يا Maya، هذه كل أسئلتنا\./);
    await page.getByRole('heading', { name: 'شكرًا لك!' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('runs a whole interview in Spanish from ?lang=es, then follows the completion redirect without the linkID or a Referer', async () => {
    const { page, errors } = await browserWith({ locale: 'en-US' });
    const linkID = await link({ guidelines: '¿Cómo conociste Lumen Notes?', completionRedirectUrl: PANEL });
    let arrived: Request | undefined;
    await page.route('https://panel.example/**', async (route) => {
      arrived = route.request();
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Panel</title><p>Thanks from the panel</p>' });
    });
    await page.goto(`${baseUrl}/i/${linkID}?lang=es`, { waitUntil: 'load' });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await start(page, { name: 'Nombre', email: 'Correo electrónico', agree: /^Acepto participar/, start: 'Empezar la entrevista' }, 'Maya López');
    expect(await page.locator('#turns .turn--interviewer .turn__text').first().innerText()).toBe(
      'Hola, Maya, y gracias por dedicar un momento a hablar con nosotros sobre Lumen Notes. ¿Cómo conociste Lumen Notes?',
    );
    expect(await page.locator('#progress').innerText()).toBe('Pregunta 1 de 1');
    expect(await send(page, 'Tu respuesta', 'Enviar', 'Una compañera me enseñó sus notas de reuniones y me registré esa misma tarde.')).toBe('¿Hay algo más que quieras contarnos sobre Lumen Notes?');
    expect(await send(page, 'Tu respuesta', 'Enviar', 'Nada más, gracias.')).toMatch(/^Gracias, Maya, esas son todas nuestras preguntas\./);
    await page.getByRole('heading', { name: '¡Gracias!' }).waitFor();
    const onward = page.getByRole('link', { name: 'Continuar' });
    expect(await onward.getAttribute('href')).toBe(`${PANEL}&status=completed`);

    // It goes there by itself within 5 s: the URL carries status= and nothing of the link, and no Referer.
    const started = Date.now();
    await page.waitForURL(/^https:\/\/panel\.example\//, { timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(page.url()).toBe(`${PANEL}&status=completed`);
    expect(page.url()).not.toContain(linkID);
    expect(arrived?.headers().referer).toBeUndefined();
    await page.getByText('Thanks from the panel').waitFor();
    expect(errors).toEqual([]);
  });
});
