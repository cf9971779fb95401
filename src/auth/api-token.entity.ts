import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, TIMESTAMP } from '../database/column-types';

export const TOKEN_LIMITS = {
  /** A label for people; the CLI takes up to this many characters. */
  name: 100,
  /** SHA-256 in hex. */
  hash: 64,
} as const;

/** An API token. Only the SHA-256 of the secret is stored; the secret is shown once at creation. */
@Entity('api_tokens')
export class ApiToken {
  @PrimaryColumn({ type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  id: string;

  @Column({ type: 'varchar', length: TOKEN_LIMITS.name, nullable: true })
  name: string | null;

  @Index('uq_api_tokens_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: TOKEN_LIMITS.hash, ...EXACT_TEXT })
  tokenHash: string;

  @Column({ name: 'is_admin', type: 'boolean', default: false })
  isAdmin: boolean;

  @Column({ name: 'org_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  orgID: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  userID: string | null;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'revoked_at', ...TIMESTAMP, nullable: true })
  revokedAt: Date | null;
}
