import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, LONG_TEXT, TIMESTAMP, jsonText } from '../database/column-types';
import { Interview } from '../interviews/interview.entity';
import { RECRUITMENT_LIMITS, RedirectOutcome } from './recruitment.limits';

export interface ScreenerOption {
  option: string;
  qualifies: boolean;
}

export interface ScreenerQuestion {
  screenerID: string;
  question: string;
  multiple: boolean;
  options: ScreenerOption[];
}

export interface Quota {
  quotaID: string;
  screenerID: string;
  options: string[];
  max: number;
}

export type Redirects = Record<RedirectOutcome, string | null>;

/**
 * An interview's recruitment through panels: its open link (/s/{openID}), the panel's parameters, the
 * screener, the quotas and where each outcome sends the person. One per interview; setRecruitment
 * replaces it whole, except the openID, which stays the same across updates.
 */
@Entity('recruitments')
@Index('uq_recruitments_open_id', ['openID'], { unique: true })
export class Recruitment {
  @PrimaryColumn({ name: 'interview_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  interviewID: string;

  @OneToOne(() => Interview, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'interview_id', foreignKeyConstraintName: 'fk_recruitments_interview' })
  interview?: Interview;

  @Column({ name: 'open_id', type: 'varchar', length: RECRUITMENT_LIMITS.openId, ...EXACT_TEXT })
  openID: string;

  @Column({ name: 'is_open', type: 'boolean' })
  open: boolean;

  @Column({ name: 'participant_param', type: 'varchar', length: RECRUITMENT_LIMITS.paramName })
  participantParam: string;

  @Column({ type: 'text', transformer: jsonText })
  passthrough: string[];

  /** Completes wanted in all; null: no limit. (`limit` is a reserved word in SQL.) */
  @Column({ name: 'complete_limit', type: 'integer', nullable: true })
  limit: number | null;

  @Column({ type: LONG_TEXT, transformer: jsonText })
  screener: ScreenerQuestion[];

  @Column({ type: LONG_TEXT, transformer: jsonText })
  quotas: Quota[];

  @Column({ type: 'text', transformer: jsonText })
  redirects: Redirects;

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;
}
