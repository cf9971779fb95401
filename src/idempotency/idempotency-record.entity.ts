import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, LONG_TEXT, TIMESTAMP } from '../database/column-types';

/** Idempotency-Key: printable ASCII, as long as Stripe's. */
export const IDEMPOTENCY_KEY_MAX = 255;

/** One Idempotency-Key of one token: the request it was first used for and, once done, its response. */
@Entity('idempotency_keys')
@Index('idx_idempotency_expires', ['expiresAt'])
export class IdempotencyRecord {
  @PrimaryColumn({ name: 'token_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  tokenId: string;

  @PrimaryColumn({ name: 'idem_key', type: 'varchar', length: IDEMPOTENCY_KEY_MAX, ...EXACT_TEXT })
  key: string;

  @Column({ name: 'request_hash', type: 'varchar', length: 64 }) // SHA-256 in hex
  requestHash: string;

  /** Null while the first request is still running. */
  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_body', type: LONG_TEXT, nullable: true })
  responseBody: string | null;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'expires_at', ...TIMESTAMP })
  expiresAt: Date;
}
