export const INTERVIEW_LIMITS = {
  name: 200,
  guidelines: 50_000,
  interviewer: 100,
  /** retentionDays: from a day to ten years. */
  retentionDays: { min: 1, max: 3650 },
} as const;
