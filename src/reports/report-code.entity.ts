import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMMON_LIMITS } from '../common/limits';
import { EXACT_TEXT, LONG_TEXT, jsonText } from '../database/column-types';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { Report } from './report.entity';

/**
 * One answer a report read, with its codes: what getCodes lists and the shared page shows under each
 * theme. Kept apart from the report's result (a report may code 100,000 answers, which getCodes pages
 * and an erasure edits) and with what the report read of the answer, so that an erasure can recount
 * every figure without the erased (words, sentiment) and a page can show the answers as the report saw them.
 * `seq` is the answer's place in the report, in getAnswers' order (invite creation, then turn).
 */
@Entity('report_codes')
@Index('idx_report_codes_question', ['reportID', 'questionIndex', 'seq'])
@Index('idx_report_codes_link', ['reportID', 'linkID'])
export class ReportCode {
  @PrimaryColumn({ name: 'report_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  reportID: string;

  @PrimaryColumn({ type: 'integer' })
  seq: number;

  @ManyToOne(() => Report, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'report_id', foreignKeyConstraintName: 'fk_report_codes_report' })
  report?: Report;

  @Column({ name: 'link_id', type: 'varchar', length: INVITE_LIMITS.linkId, ...EXACT_TEXT })
  linkID: string;

  @Column({ name: 'turn_index', type: 'integer' })
  turnIndex: number;

  /** As getAnswers shows it: null for the unattributed answers. */
  @Column({ name: 'question_index', type: 'integer', nullable: true })
  questionIndex: number | null;

  /** The themes of its question it was coded with, in their order; [] = `other`. JSON text. */
  @Column({ name: 'theme_ids', type: 'text', transformer: jsonText })
  themeIDs: string[];

  /** The themes across the interview it counts in. JSON text. */
  @Column({ name: 'across_theme_ids', type: 'text', transformer: jsonText })
  acrossThemeIDs: string[];

  /** The answer's text as the report read it (an erasure deletes the row). */
  @Column({ type: LONG_TEXT })
  answer: string;

  @Column({ type: 'integer' })
  words: number;

  /** Its sentiment score (-1..1); null where it could not be scored. */
  @Column({ type: 'double', nullable: true })
  sentiment: number | null;
}
