/** The quality flags (contract, "Recruitment through panels"), in the order they are listed. */
export const QUALITY_FLAGS = ['pasted', 'too_fast', 'duplicate_answer', 'low_effort', 'duplicate_participant'] as const;
export type QualityFlag = (typeof QUALITY_FLAGS)[number];

/** What an invite's answers let the service say of it: 1 = no doubt; each flag lowers the score. */
export interface InviteQuality {
  score: number;
  flags: QualityFlag[];
}

/** One screener question as a participant answered it. */
export interface ScreenerAnswer {
  screenerID: string;
  options: string[];
}
