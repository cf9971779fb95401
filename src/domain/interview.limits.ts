export const INTERVIEW_LIMITS = {
  name: 200,
  guidelines: 50_000,
  /** Each translation of the guidelines, like the guidelines themselves. */
  translation: 50_000,
  interviewer: 100,
  language: 16,
  publicTitle: 200,
  consentText: 4000,
  completionRedirectUrl: 2048,
  /** `text` or `voice`. */
  mode: 8,
  /** retentionDays: from a day to ten years. */
  retentionDays: { min: 1, max: 3650 },
} as const;
