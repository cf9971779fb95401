import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { KeysetList, SqlCondition, SqlWhere } from '../common/keyset';
import { sqlDate } from '../database/column-types';
import { Product } from './product.entity';

/** A product as the API shows it, read with its owners (they are its own orgID and userID). */
export interface ProductRow {
  productID: string;
  name: string;
  desc: string | null;
  orgID: string | null;
  userID: string | null;
  url: string | null;
  imageLink: string | null;
}

export type ProductListRow = ProductRow & { createdAt: Date | string };

export type NewProduct = Omit<ProductRow, 'productID'>;

/** The fields of a product an update may change. */
export type ProductChanges = Partial<Omit<ProductRow, 'productID'>>;

const COLUMNS = 'p.id AS productID, p.name AS name, p.description AS `desc`, p.org_id AS orgID, p.user_id AS userID, p.url AS url, p.image_link AS imageLink';

/** Entity field → column, for updates. */
const COLUMN_OF: Record<keyof ProductChanges, string> = { name: 'name', desc: 'description', orgID: 'org_id', userID: 'user_id', url: 'url', imageLink: 'image_link' };

/**
 * The products table. Reads are plain SQL returning the API's fields ('?' placeholders and backticks
 * work on mysql2 and better-sqlite3 alike): hydrating a list's rows as entities would cost more than
 * the query itself.
 */
@Injectable()
export class ProductsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findById(productID: string, db: EntityManager = this.dataSource.manager): Promise<ProductRow | undefined> {
    const [row] = await db.query<ProductRow[]>(`SELECT ${COLUMNS} FROM products p WHERE p.id = ?`, [productID]);
    return row;
  }

  async insert(productID: string, product: NewProduct, now: Date): Promise<void> {
    const at = sqlDate(now);
    await this.dataSource.query(
      'INSERT INTO products (id, name, description, org_id, user_id, url, image_link, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [productID, product.name, product.desc, product.orgID, product.userID, product.url, product.imageLink, at, at],
    );
  }

  /** Many at once (the demo data), each with its own creation time. */
  async insertMany(products: (ProductRow & { createdAt: Date })[], db: EntityManager = this.dataSource.manager): Promise<void> {
    await db.getRepository(Product).insert(products.map((p) => ({ ...p, updatedAt: p.createdAt })));
  }

  async update(productID: string, changes: ProductChanges, now: Date): Promise<void> {
    const fields = Object.keys(changes) as (keyof ProductChanges)[];
    if (fields.length === 0) return;
    await this.dataSource.query(`UPDATE products SET ${fields.map((f) => `${COLUMN_OF[f]} = ?`).join(', ')}, updated_at = ? WHERE id = ?`, [
      ...fields.map((f) => changes[f] ?? null),
      sqlDate(now),
      productID,
    ]);
  }

  /** Products of an organization and/or a user, within the caller's scope, in the lists' order. */
  list(filter: { orgID?: string; userID?: string }, scope: SqlCondition | undefined): KeysetList<ProductListRow> {
    const where = new SqlWhere();
    if (filter.orgID !== undefined) where.and('p.org_id = ?', filter.orgID);
    if (filter.userID !== undefined) where.and('p.user_id = ?', filter.userID);
    if (scope) where.and(scope);
    return new KeysetList<ProductListRow>({
      query: (sql, params) => this.dataSource.query(sql, params),
      columns: `${COLUMNS}, p.created_at AS createdAt`,
      from: 'products p',
      where,
      keys: { created: 'p.created_at', id: 'p.id' },
      idOf: (r) => r.productID,
    });
  }
}
