import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { EXACT_TEXT, LONG_TEXT, TIMESTAMP } from '../database/column-types';

/** One Idempotency-Key of one token: the request it was first used for and, once done, its response. */
@Entity('idempotency_keys')
@Index('idx_idempotency_expires', ['expiresAt'])
export class IdempotencyRecord {
  @PrimaryColumn({ name: 'token_id', type: 'varchar', length: 36, ...EXACT_TEXT })
  tokenId: string;

  @PrimaryColumn({ name: 'idem_key', type: 'varchar', length: 255, ...EXACT_TEXT })
  key: string;

  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
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
