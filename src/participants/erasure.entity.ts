import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, TIMESTAMP } from '../database/column-types';

/** One erasure of a person's data within an owner: who, when, how much; the address only as its SHA-256. */
@Entity('erasures')
@Index('idx_erasures_org_created', ['orgID', 'createdAt', 'erasureID'])
@Index('idx_erasures_user_created', ['userID', 'createdAt', 'erasureID'])
export class Erasure {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  erasureID: string;

  @Column({ name: 'org_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  orgID: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  userID: string | null;

  /** The token's name, or "retention". */
  @Column({ name: 'erased_by', type: 'varchar', length: 100 })
  by: string;

  @Column({ name: 'email_sha256', type: 'varchar', length: 64, ...EXACT_TEXT })
  emailSha256: string;

  @Column({ type: 'integer', default: 0 })
  invites: number;

  @Column({ type: 'integer', default: 0 })
  profiles: number;

  @Column({ type: 'integer', default: 0 })
  reports: number;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;
}
