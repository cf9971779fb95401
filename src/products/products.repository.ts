import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { OwnerFilter, ownedWithin } from '../access/access-rule';
import { KeysetList, SqlCondition } from '../common/keyset';
import { hydrated } from '../database/column-types';
import { Product } from './product.entity';

/** A new product: its fields without its identifier and times. */
export type NewProduct = Omit<Product, 'productID' | 'createdAt' | 'updatedAt'>;

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

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const { columns, primaryColumns, tableName } = dataSource.getMetadata(Product);
    const q = (name: string) => dataSource.driver.escape(name);
    const select = columns.map((c) => `p.${q(c.databaseName)} AS ${q(c.propertyName)}`).join(', ');
    this.byIdSql = `SELECT ${select} FROM ${q(tableName)} p WHERE p.${q(primaryColumns[0].databaseName)} = ?`;
  }

  async findById(productID: string, db: EntityManager = this.dataSource.manager): Promise<Product | null> {
    const [row] = await db.query<Record<string, unknown>[]>(this.byIdSql, [productID]);
    return row ? hydrated(db, Product, row) : null;
  }

  async insert(productID: string, product: NewProduct, now: Date): Promise<void> {
    await this.dataSource.getRepository(Product).insert({ ...product, productID, createdAt: now, updatedAt: now });
  }

  /** Many at once (the demo data), each with its own creation time. */
  async insertMany(products: Omit<Product, 'updatedAt'>[], db: EntityManager = this.dataSource.manager): Promise<void> {
    await db.getRepository(Product).insert(products.map((p) => ({ ...p, updatedAt: p.createdAt })));
  }

  async update(productID: string, changes: ProductChanges, now: Date): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.dataSource.getRepository(Product).update({ productID }, { ...changes, updatedAt: now });
  }

  /** Products of an organization and/or a user, within the caller's scope (a condition on `p`), in the lists' order. */
  list(filter: OwnerFilter, scope: SqlCondition | undefined): KeysetList<Product> {
    return new KeysetList<Product>({
      query: () => ownedWithin(this.dataSource.getRepository(Product).createQueryBuilder('p'), filter, scope),
      keys: { created: 'p.createdAt', id: 'p.productID' },
      keyOf: (p) => ({ createdAt: p.createdAt, id: p.productID }),
    });
  }
}
