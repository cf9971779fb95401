import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../src/config/app-config';
import { SeedModule } from '../src/seed/seed.module';
import { SeedService, SeedProgress } from '../src/seed/seed.service';
import { TestApp, bearer, startApp, tableCounts, uniq } from './helpers/app';

const quiet: SeedProgress = { start: () => undefined, tick: () => undefined, stop: () => undefined };

describe('Demo data (npm run seed)', () => {
  let t: TestApp;
  let seeder: INestApplicationContext;

  beforeAll(async () => {
    t = await startApp();
    // The seed command's own context, as `npm run seed` builds it; the HTTP app reads what it wrote.
    seeder = await NestFactory.createApplicationContext(SeedModule.forRoot(loadConfig()), { logger: false, abortOnError: false });
  });

  afterAll(async () => {
    await seeder?.close();
    await t.close();
  });

  it('creates products, interviews, invites in every status with transcripts, and profiles; its token sees them', async () => {
    const prefix = uniq('seed');
    const before = await tableCounts(t.db);
    const result = await seeder.get(SeedService).run(
      { orgs: 2, users: 3, products: 6, interviews: 2, invites: 10, turns: 1, profiles: 2, seed: 7, prefix },
      quiet,
    );
    expect(result).toMatchObject({ orgIDs: [`${prefix}-org-1`, `${prefix}-org-2`], products: 6, interviews: 12, invites: 120 });
    expect(result.completed).toBeGreaterThan(10);
    const after = await tableCounts(t.db);
    expect(after.products - before.products).toBe(6);
    expect(after.interviews - before.interviews).toBe(12);
    expect(after.invites - before.invites).toBe(120);
    // 12 imported, and one for each interviewee who finished (two may share an email).
    expect(after.profiles - before.profiles).toBe(result.profiles);
    expect(result.profiles).toBeGreaterThan(12);
    // The summary tells the imported profiles (2 per product) from the interviewees'.
    expect(result.importedProfiles).toBe(12);

    const products = await t.http.get('/v1/products/getList').query({ orgID: `${prefix}-org-1` }).set(bearer(result.orgToken));
    expect(products.status).toBe(200);
    expect(products.body.result).toHaveLength(3);
    const foreign = await t.http.get('/v1/products/getList').query({ orgID: `${prefix}-org-2` }).set(bearer(result.orgToken));
    expect(foreign.body.result).toEqual([]);

    const statuses = new Set<string>();
    let withTranscript = 0;
    for (const product of products.body.result) {
      const invites = await t.http.get('/v1/invites/getList').query({ productID: product.productID }).set(bearer(result.orgToken));
      const profiles = await t.http.get('/v1/profiles/getList').query({ productID: product.productID }).set(bearer(result.adminToken));
      expect(profiles.body.result.length).toBeGreaterThanOrEqual(2);
      const interviewed = new Set(profiles.body.result.flatMap((p: { history: { id: string }[] }) => p.history.map((h) => h.id)));
      for (const invite of invites.body.result) {
        statuses.add(invite.status);
        if (invite.conversation.length > 1) withTranscript++;
        if (invite.status === 'pending') expect(invite).toMatchObject({ userInfo: null, conversation: [] });
        if (invite.status === 'completed') {
          // Conducted by the room: the consent first, the agent's questions, and a profile that counts it.
          expect(invite.completed_on).not.toBeNull();
          expect(invite.conversation[0]).toEqual({ role: 'system', content: expect.stringMatching(/^Consent given /) });
          expect(invite.conversation.at(-1).role).toBe('interviewer');
          expect({ linkID: invite.linkID, inProfile: interviewed.has(invite.linkID) }).toEqual({ linkID: invite.linkID, inProfile: true });
        }
      }
    }
    expect([...statuses].sort()).toEqual(['completed', 'expired', 'pending', 'started']);
    expect(withTranscript).toBeGreaterThan(10);
  });

  it('can run twice over the same prefix without clashing', async () => {
    const prefix = uniq('seed');
    const options = { orgs: 1, users: 1, products: 2, interviews: 1, invites: 2, turns: 2, profiles: 1, seed: 1, prefix };
    await seeder.get(SeedService).run(options, quiet);
    const second = await seeder.get(SeedService).run(options, quiet);
    const res = await t.http.get('/v1/products/getList').query({ orgID: `${prefix}-org-1` }).set(bearer(second.adminToken));
    expect(res.body.result).toHaveLength(4);
  });
});
