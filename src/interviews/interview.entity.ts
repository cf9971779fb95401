import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EXACT_TEXT, LONG_TEXT, TIMESTAMP } from '../database/column-types';
import { Product } from '../products/product.entity';

@Entity('interviews')
@Index('idx_interviews_product_created', ['productID', 'createdAt', 'interviewID'])
export class Interview {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: 36, ...EXACT_TEXT })
  interviewID: string;

  @Column({ name: 'product_id', type: 'varchar', length: 36, ...EXACT_TEXT })
  productID: string;

  @ManyToOne(() => Product, { onDelete: 'RESTRICT', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'fk_interviews_product' })
  product?: Product;

  @Column({ name: 'name', type: 'varchar', length: 200 })
  interviewName: string;

  @Column({ type: LONG_TEXT, nullable: true })
  guidelines: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: 100, nullable: true, ...EXACT_TEXT })
  userID: string | null;

  @Column({ type: 'varchar', length: 100 })
  interviewer: string;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;
}
