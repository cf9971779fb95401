import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, LONG_TEXT, TIMESTAMP, jsonText } from '../database/column-types';
import { Interview } from '../interviews/interview.entity';
import type { CodebookQuestion } from './codebook.types';

/**
 * An interview's codebook: per question the themes a team wants its answers coded with. The next
 * report codes against it. One per interview; setCodebook replaces it whole.
 */
@Entity('codebooks')
export class Codebook {
  @PrimaryColumn({ name: 'interview_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  interviewID: string;

  @OneToOne(() => Interview, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'interview_id', foreignKeyConstraintName: 'fk_codebooks_interview' })
  interview?: Interview;

  /** The questions with themes, in questionIndex order (JSON text). */
  @Column({ type: LONG_TEXT, transformer: jsonText })
  questions: CodebookQuestion[];

  @Column({ name: 'updated_at', ...TIMESTAMP })
  updatedAt: Date;
}
