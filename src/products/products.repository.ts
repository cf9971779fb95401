import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { OwnerFilter, ownedWithin } from '../access/access-rule';
import { BuilderKeysetList, SqlCondition } from '../common/keyset';
import { Product } from './product.entity';

/** A new product: its fields without its identifier and times. */
export type NewProduct = Omit<Product, 'productID' | 'createdAt' | 'updatedAt'>;

/** The fields of a product an update may change. */
export type ProductChanges = Partial<NewProduct>;

/** The products table. */
@Injectable()
export class ProductsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every request about a product, an interview or an invite reads its product first: a QueryBuilder, which skips the find options' layer. */
  findById(productID: string, db: EntityManager = this.dataSource.manager): Promise<Product | null> {
    return db.getRepository(Product).createQueryBuilder('p').where('p.productID = :productID', { productID }).getOne();
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
  list(filter: OwnerFilter, scope: SqlCondition | undefined): BuilderKeysetList<Product> {
    return new BuilderKeysetList<Product>({
      query: () => ownedWithin(this.dataSource.getRepository(Product).createQueryBuilder('p'), filter, scope),
      keys: { created: 'p.createdAt', id: 'p.productID' },
      keyOf: (p) => ({ createdAt: p.createdAt, id: p.productID }),
    });
  }
}
