import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { OwnerFilter, ownedWithin } from '../access/access-rule';
import { KeysetList, SqlCondition } from '../common/keyset';
import { hydrator, insertSql, persisted, readProperties, selectList, selectProperties } from '../database/column-types';
import { Product } from './product.entity';

/** A new product: its fields without its identifier and times. */
export type NewProduct = Omit<Product, 'productID' | 'createdAt' | 'updatedAt'>;

/** A product as a list reads it: every field but updatedAt, which no list shows. */
export type ListedProduct = Omit<Product, 'updatedAt'>;

/** The properties a list selects (selectProperties). */
const LISTED: readonly (keyof ListedProduct)[] = ['productID', 'name', 'desc', 'orgID', 'userID', 'url', 'imageLink', 'createdAt'];

/** The fields of a product an update may change. */
export type ProductChanges = Partial<NewProduct>;

/** The products table. */
@Injectable()
export class ProductsRepository {
  /**
   * A product by id as SQL text, written once from the entity's columns and read back through its column
   * types (hydrated): every request about a product, an interview or an invite reads its product first,
   * and building this query on each call costs more than running it.
   */
  private readonly byIdSql: string;
  /** Its rows' reader (the column lookups done once). */
  private readonly byIdRow: (row: Record<string, unknown>) => Product;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const { primaryColumns, tableName } = dataSource.getMetadata(Product);
    const q = (name: string) => dataSource.driver.escape(name);
    this.byIdRow = hydrator<Product>(dataSource.manager, Product);
    this.byIdSql = `SELECT ${selectList(dataSource, Product, 'p')} FROM ${q(tableName)} p WHERE p.${q(primaryColumns[0].databaseName)} = ?`;
  }

  async findById(productID: string, db: EntityManager = this.dataSource.manager): Promise<Product | null> {
    const [row] = await db.query<Record<string, unknown>[]>(this.byIdSql, [productID]);
    // The metadata and the driver are the data source's, whichever of its managers (a transaction's) ran the query.
    return row ? this.byIdRow(row) : null;
  }

  /**
   * One INSERT with the values as the columns store them (persisted), as the invites' writes do:
   * Repository.insert builds the same statement on every call (a QueryBuilder, its parameters, the
   * property names replaced in the SQL, then the entity updated with generated values a product has
   * none of), which cost twice what sending it does (addOne's profile).
   */
  async insert(productID: string, product: NewProduct, now: Date): Promise<void> {
    const db = this.dataSource.manager;
    const { columns, params } = persisted(db, Product, { productID, ...product, createdAt: now, updatedAt: now });
    await db.query(insertSql(this.dataSource, Product, columns), params);
  }

  /** Many at once (the demo data), each with its own creation time. */
  async insertMany(products: Omit<Product, 'updatedAt'>[], db: EntityManager = this.dataSource.manager): Promise<void> {
    await db.getRepository(Product).insert(products.map((p) => ({ ...p, updatedAt: p.createdAt })));
  }

  async update(productID: string, changes: ProductChanges, now: Date): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.dataSource.getRepository(Product).update({ productID }, { ...changes, updatedAt: now });
  }

  /**
   * Products of an organization and/or a user, within the caller's scope (a condition on `p`), in the
   * lists' order; read raw, through the column types (selectProperties).
   */
  list(filter: OwnerFilter, scope: SqlCondition | undefined): KeysetList<ListedProduct, Product> {
    return new KeysetList<ListedProduct, Product>({
      query: () => ownedWithin(selectProperties(this.dataSource.getRepository(Product).createQueryBuilder('p'), 'p', LISTED), filter, scope),
      keys: { created: 'p.createdAt', id: 'p.productID' },
      read: readProperties<ListedProduct>(Product, this.dataSource.manager),
      keyOf: (p) => ({ createdAt: p.createdAt, id: p.productID }),
    });
  }
}
