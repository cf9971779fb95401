import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { KeysetList, SqlCondition, namedCondition } from '../common/keyset';
import { IN_CHUNK } from '../common/limits';
import { FOR_UPDATE } from '../database/column-types';
import { Product } from '../products/product.entity';
import { HistoryEntry, Profile, ProfileDetails, ProfileMetadata, ProfileProduct } from './profile.entity';

/** A product of a profile, with the owners that decide who sees it (and which webhook endpoints). */
export type OwnedProduct = Owned & { productID: string };

/** The profiles and profile_products tables. */
@Injectable()
export class ProfilesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findById(profileID: string): Promise<Profile | null> {
    return this.dataSource.getRepository(Profile).findOneBy({ profileID });
  }

  /** Profiles of one product, in the lists' order. */
  list(productID: string): KeysetList<Profile> {
    return new KeysetList<Profile>({
      query: () =>
        this.dataSource
          .getRepository(Profile)
          .createQueryBuilder('pr')
          .innerJoin(ProfileProduct, 'pp', 'pp.profileID = pr.profileID')
          .where('pp.productID = :productID', { productID }),
      keys: { created: 'pr.createdAt', id: 'pr.profileID' },
      keyOf: (pr) => ({ createdAt: pr.createdAt, id: pr.profileID }),
    });
  }

  /** For each profile, its products within `scope` (a condition on products `p`), oldest product first. */
  async productsOf(profileIDs: string[], scope: SqlCondition | undefined): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (let i = 0; i < profileIDs.length; i += IN_CHUNK) {
      const qb = this.dataSource
        .getRepository(ProfileProduct)
        .createQueryBuilder('pp')
        .innerJoin('pp.product', 'p')
        .where({ profileID: In(profileIDs.slice(i, i + IN_CHUNK)) });
      if (scope) qb.andWhere(...namedCondition(scope, 'scope'));
      for (const link of await qb.orderBy('p.createdAt', 'ASC').addOrderBy('p.productID', 'ASC').getMany()) {
        const list = out.get(link.profileID);
        if (list) list.push(link.productID);
        else out.set(link.profileID, [link.productID]);
      }
    }
    return out;
  }

  /** A profile's products with their owners, oldest first (as its productIDs lists them): who hears of it. */
  async productsWithOwners(db: EntityManager, profileID: string): Promise<OwnedProduct[]> {
    const products = await db
      .getRepository(Product)
      .createQueryBuilder('p')
      .select(['p.productID', 'p.orgID', 'p.userID'])
      .innerJoin(ProfileProduct, 'pp', 'pp.productID = p.productID')
      .where('pp.profileID = :profileID', { profileID })
      .orderBy('p.createdAt', 'ASC')
      .addOrderBy('p.productID', 'ASC')
      .getMany();
    return products.map((p) => ({ productID: p.productID, orgID: p.orgID, userID: p.userID }));
  }

  /** The profile of an owner's interviewee with this email (lower-cased); with `lock`, locked until the transaction ends (MySQL). */
  findMatching(db: EntityManager, ownerKey: string, email: string, options: { lock: boolean }): Promise<Profile | null> {
    return db.getRepository(Profile).findOne({ where: { ownerKey, email }, ...(options.lock ? FOR_UPDATE : {}) });
  }

  async insert(db: EntityManager, profile: Profile, productIDs: string[]): Promise<void> {
    await db.getRepository(Profile).insert(profile);
    await db.getRepository(ProfileProduct).insert(productIDs.map((productID) => ({ profileID: profile.profileID, productID })));
  }

  async update(
    db: EntityManager,
    profileID: string,
    next: { metadata: ProfileMetadata; details: ProfileDetails; history: HistoryEntry[]; sentimentTurns: number },
  ): Promise<void> {
    await db.getRepository(Profile).update({ profileID }, next);
  }

  /** Adds the product to the profile's, unless it is there already. */
  async linkProduct(db: EntityManager, profileID: string, productID: string): Promise<void> {
    const links = db.getRepository(ProfileProduct);
    if (!(await links.existsBy({ profileID, productID }))) await links.insert({ profileID, productID });
  }

  async count(): Promise<number> {
    return this.dataSource.getRepository(Profile).count();
  }
}
