import { DataSource } from 'typeorm';
import { productScopeSql } from '../src/access/access-rule';
import { newUrlSecrets, uuidv7 } from '../src/common/ids';
import { KeysetList, type KeysetQuery } from '../src/common/keyset';
import { queryAndParameters } from '../src/database/query-text';
import { StoredJson } from '../src/database/stored-json';
import { Interview } from '../src/interviews/interview.entity';
import { Product } from '../src/products/product.entity';
import { InterviewsRepository } from '../src/interviews/interviews.repository';
import { InvitesRepository } from '../src/invites/invites.repository';
import { InviteAnswerDigest } from '../src/invites/invite-answer-digest.entity';
import { ProductsRepository } from '../src/products/products.repository';
import { ProfilesRepository } from '../src/profiles/profiles.repository';
import { WebhookRelay } from '../src/webhooks/webhook-relay';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository';
import { TestApp, uniq, useTestApp } from './helpers/app';

/**
 * Each module's repository against the e2e database (embedded SQLite, or MariaDB in CI's second run):
 * the SQL of every module lives in its repository, and this is where it is checked directly.
 */
describe('Repositories (SQL on the e2e database)', () => {
  let t: TestApp;
  let db: DataSource;
  useTestApp((app) => {
    t = app.t;
    db = t.db;
  });

  const DAY = 86_400_000;
  const product = async (owner: { orgID?: string | null; userID?: string | null }, name = 'p') => {
    const productID = uuidv7();
    await t.app.get(ProductsRepository).insert(productID, { name, desc: null, orgID: owner.orgID ?? null, userID: owner.userID ?? null, url: null, imageLink: null }, new Date());
    return productID;
  };
  const interview = async (productID: string) => {
    const interviewID = uuidv7();
    await t.app.get(InterviewsRepository).insert([{ interviewID, productID, interviewName: 'i', guidelines: 'Why?', userID: null, interviewer: 'default' }], new Date());
    return interviewID;
  };

  describe(ProductsRepository.name, () => {
    it('inserts, reads, updates only the fields given, and lists in order within a scope, a page at a time', async () => {
      const sut = t.app.get(ProductsRepository);
      const orgID = uniq('org');
      const ids = [await product({ orgID }, 'a'), await product({ orgID, userID: 'u1' }, 'b'), await product({ orgID: uniq('other'), userID: 'u1' }, 'c')];
      await sut.update(ids[0], { name: 'renamed', url: 'https://x.example' }, new Date());
      await expect(sut.findById(ids[0])).resolves.toEqual({ productID: ids[0], name: 'renamed', desc: null, orgID, userID: null, url: 'https://x.example', imageLink: null, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
      await expect(sut.findById('no-such-product')).resolves.toBeNull();

      const all = sut.list({ orgID }, undefined);
      const first = await all.page(1);
      expect(first.rows.map((r) => r.productID)).toEqual([ids[0]]);
      const second = await all.page(5, first.next);
      expect({ ids: second.rows.map((r) => r.productID), next: second.next }).toEqual({ ids: [ids[1]], next: undefined });
      await expect(all.countUpTo(1)).resolves.toBe(1);
      await expect(all.countUpTo(10)).resolves.toBe(2);
      // A token of user u1 alone sees b of this organization, not a.
      const scoped = sut.list({ orgID }, productScopeSql({ isAdmin: false, orgID: null, userID: 'u1' }, 'p'));
      expect((await scoped.page(10)).rows.map((r) => r.productID)).toEqual([ids[1]]);
    });
  });

  describe('SQL text kept by shape (queryAndParameters)', () => {
    it("gives what the builder's own getQueryAndParameters gives, for the lists' builders, on a first and a later use", async () => {
      const orgs = [uniq('org'), uniq('org')];
      const ids = [await product({ orgID: orgs[0] }, 'a'), await product({ orgID: orgs[0], userID: 'u1' }, 'b'), await product({ orgID: orgs[1] }, 'c')];
      const seen: [string, unknown[]][] = [];
      // The products list's own builders (KeysetList adds the cursor, order and limit), each held to the stock method.
      const list = (filter: { orgID?: string; userID?: string }, scope?: ReturnType<typeof productScopeSql>) => {
        const inner = t.app.get(ProductsRepository).list(filter, scope);
        // Its own query (KeysetList keeps it private), read through a check of each builder it makes.
        const query = (inner as unknown as { q: KeysetQuery<Product, Product> }).q;
        return new KeysetList<Product, Product>({
          ...query,
          read: async (builder) => {
            const ours = queryAndParameters(builder);
            expect(ours).toEqual(builder.getQueryAndParameters());
            seen.push(ours);
            return query.read!(builder);
          },
        });
      };
      const first = await list({ orgID: orgs[0] }).page(1);
      const other = await list({ orgID: orgs[1] }).page(1);
      expect([...first.rows, ...other.rows].map((r) => r.productID)).toEqual([ids[0], ids[2]]);
      // One shape, one text; the values are each list's own.
      expect(seen[1][0]).toBe(seen[0][0]);
      expect(seen.map(([, params]) => params[0])).toEqual([orgs[0], orgs[1]]);
      // After a cursor, from a cursor, and within a scope: other shapes, other texts.
      expect((await list({ orgID: orgs[0] }).page(1, first.next)).rows.map((r) => r.productID)).toEqual([ids[1]]);
      expect((await list({ orgID: orgs[0] }).page(1, first.next)).rows.map((r) => r.productID)).toEqual([ids[1]]);
      const { value: resumed } = await list({ orgID: orgs[0] }).pages(5, first.next, true).next();
      expect((resumed as Product[]).map((r) => r.productID)).toEqual([ids[0], ids[1]]);
      expect((await list({ orgID: orgs[0] }, productScopeSql({ isAdmin: false, orgID: null, userID: 'u1' }, 'p')).page(10)).rows.map((r) => r.productID)).toEqual([ids[1]]);
      expect(new Set(seen.map(([sql]) => sql)).size).toBe(4);
    });

    it('builds anew what its key does not cover (a join), and keeps shapes that differ apart', async () => {
      const repo = db.getRepository(Product);
      const joined = () => repo.createQueryBuilder('p').innerJoin(Interview, 'iv', 'iv.productID = p.productID').select('p.productID', 'productID').where('p.orgID = :orgID', { orgID: 'o' });
      expect(queryAndParameters(joined())).toEqual(joined().getQueryAndParameters());
      expect(queryAndParameters(joined())).toEqual(joined().getQueryAndParameters());
      const by = (column: string) => repo.createQueryBuilder('p').select('p.productID', 'productID').where(`p.${column} = :v`, { v: 'x' });
      expect(queryAndParameters(by('orgID'))).toEqual(by('orgID').getQueryAndParameters());
      expect(queryAndParameters(by('userID'))).toEqual(by('userID').getQueryAndParameters());
      expect(queryAndParameters(by('userID'))[0]).not.toBe(queryAndParameters(by('orgID'))[0]);
    });
  });

  describe(InterviewsRepository.name, () => {
    it('reads an interview with its product\'s owners, also locked in a transaction, and knows when it has invites', async () => {
      const sut = t.app.get(InterviewsRepository);
      const orgID = uniq('org');
      const productID = await product({ orgID, userID: 'u9' });
      const interviewID = await interview(productID);
      const fieldwork = { translations: null, language: null, publicTitle: null, consentText: null, completionRedirectUrl: null, retentionDays: null, redactPII: false, mode: 'text', keepAudio: false };
      const times = { createdAt: expect.any(Date), updatedAt: expect.any(Date) };
      const owned = { interview: { interviewID, productID, interviewName: 'i', guidelines: 'Why?', userID: null, interviewer: 'default', ...fieldwork, ...times }, owner: { orgID, userID: 'u9' } };
      await expect(sut.findOwned(interviewID)).resolves.toEqual(owned);
      await db.transaction(async (tx) => {
        await expect(sut.findOwned(interviewID, { db: tx, lock: true })).resolves.toEqual(owned);
        await expect(sut.hasInvites(interviewID, tx)).resolves.toBe(false);
        await sut.update(interviewID, { interviewName: 'moved', guidelines: null, translations: { fr: 'Pourquoi ?' }, redactPII: true, retentionDays: 30 }, new Date(), tx);
      });
      await expect(sut.findOwned(interviewID)).resolves.toMatchObject({ interview: { interviewName: 'moved', guidelines: null, translations: { fr: 'Pourquoi ?' }, redactPII: true, retentionDays: 30, keepAudio: false } });
      await t.app.get(InvitesRepository).insertPending({ interviewID, productID, orgID }, newUrlSecrets(1), new Date(), new Date(Date.now() + DAY));
      await expect(sut.hasInvites(interviewID, db.manager)).resolves.toBe(true);
    });
  });

  describe(InvitesRepository.name, () => {
    it('inserts pending invites, writes a change, finds the due ones and expires only those still pending or started', async () => {
      const sut = t.app.get(InvitesRepository);
      const orgID = uniq('org');
      const productID = await product({ orgID });
      const interviewID = await interview(productID);
      const [overdue, started, fresh] = newUrlSecrets(3);
      const now = new Date();
      await sut.insertPending({ interviewID, productID, orgID }, [overdue, started], new Date(now.getTime() - 3 * DAY), new Date(now.getTime() - DAY));
      await sut.insertPending({ interviewID, productID, orgID }, [fresh], now, new Date(now.getTime() + DAY));

      await db.transaction(async (tx) => {
        await expect(sut.lockState(tx, started)).resolves.toMatchObject({ status: 'pending', conversation: [] });
        await sut.write(tx, started, { status: 'started', userInfo: { email: 'a@example.com', name: 'A', occupation: null }, conversation: [{ role: 'system', content: 'ok' }] }, now);
      });
      await expect(sut.findForRoom(started)).resolves.toMatchObject({
        status: 'started',
        interview: { interviewName: 'i', guidelines: 'Why?', redactPII: false },
        product: { name: 'p' },
        recruitment: null,
        userInfo: { email: 'a@example.com', name: 'A', occupation: null },
        conversation: [{ role: 'system', content: 'ok' }],
      });
      await expect(sut.findOwned(fresh)).resolves.toMatchObject({ invite: { linkID: fresh, status: 'pending' }, owner: { orgID, userID: null } });

      await db.transaction(async (tx) => {
        const due = await sut.lockDueToExpire(tx, now, 10_000);
        expect(due).toEqual(expect.arrayContaining([overdue, started]));
        expect(due).not.toContain(fresh);
        await sut.expireMany(tx, [overdue, started, fresh], now);
      });
      const rows = await sut.eventRows(db.manager, [overdue, started, fresh]);
      expect(Object.fromEntries(rows.map((r) => [r.linkID, r.status]))).toEqual({ [overdue]: 'expired', [started]: 'expired', [fresh]: 'expired' });
      expect(rows[0].owner).toEqual({ orgID, userID: null });
    });
    it('lists an interview\'s invites a page at a time, tallies them, and reads their answers with the JSON as stored', async () => {
      const sut = t.app.get(InvitesRepository);
      const orgID = uniq('org');
      const productID = await product({ orgID });
      const interviewID = await interview(productID);
      const created = new Date('2026-03-04T05:06:07.089Z');
      const ids = newUrlSecrets(3).sort();
      await sut.insertPending({ interviewID, productID, orgID, segment: 'a' }, ids, created, new Date(created.getTime() + DAY));
      const conversation = [{ role: 'interviewee' as const, content: 'Yes.' }];
      await db.transaction((tx) => sut.write(tx, ids[1], { status: 'started', startedOn: created, conversation, turnMeta: [{ at: null, questionIndex: null }], answerCount: 1 }, created));

      const list = sut.list({ interviewID, segment: 'a' });
      const first = await list.page(2);
      expect(first.rows.map((r) => r.linkID)).toEqual(ids.slice(0, 2));
      expect(first.rows[1]).toMatchObject({ createdAt: created, userInfo: null, segment: 'a' });
      // The JSON columns as stored (the text the column's transformer wrote), for the stream to write as it is.
      expect(first.rows[1].conversation).toStrictEqual(new StoredJson(JSON.stringify(conversation)));
      expect(first.rows[1].quality).toBeNull();
      const second = await list.page(2, first.next);
      expect({ ids: second.rows.map((r) => r.linkID), next: second.next }).toEqual({ ids: [ids[2]], next: undefined });
      // A list of finer things than invites resumes inside the invite its cursor names.
      expect((await list.page(2, first.next, true)).rows.map((r) => r.linkID)).toEqual(ids.slice(1));
      await expect(list.countUpTo(2)).resolves.toBe(2);
      await expect(list.countUpTo(10)).resolves.toBe(3);

      await expect(sut.tally(interviewID)).resolves.toEqual({ byStatus: { pending: 2, started: 1 }, started: 1, answers: 1 });
      const [source] = (await sut.answerSources(interviewID, { withPerson: false }).page(10)).rows;
      expect(source).toMatchObject({ linkID: ids[1], status: 'started', userInfo: null, conversation: JSON.stringify(conversation), turnMeta: JSON.stringify([{ at: null, questionIndex: null }]) });
      // The digests of the turns a change appends, from the given index on: the interviewee's only, and
      // only answers of 8 words or more (a shorter one can never equal a compared answer).
      const long = 'Because it is quick and the whole team already knows it.';
      const long2 = 'We tried two other tools before this one and gave both up.';
      const appended = [
        ...conversation,
        { role: 'interviewer' as const, content: long2 },
        { role: 'interviewee' as const, content: long },
        { role: 'interviewer' as const, content: 'Anything else?' },
        { role: 'interviewee' as const, content: 'No, that is all.' },
      ];
      await db.transaction((tx) => sut.keepAnswers(tx, { linkID: ids[1], interviewID }, appended, 1));
      const otherInterview = await interview(productID);
      await db.transaction(async (tx) => {
        await expect(sut.answerElsewhere(tx, interviewID, ids[0], long)).resolves.toBe(true);
        await expect(sut.answerElsewhere(tx, interviewID, ids[0], long.toLowerCase())).resolves.toBe(false);
        await expect(sut.answerElsewhere(tx, interviewID, ids[0], long2)).resolves.toBe(false);
        await expect(sut.answerElsewhere(tx, interviewID, ids[0], 'No, that is all.')).resolves.toBe(false);
        // Turn 0 came before the index given: not kept.
        await expect(sut.answerElsewhere(tx, interviewID, ids[0], 'Yes.')).resolves.toBe(false);
        // Never the invite's own, nor another interview's.
        await expect(sut.answerElsewhere(tx, interviewID, ids[1], long)).resolves.toBe(false);
        await expect(sut.answerElsewhere(tx, otherInterview, ids[0], long)).resolves.toBe(false);
      });
      // One row: the long answer's (turn 2 of the appended transcript).
      expect(await db.getRepository(InviteAnswerDigest).find({ select: { linkID: true, turnIndex: true }, where: { linkID: ids[1] } })).toEqual([{ linkID: ids[1], turnIndex: 2 }]);
      // The address an invite started with, kept in its normal form (trimmed, lower-cased); a blank one not at all.
      await db.transaction(async (tx) => {
        await sut.keepEmail(tx, { linkID: ids[1], interviewID }, '  Ada@Example.COM ');
        await sut.keepEmail(tx, { linkID: ids[2], interviewID }, '   ');
      });
      await db.transaction(async (tx) => {
        await expect(sut.emailElsewhere(tx, interviewID, ids[0], 'ada@example.com')).resolves.toBe(true);
        await expect(sut.emailElsewhere(tx, interviewID, ids[0], ' ADA@example.com\t')).resolves.toBe(true);
        await expect(sut.emailElsewhere(tx, interviewID, ids[0], 'ada@example.org')).resolves.toBe(false);
        await expect(sut.emailElsewhere(tx, interviewID, ids[0], '')).resolves.toBe(false);
        // Never the invite's own, nor another interview's.
        await expect(sut.emailElsewhere(tx, interviewID, ids[1], 'ada@example.com')).resolves.toBe(false);
        await expect(sut.emailElsewhere(tx, otherInterview, ids[0], 'ada@example.com')).resolves.toBe(false);
      });
      await expect(db.query('SELECT link_id AS linkID FROM invite_email_digests WHERE interview_id = ?', [interviewID])).resolves.toEqual([{ linkID: ids[1] }]);
    });
  });

  describe(ProfilesRepository.name, () => {
    it('finds an owner\'s profile by email, links a product once, and lists a profile\'s products within a scope', async () => {
      const sut = t.app.get(ProfilesRepository);
      const orgID = uniq('org');
      const mine = await product({ orgID });
      const theirs = await product({ orgID: uniq('other') });
      const profileID = uuidv7();
      const ownerKey = `org:${orgID}`;
      const empty = { source: null, acquired_date: null, last_interviewed: null, interview_count: null, sentiment: null };
      const details = { occupation: null, location: null, background: null, productAlignment: null, key_values: [], interests: [] };
      await db.transaction(async (tx) => {
        await sut.insert(tx, { profileID, firstName: 'Ada', lastName: null, metadata: empty, details, history: [], createdAt: new Date(), ownerKey, email: 'ada@example.com', sentimentTurns: 0 }, [mine]);
        await sut.linkProduct(tx, profileID, theirs);
        await sut.linkProduct(tx, profileID, theirs);
        await expect(sut.findMatching(tx, ownerKey, 'ada@example.com', { lock: true })).resolves.toMatchObject({ profileID, firstName: 'Ada', sentimentTurns: 0 });
        await expect(sut.findMatching(tx, `org:${uniq('x')}`, 'ada@example.com', { lock: true })).resolves.toBeNull();
        await sut.update(tx, profileID, { metadata: { ...empty, interview_count: 2 }, details, history: [{ type: 'invite', id: 'l1' }], sentimentTurns: 3 });
        await expect(sut.productsWithOwners(tx, profileID)).resolves.toEqual([
          { productID: mine, orgID, userID: null },
          { productID: theirs, orgID: expect.any(String), userID: null },
        ]);
      });
      await expect(sut.findById(profileID)).resolves.toMatchObject({ metadata: { ...empty, interview_count: 2 }, history: [{ type: 'invite', id: 'l1' }], sentimentTurns: 3, createdAt: expect.any(Date) });
      await expect(sut.productsOf([profileID], undefined)).resolves.toEqual(new Map([[profileID, [mine, theirs]]]));
      await expect(sut.productsOf([profileID], productScopeSql({ isAdmin: false, orgID, userID: null }, 'p'))).resolves.toEqual(new Map([[profileID, [mine]]]));
    });
  });

  describe(WebhooksRepository.name, () => {
    it('fans out to the endpoints that see a product, claims each due delivery once, and settles only while the claim holds', async () => {
      const sut = t.app.get(WebhooksRepository);
      // This app's own relay would claim the delivery too: it stops, as it does at shutdown.
      await t.app.get(WebhookRelay).stop();
      const orgID = uniq('org');
      const webhookID = uuidv7();
      await sut.insertEndpoint({ webhookID, url: 'https://hooks.example/x', events: null, orgID, userID: null, secret: 'whsec_x' }, new Date());
      const seeing = await sut.endpointsSeeing(db.manager, [{ orgID, userID: null }]);
      expect(seeing).toEqual([{ webhookID, orgID, userID: null, events: null }]);
      await expect(sut.endpointsSeeing(db.manager, [{ orgID: uniq('none'), userID: null }])).resolves.toEqual([]);

      const deliveryID = uuidv7();
      // Due a minute ago: only this test's delivery is old enough for the claim below to be sure to include it.
      const due = new Date(Date.now() - 60_000);
      await db.transaction((tx) => sut.insertDeliveries(tx, [{ deliveryID, webhookID, type: 'profile.created', payload: '{}' }], due));
      const backlog = await sut.dueBacklog(new Date());
      expect(backlog.count).toBeGreaterThanOrEqual(1);
      expect(backlog.oldestDue).toBeInstanceOf(Date);
      expect(backlog.oldestDue!.getTime()).toBeLessThanOrEqual(due.getTime());
      const now = new Date();
      const first = await sut.claim('claim-1', 1000, now, new Date(now.getTime() + 60_000));
      expect(first.map((c) => c.deliveryID)).toContain(deliveryID);
      const again = await sut.claim('claim-2', 1000, now, new Date(now.getTime() + 60_000));
      expect(again.map((c) => c.deliveryID)).not.toContain(deliveryID);

      await expect(sut.settle(db.manager, { deliveryID, claimToken: 'claim-2' }, { status: 'delivered', nextAttemptAt: null }, now)).resolves.toBe(false);
      await expect(sut.requeue(deliveryID, now)).resolves.toBe(false);
      await expect(sut.settle(db.manager, { deliveryID, claimToken: 'claim-1' }, { status: 'delivered', nextAttemptAt: null }, now)).resolves.toBe(true);
      await expect(sut.findDelivery(deliveryID)).resolves.toMatchObject({ status: 'delivered', claimToken: null, owner: { orgID, userID: null }, webhookStatus: 'active' });
      await expect(sut.requeue(deliveryID, now)).resolves.toBe(true);

      const attemptedAt = new Date('2026-05-06T07:08:09.012Z');
      await sut.insertAttempt(db.manager, { attemptID: uuidv7(), deliveryID, webhookID, attemptedAt, statusCode: 204, error: null, durationMs: 12 });
      const [listed] = (await sut.listEndpoints({ orgID }, productScopeSql({ isAdmin: false, orgID, userID: null }, 'w')).page(10)).rows;
      expect(listed).toMatchObject({ webhookID, events: null, createdAt: expect.any(Date), lastAttemptID: expect.any(String) });
      expect(listed).not.toHaveProperty('secret');
      await expect(sut.attemptsById([listed.lastAttemptID!])).resolves.toEqual([expect.objectContaining({ deliveryID, attemptedAt, statusCode: 204, delivery: expect.objectContaining({ type: 'profile.created' }) })]);
      await expect(sut.listEndpoints({ orgID }, productScopeSql({ isAdmin: false, orgID: uniq('other'), userID: null }, 'w')).page(10)).resolves.toEqual({ rows: [] });
      await sut.deleteEndpoint(webhookID);
      await expect(sut.findDelivery(deliveryID)).resolves.toBeUndefined();
    });
  });
});
