import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { sqlDate } from '../src/database/column-types';
import { RetentionSweeper } from '../src/participants/retention-sweeper';
import { TestApp, adminToken, bearer, expectError, scopedToken, startApp, uniq } from './helpers/app';
import { makeInterview, makeProduct } from './helpers/factories';
import { dbFingerprint } from './helpers/fingerprint';
import { WebhookReceiver } from './helpers/webhook-receiver';
import { waitFor } from './helpers/wait';
import { allTables } from './helpers/table-text';

const GUIDELINES = ['1. What do you use Acme Notes for?', '2. What would you change about Acme Notes?'].join('\n');

/** The tables (and how many rows in each) whose rows mention `needle`, compared case-insensitively. */
async function mentions(db: DataSource, needle: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of await allTables(db)) {
    const rows: unknown[] = await db.query(`SELECT * FROM ${table}`);
    const n = rows.filter((row) => JSON.stringify(row).toLowerCase().includes(needle.toLowerCase())).length;
    if (n > 0) found[table] = n;
  }
  return found;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe("Interviewees' data: erasure and export", () => {
  let t: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;
  const hooks: string[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startApp({ REPORT_POLL_SECONDS: '1', WEBHOOK_ALLOW_LOCAL: 'true', RETENTION_DAYS: '3650' });
    admin = await adminToken(t);
  });
  // This suite's endpoints go (with their deliveries) before the app closes: no other suite's relay finds them.
  afterAll(async () => {
    if (hooks.length) await t.db.query(`DELETE FROM webhooks WHERE id IN (${hooks.map(() => '?').join(', ')})`, hooks);
    await t.close();
    await receiver.close();
  });

  const post = (path: string, body: Record<string, unknown>, token = admin) => t.http.post(path).set(bearer(token)).send(body);
  const get = (path: string, query: Record<string, unknown>, token = admin) => t.http.get(path).query(query).set(bearer(token));

  async function links(interviewID: string, count: number): Promise<string[]> {
    const res = await get('/v1/invites/createInvites', { interviewID, count });
    return (res.body.result as string[]).map((url) => new URL(url).pathname.split('/').pop()!);
  }

  /** One interviewee's whole interview: two answers, nothing else to add. */
  async function interview(linkID: string, name: string, email: string, answers: [string, string]): Promise<void> {
    await t.http.post(`/i/${linkID}/start`).send({ name, email, occupation: 'Cartographer', consent: true }).expect(200);
    for (const content of answers) await t.http.post(`/i/${linkID}/reply`).send({ content }).expect(200);
    const last = await t.http.post(`/i/${linkID}/reply`).send({ content: 'No, nothing else to add from my side today.' }).expect(200);
    expect(last.body.result.status).toBe('completed');
  }

  async function hook(orgID: string): Promise<string> {
    const path = `/hook/${uniq('p')}`;
    const res = await post('/v1/webhooks/addOne', { url: receiver.url(path), orgID, events: ['participant.erased'] });
    hooks.push(res.body.result.webhookID);
    receiver.register(path, res.body.result.secret);
    return path;
  }

  async function completedReport(interviewID: string): Promise<{ reportID: string; share: string }> {
    const reportID = (await post('/v1/reports/addOne', { interviewID })).body.result.reportID as string;
    await waitFor('report completed', async () => ((await get('/v1/reports/getOne', { reportID })).body.result.status === 'completed' ? true : undefined), 20_000);
    const url = (await post('/v1/reports/share', { reportID })).body.result.url as string;
    return { reportID, share: new URL(url, 'http://x').pathname };
  }

  const quotesOf = (result: { questions: { quotes: { linkID: string; text: string }[] }[]; themes: { quotes: { linkID: string; text: string }[] }[] }) => [
    ...result.questions.flatMap((q) => q.quotes),
    ...result.themes.flatMap((th) => th.quotes),
  ];

  it('erases a person under one owner and leaves the other owner\'s copies; erasing again finds nothing; then nothing of them is left anywhere', async () => {
    const tag = uniq('x').slice(2);
    const name = `Zephyrine Quistgaard${tag}`;
    const email = `zephyrine.${tag}@example.org`;
    const phrase = `lighthouse ledger ${tag} every tuesday`;
    const answers: [string, string] = [`I keep my ${phrase} with it and share maps with my crew weekly.`, `The export to paper atlases should be much faster than it is now.`];
    const others: [string, string] = ['I use it for meeting notes with my whole team every single week.', 'The search is slow on large notebooks and I wait for results.'];

    const orgA = uniq('org');
    const orgB = uniq('org');
    const productA = await makeProduct(t, admin, { orgID: orgA, name: 'Acme Notes' });
    const productB = await makeProduct(t, admin, { orgID: orgB, name: 'Beta Maps' });
    const interviewA1 = await makeInterview(t, admin, productA, { guidelines: GUIDELINES });
    const interviewA2 = await makeInterview(t, admin, productA, { guidelines: GUIDELINES });
    const interviewB = await makeInterview(t, admin, productB, { guidelines: GUIDELINES });
    const [a1, a1other] = await links(interviewA1, 2);
    const [a2] = await links(interviewA2, 1);
    const [b] = await links(interviewB, 1);
    // The address differs in case and spacing between interviews: the same person.
    await interview(a1, name, email, answers);
    await interview(a1other, 'Other Person', `other.${tag}@example.org`, others);
    await interview(a2, name, `  ${email.toUpperCase()} `.trim(), answers);
    await interview(b, name, email, answers);
    const reportA = await completedReport(interviewA1);
    const before = (await get('/v1/reports/getOne', { reportID: reportA.reportID })).body.result;
    expect(quotesOf(before.result).some((q) => q.linkID === a1)).toBe(true);
    expect((await t.http.get(reportA.share)).text).toContain(tag);
    const hookA = await hook(orgA);
    const hookB = await hook(orgB);

    // Export first: both interviews and the profile under A.
    const exported = await post('/v1/participants/export', { email: email.toUpperCase(), orgID: orgA });
    expect(exported.status).toBe(200);
    expect(exported.body.result.email).toBe(email.toUpperCase());
    expect(exported.body.result.invites.map((i: { linkID: string }) => i.linkID).sort()).toEqual([a1, a2].sort());
    expect(exported.body.result.invites[0]).toEqual((await get('/v1/invites/getOne', { linkID: exported.body.result.invites[0].linkID })).body.result);
    expect(exported.body.result.invites[0].userInfo.name).toBe(name);
    expect(exported.body.result.profiles).toHaveLength(1);
    expect(exported.body.result.profiles[0]).toMatchObject({ firstName: 'Zephyrine', productIDs: [productA], metadata: { interview_count: 2 } });

    // The digests kept of their answers (for the duplicate-answer check) are of their words: they go too.
    const digest = sha256(answers[0]);
    expect(await mentions(t.db, digest)).toEqual({ invite_answer_digests: 3 });
    // So is the digest of their address (for the duplicate-participant check), one per invite they started:
    // the SHA-256 of its normal form, which the audit keeps as emailSha256 by design and nothing else may.
    const emailDigest = sha256(email);
    expect(await mentions(t.db, emailDigest)).toEqual({ invite_email_digests: 3 });

    const erased = await post('/v1/participants/erase', { email, orgID: orgA });
    expect(erased.status).toBe(200);
    expect(erased.body.result).toEqual({ erasureID: expect.stringMatching(/^[0-9a-f-]{36}$/), invites: 2, profiles: 1, reports: 1 });

    // The first owner's copies are gone…
    for (const linkID of [a1, a2]) {
      const inv = (await get('/v1/invites/getOne', { linkID })).body.result;
      expect(inv).toMatchObject({ userInfo: null, conversation: [], status: 'completed' });
    }
    expect((await get('/v1/profiles/getList', { productID: productA })).body.result.map((p: { firstName: string }) => p.firstName)).toEqual(['Other']);
    const after = (await get('/v1/reports/getOne', { reportID: reportA.reportID })).body.result;
    expect(quotesOf(after.result).filter((q) => q.linkID === a1 || q.linkID === a2)).toEqual([]);
    expect(quotesOf(after.result).some((q) => q.linkID === a1other)).toBe(true);
    expect(JSON.stringify(after.result)).not.toContain(tag);
    const page = await t.http.get(reportA.share);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(tag);
    // …the other owner's are intact.
    expect((await get('/v1/invites/getOne', { linkID: b })).body.result.userInfo).toEqual({ name, email, occupation: 'Cartographer' });
    expect((await get('/v1/profiles/getList', { productID: productB })).body.result).toHaveLength(1);
    expect(Object.keys(await mentions(t.db, phrase))).toEqual(['invites']);

    // Receivers that see A's product hear of it, without the address; B's do not.
    const sha = sha256(email);
    const [event] = await receiver.waitFor(hookA, 1);
    expect(event.verifyError).toBeNull();
    expect(event.payload).toEqual({ type: 'participant.erased', timestamp: expect.stringMatching(/Z$/), data: { erasureID: erased.body.result.erasureID, emailSha256: sha, linkIDs: [a1, a2].sort((x, y) => (x === a1 ? -1 : y === a1 ? 1 : 0)) } });
    expect(event.body).not.toContain(email);

    // Erasing again finds nothing and changes nothing but the audit.
    const again = await post('/v1/participants/erase', { email, orgID: orgA });
    expect(again.body.result).toEqual({ erasureID: expect.any(String), invites: 0, profiles: 0, reports: 0 });

    // The audit: who, when, what counts, the address only as its hash.
    const audit = await get('/v1/participants/getErasures', { orgID: orgA });
    expect(audit.body.result).toEqual([
      { erasureID: erased.body.result.erasureID, at: expect.stringMatching(/Z$/), by: 'e2e admin', emailSha256: sha, invites: 2, profiles: 1, reports: 1 },
      { erasureID: again.body.result.erasureID, at: expect.stringMatching(/Z$/), by: 'e2e admin', emailSha256: sha, invites: 0, profiles: 0, reports: 0 },
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(email);

    // Then under the second owner too: nothing of the person is left in any table.
    const second = await post('/v1/participants/erase', { email, orgID: orgB });
    expect(second.body.result).toMatchObject({ invites: 1, profiles: 1, reports: 0 });
    await receiver.waitFor(hookB, 1);
    for (const needle of [email, name, phrase, 'Quistgaard', digest]) expect({ needle, found: await mentions(t.db, needle) }).toEqual({ needle, found: {} });
    // The address's digest is left only where it is the audit's emailSha256: the three erasures and the two events.
    expect(await mentions(t.db, emailDigest)).toEqual({ erasures: 3, webhook_deliveries: 2 });
    // The other interviewee under A keeps their data.
    expect((await get('/v1/invites/getOne', { linkID: a1other })).body.result.userInfo.email).toBe(`other.${tag}@example.org`);
  });

  it('exports nothing for an unknown address, and erases within a user when the invites have no organization', async () => {
    const userID = uniq('user');
    const productID = await makeProduct(t, admin, { userID, name: 'Solo Notes' });
    const interviewID = await makeInterview(t, admin, productID, { guidelines: GUIDELINES });
    const [linkID] = await links(interviewID, 1);
    await interview(linkID, 'Ada Lovelace', `ada.${userID}@example.com`, ['I use it for meeting notes with my whole team every week.', 'The search is slow on large notebooks and I wait for results.']);
    const own = await scopedToken(t, { userID });
    expect((await post('/v1/participants/export', { email: 'nobody@example.com', userID }, own)).body.result).toEqual({ email: 'nobody@example.com', invites: [], profiles: [] });
    const res = await post('/v1/participants/erase', { email: `ada.${userID}@example.com`, userID }, own);
    expect(res.body.result).toMatchObject({ invites: 1, profiles: 1 });
    expect((await get('/v1/participants/getErasures', { userID }, own)).body.result).toEqual([expect.objectContaining({ by: 'e2e scoped', invites: 1 })]);
  });

  it('trims an address in the room and in participants routes: " Bob@Example.com " is Bob, and his case is kept', async () => {
    const orgID = uniq('org');
    const productID = await makeProduct(t, admin, { orgID });
    const interviewID = await makeInterview(t, admin, productID, { guidelines: GUIDELINES });
    const [linkID] = await links(interviewID, 1);
    const address = `Bob.${uniq('b').slice(2)}@Example.com`;
    await interview(linkID, 'Bob Builder', `  ${address}\u00a0`, ['I write all of my building site notes in it every single day.', 'An offline search would help me a lot when I am on site.']);
    expect((await get('/v1/invites/getOne', { linkID })).body.result.userInfo.email).toBe(address);

    const exported = await post('/v1/participants/export', { email: ` ${address.toLowerCase()}\t`, orgID });
    expect(exported.status).toBe(200);
    expect(exported.body.result.email).toBe(address.toLowerCase());
    expect(exported.body.result.invites.map((i: { linkID: string }) => i.linkID)).toEqual([linkID]);
    const erased = await post('/v1/participants/erase', { email: ` ${address} `, orgID });
    expect(erased.body.result).toMatchObject({ invites: 1, profiles: 1 });
    expect((await get('/v1/invites/getOne', { linkID })).body.result.userInfo).toBeNull();
  });

  it('refuses another owner (403), two owners or none (400), and a bad address (400), writing nothing', async () => {
    const orgID = uniq('org');
    const mine = await scopedToken(t, { orgID });
    const before = await dbFingerprint(t.db);
    for (const path of ['/v1/participants/erase', '/v1/participants/export']) {
      expectError(await post(path, { email: 'ada@example.com', orgID: uniq('org') }, mine), 403);
      expectError(await post(path, { email: 'ada@example.com', userID: uniq('user') }, mine), 403);
      expectError(await post(path, { email: 'ada@example.com', orgID, userID: 'u' }, mine), 400, /exactly one of orgID, userID/);
      expectError(await post(path, { email: 'ada@example.com' }, mine), 400, /exactly one of orgID, userID/);
      expectError(await post(path, { email: 'not an address', orgID }, mine), 400, /email must be an email address/);
      expectError(await post(path, { orgID }, mine), 400, /email is required/);
      expectError(await post(path, { email: 'ada@example.com', orgID, extra: 1 }, mine), 400, /extra/);
    }
    expect(await dbFingerprint(t.db)).toBe(before);
    expectError(await get('/v1/participants/getErasures', {}, mine), 400, /at least one of orgID, userID/);
    // Another owner's audit is not listed.
    expect((await get('/v1/participants/getErasures', { orgID: uniq('org') }, mine)).body.result).toEqual([]);
  });

  describe('retention', () => {
    const DAY = 86_400_000;

    it("erases an old interview's people while a fresh one stays; the interview's retentionDays, then RETENTION_DAYS; audited as retention", async () => {
      const orgID = uniq('org');
      const productID = await makeProduct(t, admin, { orgID, name: 'Acme Notes' });
      const kept7 = await makeInterview(t, admin, productID, { guidelines: GUIDELINES, retentionDays: 7 });
      const byDefault = await makeInterview(t, admin, productID, { guidelines: GUIDELINES });
      expect((await get('/v1/interviews/getOne', { interviewID: kept7 })).body.result).toMatchObject({ retentionDays: 7, redactPII: false });
      expect((await get('/v1/interviews/getOne', { interviewID: byDefault })).body.result).toMatchObject({ retentionDays: null, redactPII: false });
      const [old, fresh, revoked, pending] = await links(kept7, 4);
      const [other] = await links(byDefault, 1);
      const tag = uniq('r').slice(2);
      const answers: [string, string] = [`I write harbour charts ${tag} with it every single week for the crew.`, 'The search is slow on large notebooks and I wait for results.'];
      await interview(old, 'Olga Oldham', `olga.${tag}@example.org`, answers);
      await interview(fresh, 'Fred Fresh', `fred.${tag}@example.org`, answers);
      await interview(other, 'Fred Fresh', `fred.${tag}@example.org`, answers);
      await post('/v1/invites/revokeOne', { linkID: revoked }).expect(200);
      // Olga finished ten days ago, the revoked link was withdrawn eight days ago; Fred finished just now.
      await t.db.query('UPDATE invites SET updated_at = ? WHERE link_id = ?', [sqlDate(new Date(Date.now() - 10 * DAY)), old]);
      await t.db.query('UPDATE invites SET updated_at = ? WHERE link_id = ?', [sqlDate(new Date(Date.now() - 8 * DAY)), revoked]);
      const sweeper = t.app.get(RetentionSweeper);
      const invite = async (linkID: string) => (await get('/v1/invites/getOne', { linkID })).body.result;

      await sweeper.sweep(new Date());
      expect(await invite(old)).toMatchObject({ userInfo: null, conversation: [], status: 'completed' });
      expect(await invite(revoked)).toMatchObject({ status: 'revoked', userInfo: null });
      expect((await invite(fresh)).userInfo.email).toBe(`fred.${tag}@example.org`);
      expect((await invite(pending)).status).toBe('pending');
      const people = async () => ((await get('/v1/profiles/getList', { productID })).body.result as { firstName: string }[]).map((p) => p.firstName).sort();
      expect(await people()).toEqual(['Fred']);
      expect(Object.keys(await mentions(t.db, `olga.${tag}`))).toEqual([]);

      // Eight days on, Fred's invite of the 7-day interview goes too; his profile stays with his other interview.
      await sweeper.sweep(new Date(Date.now() + 8 * DAY));
      expect((await invite(fresh)).userInfo).toBeNull();
      expect((await invite(other)).userInfo.email).toBe(`fred.${tag}@example.org`);
      expect(await people()).toEqual(['Fred']);

      // RETENTION_DAYS (3650 here) covers interviews without their own: ten years on, Fred is gone entirely.
      await sweeper.sweep(new Date(Date.now() + 3651 * DAY));
      expect((await invite(other)).userInfo).toBeNull();
      expect(await people()).toEqual([]);
      for (const needle of [`fred.${tag}`, 'Fred Fresh', `harbour charts ${tag}`, sha256(answers[0])]) expect({ needle, found: await mentions(t.db, needle) }).toEqual({ needle, found: {} });
      // The digest of Fred's address went with it: the audit alone keeps it, as emailSha256.
      expect(await mentions(t.db, sha256(`fred.${tag}@example.org`))).toEqual({ erasures: 2 });

      const audit = (await get('/v1/participants/getErasures', { orgID })).body.result as { by: string; invites: number; profiles: number; emailSha256: string }[];
      const sha = sha256;
      expect(audit.map(({ by, invites, profiles, emailSha256 }) => ({ by, invites, profiles, emailSha256 }))).toEqual([
        { by: 'retention', invites: 1, profiles: 1, emailSha256: sha(`olga.${tag}@example.org`) },
        { by: 'retention', invites: 1, profiles: 0, emailSha256: sha(`fred.${tag}@example.org`) },
        { by: 'retention', invites: 1, profiles: 1, emailSha256: sha(`fred.${tag}@example.org`) },
      ]);
      // Erased invites are never due again.
      await expect(sweeper.sweep(new Date(Date.now() + 3651 * DAY))).resolves.toBe(0);
    });

    it('erases each invite once when several instances sweep at the same time', async () => {
      const orgID = uniq('org');
      const productID = await makeProduct(t, admin, { orgID });
      const interviewID = await makeInterview(t, admin, productID, { guidelines: GUIDELINES, retentionDays: 2 });
      const people = await links(interviewID, 6);
      const answers: [string, string] = ['I use it for meeting notes with my whole team every single week.', 'The search is slow on large notebooks and I wait for results.'];
      for (const [i, linkID] of people.entries()) await interview(linkID, `Person ${i}`, `p${i}.${orgID}@example.org`, answers);
      // A second instance of the service on the same database.
      const other = await startApp({ RETENTION_DAYS: '3650' });
      try {
        const later = new Date(Date.now() + 3 * DAY);
        const [a, b] = await Promise.all([t.app.get(RetentionSweeper).sweep(later), other.app.get(RetentionSweeper).sweep(later)]);
        expect(a + b).toBeGreaterThanOrEqual(people.length);
      } finally {
        await other.close();
      }
      const audit = (await get('/v1/participants/getErasures', { orgID })).body.result as { by: string; invites: number; profiles: number }[];
      expect(audit).toHaveLength(people.length);
      expect(audit.every((e) => e.by === 'retention' && e.invites === 1 && e.profiles === 1)).toBe(true);
      for (const linkID of people) expect((await get('/v1/invites/getOne', { linkID })).body.result.userInfo).toBeNull();
    });

    it('refuses a retentionDays out of range or of the wrong type', async () => {
      const productID = await makeProduct(t, admin, { orgID: uniq('org') });
      for (const retentionDays of [0, 3651, 1.5, '7']) {
        expectError(await post('/v1/interviews/addOne', { productID, interviewName: 'x', retentionDays }), 400, /retentionDays must be/);
      }
      const interviewID = await makeInterview(t, admin, productID, { retentionDays: 30 });
      await post('/v1/interviews/updateOne', { interviewID, retentionDays: null, redactPII: true }).expect(200);
      expect((await get('/v1/interviews/getOne', { interviewID })).body.result).toMatchObject({ retentionDays: null, redactPII: true });
      expectError(await post('/v1/interviews/updateOne', { interviewID, redactPII: 'yes' }), 400, /redactPII must be true or false/);
    });
  });
});
