import { INTERVIEW_LIMITS } from '../domain/interview.limits';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, LONG_TEXT, TIMESTAMP } from '../database/column-types';
import { Interview } from '../interviews/interview.entity';
import { REPORT_LIMITS, ReportStatus } from './reports.limits';

/**
 * A report on an interview's answers. Queued by addOne; a worker in any instance claims it (claim_token,
 * leased until lease_until and renewed while it runs), so a dead instance's report is taken over when
 * its lease runs out. Its product is its interview's: visibility follows the interview.
 */
@Entity('reports')
@Index('idx_reports_interview_created', ['interviewID', 'createdAt', 'reportID'])
@Index('idx_reports_due', ['status', 'leaseUntil'])
export class Report {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  reportID: string;

  @Column({ name: 'interview_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  interviewID: string;

  @ManyToOne(() => Interview, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'interview_id', foreignKeyConstraintName: 'fk_reports_interview' })
  interview?: Interview;

  /** Whether flagged invites' answers are read (addOne's includeFlagged). */
  @Column({ name: 'include_flagged', type: 'boolean', default: false })
  includeFlagged: boolean;

  /** At most this many themes per question (addOne's maxThemes). */
  @Column({ name: 'max_themes', type: 'integer', default: REPORT_LIMITS.maxThemes.default })
  maxThemes: number;

  /** addOne's language: the language a model writes its themes in and translates answers into for coding (null: English). */
  @Column({ type: 'varchar', length: INTERVIEW_LIMITS.language, nullable: true })
  language: string | null;

  /** An `openai` interviewer agent's name; null: the built-in offline analysis. */
  @Column({ type: 'varchar', length: REPORT_LIMITS.analyst, nullable: true })
  analyst: string | null;

  @Column({ type: 'varchar', length: REPORT_LIMITS.status })
  status: ReportStatus;

  @Column({ name: 'progress_done', type: 'integer', default: 0 })
  progressDone: number;

  @Column({ name: 'progress_total', type: 'integer', default: 0 })
  progressTotal: number;

  /** The answers stored up to this time are the report's (set when a run starts reading them). */
  @Column({ name: 'as_of', ...TIMESTAMP, nullable: true })
  asOf: Date | null;

  @Column({ type: 'varchar', length: REPORT_LIMITS.error, nullable: true })
  error: string | null;

  /** The ReportResult as JSON, once completed. */
  @Column({ type: LONG_TEXT, nullable: true })
  result: string | null;

  /** Runs started: one that dies with its instance is taken over, up to REPORT_LIMITS.attempts. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'claim_token', type: 'varchar', length: COMMON_LIMITS.uuid, nullable: true, ...EXACT_TEXT })
  claimToken: string | null;

  @Column({ name: 'lease_until', ...TIMESTAMP, nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;

  @Column({ name: 'completed_on', ...TIMESTAMP, nullable: true })
  completedOn: Date | null;
}

/** A secret link to a report's page (/r/{shareID}), working until expires_on. */
@Entity('report_shares')
@Index('idx_report_shares_report', ['reportID'])
export class ReportShare {
  @PrimaryColumn({ name: 'id', type: 'varchar', length: REPORT_LIMITS.shareId, ...EXACT_TEXT })
  shareID: string;

  @Column({ name: 'report_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  reportID: string;

  @ManyToOne(() => Report, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'report_id', foreignKeyConstraintName: 'fk_report_shares_report' })
  report?: Report;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;

  @Column({ name: 'expires_on', ...TIMESTAMP })
  expiresOn: Date;
}
