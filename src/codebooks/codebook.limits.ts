/** Bounds of a codebook (contract, part four: "Codebooks"). */
export const CODEBOOK_LIMITS = {
  /** Themes a question. */
  themes: 50,
  theme: 80,
  description: 500,
  examples: 20,
  example: 1000,
  /** Questions a codebook names: no interview asks more (a question is a guideline line, guidelines ≤ 50,000 characters). */
  questions: 25_000,
  /** Examples toCodebook takes from a theme's quotes. */
  examplesFromReport: 5,
} as const;
