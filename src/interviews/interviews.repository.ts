import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Owned } from '../access/access-rule';
import { KeysetList } from '../common/keyset';
import { FOR_UPDATE, hydrator, selectList } from '../database/column-types';
import { Product } from '../products/product.entity';
import { Interview } from './interview.entity';

/** The guidelines in other languages: `{tag: guidelines text}`. */
export type Translations = Record<string, string>;

/** An interview with its product's owners, which decide who may see it. */
export interface OwnedInterview {
  interview: Interview;
  owner: Owned;
}

type OptionalSettings = 'translations' | 'language' | 'publicTitle' | 'consentText' | 'completionRedirectUrl' | 'retentionDays' | 'redactPII' | 'mode' | 'keepAudio';
type Stored = 'product' | 'createdAt' | 'updatedAt';
/** A new interview: the fieldwork and data-rights settings are optional (the defaults). */
export type NewInterview = Omit<Interview, OptionalSettings | Stored> & Partial<Pick<Interview, OptionalSettings>>;

/** The fields of an interview an update may change. */
export type InterviewChanges = Partial<Omit<Interview, 'interviewID' | Stored>>;

/** The interviews table. */
@Injectable()
export class InterviewsRepository {
  /**
   * findOwned's read (without lock), written once from the entities' column names and read back through
   * their column types (hydrator), as invites/getOne's is. Measured need: every createInvites and
   * invites/getList call reads its interview here first; a profile (MariaDB) put the QueryBuilder's
   * build and entity transform of this one row at ~0.4 ms of CPU a call, about a third of createInvites
   * 10's gap to ef242af (which read it with SQL text).
   */
  private readonly ownedSql: string;
  private readonly interviewRow: (row: Record<string, unknown>) => Interview;
  private readonly ownerRow: (row: Record<string, unknown>) => Product;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const q = (name: string) => dataSource.driver.escape(name);
    const interviews = dataSource.getMetadata(Interview);
    const products = dataSource.getMetadata(Product);
    const col = (metadata: typeof products, prop: string) => q(metadata.findColumnWithPropertyName(prop)!.databaseName);
    const select = `${selectList(dataSource, Interview, 'i')}, ${selectList(dataSource, Product, 'p', ['orgID', 'userID'], 'p_')}`;
    this.ownedSql =
      `SELECT ${select} FROM ${q(interviews.tableName)} i INNER JOIN ${q(products.tableName)} p ` +
      `ON p.${col(products, 'productID')} = i.${col(interviews, 'productID')} WHERE i.${col(interviews, 'interviewID')} = ?`;
    this.interviewRow = hydrator<Interview>(dataSource.manager, Interview);
    const owner = hydrator<Product>(dataSource.manager, Product);
    this.ownerRow = (row) => owner({ orgID: row.p_orgID, userID: row.p_userID });
  }

  /**
   * The interview with its product's owners. With `lock` (inside a transaction) the interview row is
   * locked until the transaction ends, on MySQL, so that no invite slips in meanwhile.
   */
  async findOwned(interviewID: string, options: { db?: EntityManager; lock?: boolean } = {}): Promise<OwnedInterview | undefined> {
    const db = options.db ?? this.dataSource.manager;
    if (options.lock) {
      // Only the interview row is locked: the product is read apart.
      const interview = await db.getRepository(Interview).findOne({ where: { interviewID }, ...FOR_UPDATE });
      if (!interview) return undefined;
      const owner = await db.getRepository(Product).findOne({ select: { orgID: true, userID: true }, where: { productID: interview.productID } });
      return owner ? { interview, owner: { orgID: owner.orgID, userID: owner.userID } } : undefined;
    }
    // One query: findOne with a relation would read the identifier first, in a query of its own.
    const [row] = await db.query<Record<string, unknown>[]>(this.ownedSql, [interviewID]);
    if (!row) return undefined;
    const owner = this.ownerRow(row);
    return { interview: this.interviewRow(row), owner: { orgID: owner.orgID, userID: owner.userID } };
  }

  /** New interviews; unset settings take their defaults: auto language, no public title, consent or redirect, kept (null retention), no redaction, text mode. */
  async insert(interviews: NewInterview[], now: Date, db: EntityManager = this.dataSource.manager): Promise<void> {
    if (interviews.length === 0) return;
    await db.getRepository(Interview).insert(
      interviews.map((i) => ({ translations: null, language: null, publicTitle: null, consentText: null, completionRedirectUrl: null, retentionDays: null, redactPII: false, mode: 'text' as const, keepAudio: false, ...i, createdAt: now, updatedAt: now })),
    );
  }

  async update(interviewID: string, changes: InterviewChanges, now: Date, db: EntityManager): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await db.getRepository(Interview).update({ interviewID }, { ...changes, updatedAt: now });
  }

  /**
   * Whether the interview has any invite (it may then not move to another product). The invites'
   * entity is named, not imported: invites build on interviews, and an import back would close a cycle.
   */
  hasInvites(interviewID: string, db: EntityManager): Promise<boolean> {
    return db.getRepository<{ interviewID: string }>('Invite').existsBy({ interviewID });
  }

  list(productID: string): KeysetList<Interview> {
    return new KeysetList<Interview>({
      query: () => this.dataSource.getRepository(Interview).createQueryBuilder('i').where('i.productID = :productID', { productID }),
      keys: { created: 'i.createdAt', id: 'i.interviewID' },
      keyOf: (i) => ({ createdAt: i.createdAt, id: i.interviewID }),
    });
  }
}
