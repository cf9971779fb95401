import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, TIMESTAMP } from '../database/column-types';
import { PRODUCT_LIMITS } from './product.limits';

@Entity('products')
@Index('idx_products_org_created', ['orgID', 'createdAt', 'productID'])
@Index('idx_products_user_created', ['userID', 'createdAt', 'productID'])
export class Product {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  productID: string;

  @Column({ type: 'varchar', length: PRODUCT_LIMITS.name })
  name: string;

  // `desc` is a reserved word in SQL; the column is named description.
  @Column({ name: 'description', type: 'text', nullable: true })
  desc: string | null;

  @Column({ name: 'org_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  orgID: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  userID: string | null;

  @Column({ type: 'varchar', length: COMMON_LIMITS.url, nullable: true })
  url: string | null;

  @Column({ name: 'image_link', type: 'varchar', length: COMMON_LIMITS.url, nullable: true })
  imageLink: string | null;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;
}
