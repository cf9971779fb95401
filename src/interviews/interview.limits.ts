export const INTERVIEW_LIMITS = {
  name: 200,
  guidelines: 50_000,
  interviewer: 100,
} as const;
