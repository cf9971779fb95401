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
  /** addOne's maxThemes: themes per question at most. */
  maxThemes: { min: 2, max: 30, default: 12 },
  /** getCodes' themeID: `q<k>-t<n>`, `qx-t<n>`, `q<k>-c<n>` (and `all-t<n>`, which getCodes does not list). */
  themeId: 24,
} as const;

/** What a themeID looks like; anything else is no theme of any report. */
export const THEME_ID_PATTERN = /^(q(0|[1-9][0-9]{0,8})-[tc]|qx-t|all-t)[1-9][0-9]{0,8}$/;
