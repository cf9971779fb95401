import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { KeysetList, SqlCondition, SqlWhere } from '../common/keyset';
import { IN_CHUNK } from '../common/limits';
import { FOR_UPDATE_SQL } from '../database/column-types';
import { HistoryEntry, Profile, ProfileDetails, ProfileMetadata, ProfileProduct } from './profile.entity';

/** A profile as the SQL reads it: JSON still as text. */
export interface ProfileRow {
  profileID: string;
  firstName: string | null;
  lastName: string | null;
  metadata: string | null;
  details: string | null;
  history: string;
  createdAt: Date | string;
}

/** A profile found by its owner and email, to fold a new interview in: with the count its sentiment is the mean of. */
export type MatchedProfile = ProfileRow & { sentimentTurns: number };

/** A product of a profile, with the owners that decide who sees it (and which webhook endpoints). */
export type OwnedProduct = Owned & { productID: string };

export interface NewProfileRow {
  profileID: string;
  firstName: string | null;
  lastName: string | null;
  metadata: ProfileMetadata;
  details: ProfileDetails;
  history: HistoryEntry[];
  createdAt: Date;
  ownerKey: string | null;
  email: string | null;
  sentimentTurns: number;
}

const COLUMNS =
  'pr.id AS profileID, pr.first_name AS firstName, pr.last_name AS lastName, pr.metadata AS metadata, pr.details AS details, pr.history AS history, pr.created_at AS createdAt';

const inList = (n: number) => `(${new Array<string>(n).fill('?').join(', ')})`;

/** The profiles and profile_products tables. */
@Injectable()
export class ProfilesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findById(profileID: string): Promise<ProfileRow | undefined> {
    const [row] = await this.dataSource.query<ProfileRow[]>(`SELECT ${COLUMNS} FROM profiles pr WHERE pr.id = ?`, [profileID]);
    return row;
  }

  /** Profiles of one product, in the lists' order. */
  list(productID: string): KeysetList<ProfileRow> {
    return new KeysetList<ProfileRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns: COLUMNS,
      from: 'profiles pr INNER JOIN profile_products pp ON pp.profile_id = pr.id',
      where: new SqlWhere().and('pp.product_id = ?', productID),
      keys: { created: 'pr.created_at', id: 'pr.id' },
      idOf: (r) => r.profileID,
    });
  }

  /** For each profile, its products within `scope` (a condition on products `p`), oldest product first. */
  async productsOf(profileIDs: string[], scope: SqlCondition | undefined): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (let i = 0; i < profileIDs.length; i += IN_CHUNK) {
      const ids = profileIDs.slice(i, i + IN_CHUNK);
      const rows = await this.dataSource.query<{ profileID: string; productID: string }[]>(
        'SELECT pp.profile_id AS profileID, pp.product_id AS productID FROM profile_products pp INNER JOIN products p ON p.id = pp.product_id ' +
          `WHERE pp.profile_id IN ${inList(ids.length)}${scope ? ` AND ${scope.sql}` : ''} ORDER BY p.created_at, p.id`,
        [...ids, ...(scope?.params ?? [])],
      );
      for (const row of rows) {
        const list = out.get(row.profileID);
        if (list) list.push(row.productID);
        else out.set(row.profileID, [row.productID]);
      }
    }
    return out;
  }

  /** A profile's products with their owners, oldest first (as its productIDs lists them): who hears of it. */
  async productsWithOwners(db: EntityManager, profileID: string): Promise<OwnedProduct[]> {
    return db.query(
      'SELECT p.id AS productID, p.org_id AS orgID, p.user_id AS userID FROM profile_products pp INNER JOIN products p ON p.id = pp.product_id ' +
        'WHERE pp.profile_id = ? ORDER BY p.created_at, p.id',
      [profileID],
    );
  }

  /** The profile of an owner's interviewee with this email (lower-cased), locked until the transaction ends (MySQL). */
  async lockMatching(db: EntityManager, ownerKey: string, email: string): Promise<MatchedProfile | undefined> {
    const [row] = await db.query<MatchedProfile[]>(
      `SELECT ${COLUMNS}, pr.sentiment_turns AS sentimentTurns FROM profiles pr WHERE pr.owner_key = ? AND pr.email = ?${FOR_UPDATE_SQL}`,
      [ownerKey, email],
    );
    return row;
  }

  async insert(db: EntityManager, profile: NewProfileRow, productIDs: string[]): Promise<void> {
    await db.getRepository(Profile).insert(profile);
    await db.getRepository(ProfileProduct).insert(productIDs.map((productID) => ({ profileID: profile.profileID, productID })));
  }

  async update(
    db: EntityManager,
    profileID: string,
    next: { metadata: ProfileMetadata; details: ProfileDetails; history: HistoryEntry[]; sentimentTurns: number },
  ): Promise<void> {
    await db.query('UPDATE profiles SET metadata = ?, details = ?, history = ?, sentiment_turns = ? WHERE id = ?', [
      JSON.stringify(next.metadata),
      JSON.stringify(next.details),
      JSON.stringify(next.history),
      next.sentimentTurns,
      profileID,
    ]);
  }

  /** Adds the product to the profile's, unless it is there already. */
  async linkProduct(db: EntityManager, profileID: string, productID: string): Promise<void> {
    const [linked] = await db.query<unknown[]>('SELECT 1 AS yes FROM profile_products WHERE profile_id = ? AND product_id = ?', [profileID, productID]);
    if (!linked) await db.getRepository(ProfileProduct).insert({ profileID, productID });
  }

  async count(): Promise<number> {
    return this.dataSource.getRepository(Profile).count();
  }
}
