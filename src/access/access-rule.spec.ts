import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { Product } from '../products/product.entity';
import { Owned, canSee, endpointViewer, ownedWithin, productScopeSql, viewersOfSql } from './access-rule';
import { migrations } from '../database/migrations';

const admin: Principal = { tokenId: 't-admin', isAdmin: true, orgID: null, userID: null };
const orgOnly: Principal = { tokenId: 't-org', isAdmin: false, orgID: 'org_a', userID: null };
const userOnly: Principal = { tokenId: 't-user', isAdmin: false, orgID: null, userID: 'user_1' };
const orgAndUser: Principal = { tokenId: 't-both', isAdmin: false, orgID: 'org_a', userID: 'user_1' };

describe(canSee.name, () => {
  it('lets an admin see every product, also one without owner', () => {
    expect(canSee(admin, { orgID: 'org_b', userID: 'user_9' })).toBe(true);
    expect(canSee(admin, { orgID: null, userID: null })).toBe(true);
  });

  it('lets an org token see products of its org only', () => {
    expect(canSee(orgOnly, { orgID: 'org_a', userID: null })).toBe(true);
    expect(canSee(orgOnly, { orgID: 'org_a', userID: 'user_9' })).toBe(true);
    expect(canSee(orgOnly, { orgID: 'org_b', userID: null })).toBe(false);
    expect(canSee(orgOnly, { orgID: null, userID: 'user_1' })).toBe(false);
  });

  it('does not let an org token match a product whose orgID is null', () => {
    expect(canSee(orgOnly, { orgID: null, userID: null })).toBe(false);
  });

  it('lets a user token see products of its user only', () => {
    expect(canSee(userOnly, { orgID: null, userID: 'user_1' })).toBe(true);
    expect(canSee(userOnly, { orgID: 'org_b', userID: 'user_1' })).toBe(true);
    expect(canSee(userOnly, { orgID: null, userID: 'user_2' })).toBe(false);
    expect(canSee(userOnly, { orgID: 'org_a', userID: null })).toBe(false);
    expect(canSee(userOnly, { orgID: null, userID: null })).toBe(false);
  });

  it('lets an org+user token see products of its org or of its user', () => {
    expect(canSee(orgAndUser, { orgID: 'org_a', userID: null })).toBe(true);
    expect(canSee(orgAndUser, { orgID: null, userID: 'user_1' })).toBe(true);
    expect(canSee(orgAndUser, { orgID: 'org_b', userID: 'user_1' })).toBe(true);
    expect(canSee(orgAndUser, { orgID: 'org_a', userID: 'user_2' })).toBe(true);
    expect(canSee(orgAndUser, { orgID: 'org_b', userID: 'user_2' })).toBe(false);
    expect(canSee(orgAndUser, { orgID: null, userID: null })).toBe(false);
  });

  it('compares identifiers exactly', () => {
    expect(canSee(orgOnly, { orgID: 'ORG_A', userID: null })).toBe(false);
    expect(canSee(orgOnly, { orgID: 'org_a ', userID: null })).toBe(false);
  });

  it('fails closed for a scoped token with neither org nor user', () => {
    const empty: Principal = { tokenId: 't-empty', isAdmin: false, orgID: null, userID: null };

    expect(canSee(empty, { orgID: null, userID: null })).toBe(false);
  });
});

describe(productScopeSql.name, () => {
  it('adds no condition for an admin', () => {
    expect(productScopeSql(admin, 'p')).toBeUndefined();
  });

  it('filters on org_id for an org token', () => {
    expect(productScopeSql(orgOnly, 'p')).toEqual({ sql: '(p.org_id = ?)', params: ['org_a'] });
  });

  it('filters on user_id for a user token', () => {
    expect(productScopeSql(userOnly, 'product')).toEqual({ sql: '(product.user_id = ?)', params: ['user_1'] });
  });

  it('combines org and user with OR for an org+user token', () => {
    expect(productScopeSql(orgAndUser, 'p')).toEqual({
      sql: '(p.org_id = ? OR p.user_id = ?)',
      params: ['org_a', 'user_1'],
    });
  });

  it('passes identifiers as parameters, never inside the SQL text', () => {
    const hostile: Principal = { tokenId: 't', isAdmin: false, orgID: "x' OR '1'='1", userID: null };
    const scope = productScopeSql(hostile, 'p');

    expect(scope?.sql).not.toContain("'");
    expect(scope?.params).toEqual(["x' OR '1'='1"]);
  });

  it('matches nothing for a scoped token with neither org nor user', () => {
    const empty: Principal = { tokenId: 't-empty', isAdmin: false, orgID: null, userID: null };

    expect(productScopeSql(empty, 'p')).toEqual({ sql: '1 = 0', params: [] });
  });
});

describe(ownedWithin.name, () => {
  it('keeps the records the filter asks for (orgID and userID ANDed) that the viewer can see', async () => {
    const owners: Owned[] = [];
    for (const orgID of ['org_a', 'org_b', null]) for (const userID of ['user_1', 'user_2', null]) owners.push({ orgID, userID });
    // The schema as the migrations make it (they own it), not as the entity would be synchronised.
    const db = await new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Product], migrations, migrationsRun: true }).initialize();
    try {
      const at = new Date();
      await db.getRepository(Product).insert(owners.map((o, i) => ({ productID: `p${i}`, name: 'n', desc: null, url: null, imageLink: null, ...o, createdAt: at, updatedAt: at })));
      const filters = [{ orgID: 'org_a' }, { userID: 'user_1' }, { orgID: 'org_b', userID: 'user_1' }];
      for (const viewer of [admin, orgOnly, userOnly, orgAndUser]) {
        for (const filter of filters) {
          const query = ownedWithin(db.getRepository(Product).createQueryBuilder('p'), filter, productScopeSql(viewer, 'p')).orderBy('p.productID');
          const selected = (await query.getMany()).map((p) => p.productID);
          const expected = owners.flatMap((o, i) => {
            const asked = (filter.orgID === undefined || o.orgID === filter.orgID) && (filter.userID === undefined || o.userID === filter.userID);
            return asked && canSee(viewer, o) ? [`p${i}`] : [];
          });
          expect({ viewer, filter, selected }).toEqual({ viewer, filter, selected: expected });
        }
      }
    } finally {
      await db.destroy();
    }
  });
});

describe(endpointViewer.name, () => {
  it('sees as a token of its orgID and userID would, never as an admin', () => {
    const endpoint = endpointViewer({ orgID: 'org_a', userID: null });
    expect(endpoint).toEqual({ isAdmin: false, orgID: 'org_a', userID: null });
    expect(canSee(endpoint, { orgID: 'org_a', userID: 'user_9' })).toBe(true);
    expect(canSee(endpoint, { orgID: 'org_b', userID: null })).toBe(false);
    expect(canSee(endpointViewer({ orgID: null, userID: null }), { orgID: null, userID: null })).toBe(false);
  });
});

describe(viewersOfSql.name, () => {
  it('selects the viewers of the products: same org or same user', () => {
    expect(viewersOfSql([{ orgID: 'org_a', userID: 'user_1' }], 'w')).toEqual({ sql: '(w.org_id IN (?) OR w.user_id IN (?))', params: ['org_a', 'user_1'] });
  });

  it('lists each owner once over several products and leaves out null owners', () => {
    const products: Owned[] = [
      { orgID: 'org_a', userID: null },
      { orgID: 'org_a', userID: 'user_1' },
      { orgID: null, userID: 'user_2' },
    ];
    expect(viewersOfSql(products, 'w')).toEqual({ sql: '(w.org_id IN (?) OR w.user_id IN (?, ?))', params: ['org_a', 'user_1', 'user_2'] });
  });

  it('matches nothing for products without owners', () => {
    expect(viewersOfSql([{ orgID: null, userID: null }], 'w')).toEqual({ sql: '1 = 0', params: [] });
    expect(viewersOfSql([], 'w')).toEqual({ sql: '1 = 0', params: [] });
  });

  it('agrees with canSee: run as SQL, it selects a viewer exactly when the viewer can see one of the products', async () => {
    const owners: Owned[] = [];
    for (const orgID of ['org_a', 'org_b', null]) for (const userID of ['user_1', 'user_2', null]) owners.push({ orgID, userID });
    const db = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    try {
      await db.query('CREATE TABLE viewers (id INTEGER PRIMARY KEY, org_id TEXT, user_id TEXT)');
      for (const [id, o] of owners.entries()) await db.query('INSERT INTO viewers VALUES (?, ?, ?)', [id, o.orgID, o.userID]);
      const sets = [...owners.map((o) => [o]), [owners[0], owners[4]], [owners[2], owners[6]], []];
      for (const products of sets) {
        const { sql, params } = viewersOfSql(products, 'w');
        const selected = ((await db.query(`SELECT id FROM viewers w WHERE ${sql} ORDER BY id`, params)) as { id: number }[]).map((r) => r.id);
        const seeing = owners.flatMap((viewer, id) => (products.some((p) => canSee(endpointViewer(viewer), p)) ? [id] : []));
        expect({ products, selected }).toEqual({ products, selected: seeing });
      }
    } finally {
      await db.destroy();
    }
  });
});
