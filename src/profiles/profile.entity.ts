import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, jsonText, LONG_TEXT, TIMESTAMP } from '../database/column-types';
import { Product } from '../products/product.entity';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { PROFILE_LIMITS } from '../domain/profile.limits';

export interface ProfileMetadata {
  source: string | null;
  acquired_date: string | null;
  last_interviewed: string | null;
  interview_count: number | null;
  sentiment: number | null;
}

export interface ProfileDetails {
  occupation: string | null;
  location: string | null;
  background: string | null;
  productAlignment: string | null;
  key_values: string[];
  interests: string[];
}

export interface HistoryEntry {
  type: string;
  id: string;
}

@Entity('profiles')
@Index('idx_profiles_created', ['createdAt', 'profileID'])
@Index('uq_profiles_owner_email', ['ownerKey', 'email'], { unique: true })
export class Profile {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  profileID: string;

  @Column({ name: 'first_name', type: 'varchar', length: PROFILE_LIMITS.name, nullable: true })
  firstName: string | null;

  @Column({ name: 'last_name', type: 'varchar', length: PROFILE_LIMITS.name, nullable: true })
  lastName: string | null;

  @Column({ type: LONG_TEXT, nullable: true, transformer: jsonText })
  metadata: ProfileMetadata | null;

  @Column({ type: LONG_TEXT, nullable: true, transformer: jsonText })
  details: ProfileDetails | null;

  @Column({ type: LONG_TEXT, transformer: jsonText })
  history: HistoryEntry[];

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  /**
   * Whose interviewee this is ("org:<orgID>", else "user:<userID>") and their email, lower-cased: how a
   * later interview finds the same profile. Neither is part of the Profile resource.
   */
  @Column({ name: 'owner_key', type: 'varchar', length: PROFILE_LIMITS.ownerKey, nullable: true, ...EXACT_TEXT })
  ownerKey: string | null;

  @Column({ type: 'varchar', length: INVITE_LIMITS.email, nullable: true, ...EXACT_TEXT })
  email: string | null;

  /** How many interviewee turns metadata.sentiment is the mean of, to fold in the next interview's. */
  @Column({ name: 'sentiment_turns', type: 'integer', default: 0 })
  sentimentTurns: number;
}

/** A profile's products: a join table so that getList?productID= is one indexed lookup. */
@Entity('profile_products')
@Index('idx_profile_products_product', ['productID', 'profileID'])
export class ProfileProduct {
  @PrimaryColumn({ name: 'profile_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  profileID: string;

  @PrimaryColumn({ name: 'product_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  productID: string;

  @ManyToOne(() => Profile, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'profile_id', foreignKeyConstraintName: 'fk_profile_products_profile' })
  profile?: Profile;

  @ManyToOne(() => Product, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'fk_profile_products_product' })
  product?: Product;
}
