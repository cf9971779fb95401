import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, jsonText, LONG_TEXT, TIMESTAMP } from '../database/column-types';
import { Interview } from '../interviews/interview.entity';
import { Product } from '../products/product.entity';
import type { ConversationRole, InviteSource, InviteStatus } from '../domain/invite-status';
import type { InviteQuality, ScreenerAnswer } from './invite-quality';
import { INVITE_LIMITS } from '../domain/invite.limits';

export interface UserInfo {
  email: string | null;
  name: string | null;
  occupation: string | null;
}

export interface ConversationTurn {
  role: ConversationRole;
  content: string;
}

/**
 * What is kept of each turn beside the transcript (turn_meta, one entry per conversation turn, in
 * order): when it was stored, for an interviewer turn the guideline question it asks or follows up,
 * and for an interviewee turn its sentiment. null where it is not known (turns stored before it was
 * kept) or not a question.
 */
export interface TurnMeta {
  at: string | null;
  questionIndex: number | null;
  /**
   * An interviewee turn's sentiment, scored once when it is stored (null: it could not be scored);
   * absent on turns stored before it was kept, which are scored when read.
   */
  sentiment?: number | null;
  /** How `sentiment` was scored (SENTIMENT_METHOD); absent on scores stored before methods were named (VADER's, then v1). */
  sentimentMethod?: string;
}

@Entity('invites')
@Index('idx_invites_interview_created', ['interviewID', 'createdAt', 'linkID'])
@Index('idx_invites_product_created', ['productID', 'createdAt', 'linkID'])
@Index('idx_invites_expiry', ['status', 'expiresAt'])
@Index('idx_invites_retention', ['status', 'updatedAt'])
// One invite per panel participant and interview: the same person arriving twice resumes it (null: not from the open link).
@Index('uq_invites_participant', ['interviewID', 'participantID'], { unique: true })
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

  /** Null on invites made before turn data was kept and never backfilled (none after the migration). */
  @Column({ name: 'turn_meta', type: LONG_TEXT, nullable: true, transformer: jsonText })
  turnMeta: TurnMeta[] | null;

  /** The interviewee turns in the conversation: lists of answers know their size without reading transcripts. */
  @Column({ name: 'answer_count', type: 'integer', default: 0 })
  answerCount: number;

  @Column({ name: 'started_on', ...TIMESTAMP, nullable: true })
  startedOn: Date | null;

  /** The language the interview was held in, fixed when it started; null while pending. */
  @Column({ type: 'varchar', length: INVITE_LIMITS.language, nullable: true })
  language: string | null;

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;

  /** `link` (made by createInvites) or `open` (made by the open link /s/{openID}). */
  @Column({ type: 'varchar', length: INVITE_LIMITS.source, default: 'link' })
  source: InviteSource;

  /** The panel's participant id (open link only). */
  @Column({ name: 'participant_id', type: 'varchar', length: INVITE_LIMITS.participantID, nullable: true, ...EXACT_TEXT })
  participantID: string | null;

  /** createInvites' segment, or the screener's chosen options `; `-joined in question order. */
  @Column({ type: 'varchar', length: INVITE_LIMITS.segment, nullable: true })
  segment: string | null;

  /** The panel's passthrough parameters, `{name: value}` (open link only). */
  @Column({ type: 'text', nullable: true, transformer: jsonText })
  passthrough: Record<string, string> | null;

  /** The screener's answers, `[{screenerID, options}]` (open link only). */
  @Column({ type: 'text', nullable: true, transformer: jsonText })
  screener: ScreenerAnswer[] | null;

  /** The quota cells the invite holds a place in, as `|quotaID|quotaID|` (counted with INSTR under the recruitment's lock). */
  @Column({ name: 'quota_cells', type: 'varchar', length: INVITE_LIMITS.quotaCells, nullable: true })
  quotaCells: string | null;

  /** `{score, flags}` from the answers' signals; null until the first answer. */
  @Column({ type: 'text', nullable: true, transformer: jsonText })
  quality: InviteQuality | null;

  /** Whether `quality` holds a flag: reports leave such invites out without reading their quality. */
  @Column({ type: 'boolean', default: false })
  flagged: boolean;

  /** When the interviewee's data (userInfo, transcript) was erased; null while it is kept. */
  @Column({ name: 'erased_on', ...TIMESTAMP, nullable: true })
  erasedOn: Date | null;
}
