import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, jsonText, LONG_TEXT, TIMESTAMP } from '../database/column-types';
import { Interview } from '../interviews/interview.entity';
import { Product } from '../products/product.entity';
import type { ConversationRole, InviteStatus } from './invite-status';
import { INVITE_LIMITS } from './invite.limits';

export interface UserInfo {
  email: string | null;
  name: string | null;
  occupation: string | null;
}

export interface ConversationTurn {
  role: ConversationRole;
  content: string;
}

@Entity('invites')
@Index('idx_invites_interview_created', ['interviewID', 'createdAt', 'linkID'])
@Index('idx_invites_product_created', ['productID', 'createdAt', 'linkID'])
@Index('idx_invites_expiry', ['status', 'expiresAt'])
export class Invite {
  @PrimaryColumn({ name: 'link_id', type: 'varchar', length: INVITE_LIMITS.linkId, ...EXACT_TEXT })
  linkID: string;

  @Column({ name: 'interview_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  interviewID: string;

  @ManyToOne(() => Interview, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'interview_id', foreignKeyConstraintName: 'fk_invites_interview' })
  interview?: Interview;

  @Column({ name: 'product_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  productID: string;

  @ManyToOne(() => Product, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'fk_invites_product' })
  product?: Product;

  @Column({ name: 'org_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  orgID: string | null;

  @Column({ name: 'user_info', type: LONG_TEXT, nullable: true, transformer: jsonText })
  userInfo: UserInfo | null;

  @Column({ type: 'varchar', length: 16 })
  status: InviteStatus;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'completed_on', ...TIMESTAMP, nullable: true })
  completedOn: Date | null;

  /** Past this, a pending or started invite is expired (checked on use and by the sweep). */
  @Column({ name: 'expires_on', ...TIMESTAMP })
  expiresAt: Date;

  @Column({ type: LONG_TEXT, transformer: jsonText })
  conversation: ConversationTurn[];

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;
}
