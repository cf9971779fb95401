import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BuilderKeysetList, SqlCondition, namedCondition } from '../common/keyset';
import { Product } from './product.entity';

/** A new product: its fields without its identifier and times. */
export type NewProduct = Omit<Product, 'productID' | 'createdAt' | 'updatedAt'>;

/** The fields of a product an update may change. */
export type ProductChanges = Partial<NewProduct>;

/** The products table. */
@Injectable()
export class ProductsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findById(productID: string, db: EntityManager = this.dataSource.manager): Promise<Product | null> {
    return db.getRepository(Product).findOneBy({ productID });
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
  list(filter: { orgID?: string; userID?: string }, scope: SqlCondition | undefined): BuilderKeysetList<Product> {
    return new BuilderKeysetList<Product>({
      query: () => {
        const qb = this.dataSource.getRepository(Product).createQueryBuilder('p');
        if (filter.orgID !== undefined) qb.andWhere('p.orgID = :orgID', { orgID: filter.orgID });
        if (filter.userID !== undefined) qb.andWhere('p.userID = :userID', { userID: filter.userID });
        if (scope) qb.andWhere(...namedCondition(scope, 'scope'));
        return qb;
      },
      keys: { created: 'p.createdAt', id: 'p.productID' },
      keyOf: (p) => ({ createdAt: p.createdAt, id: p.productID }),
    });
  }
}
