import { Env, readInt, readText } from '../config/env';
import { featureConfig } from '../config/feature-config';

/** The interview room's own settings (the namespace roomConfig). */
export interface RoomConfig {
  /**
   * Shown above the start form and recorded in the transcript when the interviewee agrees, unless the
   * interview has its own. Null: the default of the room's language catalog (room.consent.default).
   */
  readonly consentText: string | null;
  /** Requests per RATE_LIMIT_WINDOW_SECONDS: per client address and per link. */
  readonly rateLimit: { perAddress: number; perLink: number };
}

export function readRoomConfig(env: Env): RoomConfig {
  return {
    consentText: readText(env, 'CONSENT_TEXT', '', 2000) || null,
    rateLimit: {
      perAddress: readInt(env, 'ROOM_RATE_LIMIT_MAX', 120, 1, 1_000_000),
      perLink: readInt(env, 'ROOM_LINK_RATE_LIMIT_MAX', 60, 1, 1_000_000),
    },
  };
}

export const roomConfig = featureConfig('room', readRoomConfig);
