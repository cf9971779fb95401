import { INTERVIEWER_LIMITS } from '../interviewers/interviewer.limits';

export const REPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Bounds of reports and their share links. */
export const REPORT_LIMITS = {
  /** The analyst is an interviewer agent's name. */
  analyst: INTERVIEWER_LIMITS.name,
  status: 16,
  /** Why a report failed, in plain words (never a transcript's text). */
  error: 500,
  /** Column width of a shareID; generated ones are 32 characters, like linkIDs. */
  shareId: 64,
  /** share's expiresInDays. */
  shareDays: { min: 1, max: 90, default: 7 },
  /** A report that failed this many runs (its instance died each time) is failed for good. */
  attempts: 3,
} as const;
