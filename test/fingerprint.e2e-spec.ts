import { ProfilesService } from '../src/profiles/profiles.service';
import { TestApp, uniq, useTestApp } from './helpers/app';
import { makeProduct } from './helpers/factories';
import { dbFingerprint } from './helpers/fingerprint';

/** The "database unchanged" checks of the other suites rest on this: it must notice a changed row, not only a new one. */
describe('dbFingerprint (test helper)', () => {
  let t: TestApp;
  let admin: string;
  useTestApp((app) => ({ t, admin } = app));

  it('changes when a row changes in place in a table without updated_at, and when a token is revoked', async () => {
    const productID = await makeProduct(t, admin, { orgID: uniq('org') });
    const profileID = await t.app.get(ProfilesService).create({ productIDs: [productID], firstName: 'Ada' });
    const { id: tokenID } = await t.tokens.create({ orgID: uniq('org') });

    const before = await dbFingerprint(t.db);
    expect(await dbFingerprint(t.db)).toBe(before);
    await t.db.query('UPDATE profiles SET first_name = ? WHERE id = ?', ['Grace', profileID]);
    const renamed = await dbFingerprint(t.db);
    expect(renamed).not.toBe(before);
    await t.tokens.revoke(tokenID);
    expect(await dbFingerprint(t.db)).not.toBe(renamed);
  });
});
