import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, LONG_TEXT, TIMESTAMP, jsonText } from '../database/column-types';
import { Product } from '../products/product.entity';
import type { InterviewMode } from '../voice/voice.limits';
import { INTERVIEW_LIMITS } from '../domain/interview.limits';

@Entity('interviews')
@Index('idx_interviews_product_created', ['productID', 'createdAt', 'interviewID'])
export class Interview {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  interviewID: string;

  @Column({ name: 'product_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  productID: string;

  @ManyToOne(() => Product, { onDelete: 'RESTRICT', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'fk_interviews_product' })
  product?: Product;

  @Column({ name: 'name', type: 'varchar', length: INTERVIEW_LIMITS.name })
  interviewName: string;

  @Column({ type: LONG_TEXT, nullable: true })
  guidelines: string | null;

  /**
   * The guidelines in other languages, `{tag: text}` as JSON (see column-types' jsonText), each with as
   * many questions as `guidelines`: question k of every language is question k. Null: none.
   */
  @Column({ type: LONG_TEXT, nullable: true, transformer: jsonText })
  translations: Record<string, string> | null;

  @Column({ name: 'user_id', type: 'varchar', length: COMMON_LIMITS.ownerId, nullable: true, ...EXACT_TEXT })
  userID: string | null;

  @Column({ type: 'varchar', length: INTERVIEW_LIMITS.interviewer })
  interviewer: string;

  /** Null: `auto`, each invite in its interviewee's language (see src/languages). */
  @Column({ type: 'varchar', length: INTERVIEW_LIMITS.language, nullable: true })
  language: string | null;

  @Column({ name: 'public_title', type: 'varchar', length: INTERVIEW_LIMITS.publicTitle, nullable: true })
  publicTitle: string | null;

  @Column({ name: 'consent_text', type: 'text', nullable: true })
  consentText: string | null;

  @Column({ name: 'completion_redirect_url', type: 'varchar', length: INTERVIEW_LIMITS.completionRedirectUrl, nullable: true })
  completionRedirectUrl: string | null;
  /** Days a finished invite of this interview is kept before it is erased; null: RETENTION_DAYS. */
  @Column({ name: 'retention_days', type: 'integer', nullable: true })
  retentionDays: number | null;

  /** Identifiers in answers are replaced before an answer is stored, logged or sent to an agent. */
  @Column({ name: 'redact_pii', type: 'boolean', default: false })
  redactPII: boolean;

  /** `text` (typed answers) or `voice` (spoken, transcribed by TRANSCRIBER; typing stays possible). */
  @Column({ type: 'varchar', length: INTERVIEW_LIMITS.mode, default: 'text' })
  mode: InterviewMode;

  /** Voice interviews: each recorded answer is kept with the invite (invite_audio) for the team; otherwise never written. */
  @Column({ name: 'keep_audio', type: 'boolean', default: false })
  keepAudio: boolean;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;
}
