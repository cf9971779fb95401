import { Env, readInt, readText } from '../config/env';

export const DEFAULT_CONSENT_TEXT =
  'This interview is conducted by an automated interviewer. Your answers are recorded and shared with the research team that sent you this link.';

/** The interview room's own settings (registered by RoomModule with ConfigModule.forFeature). */
export class RoomConfig {
  /** Shown above the start form and recorded in the transcript when the interviewee agrees. */
  readonly consentText: string;
  /** Requests per RATE_LIMIT_WINDOW_SECONDS: per client address and per link. */
  readonly rateLimit: { perAddress: number; perLink: number };
}

export function readRoomConfig(env: Env): RoomConfig {
  return {
    consentText: readText(env, 'CONSENT_TEXT', DEFAULT_CONSENT_TEXT, 2000),
    rateLimit: {
      perAddress: readInt(env, 'ROOM_RATE_LIMIT_MAX', 120, 1, 1_000_000),
      perLink: readInt(env, 'ROOM_LINK_RATE_LIMIT_MAX', 60, 1, 1_000_000),
    },
  };
}
