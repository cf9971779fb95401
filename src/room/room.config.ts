import { Env, readInt, readText } from '../config/env';
import { featureConfig } from '../config/feature-config';

/** The interview room's own settings (the namespace roomConfig): their type is this reader's, as with Nest's registerAs. */
export function readRoomConfig(env: Env) {
  return {
    /**
     * Shown above the start form and recorded in the transcript when the interviewee agrees, unless the
     * interview has its own. Null: the default of the room's language catalog (room.consent.default).
     */
    consentText: readText(env, 'CONSENT_TEXT', '', 2000) || null,
    /** Requests per RATE_LIMIT_WINDOW_SECONDS: per client address and per link. */
    rateLimit: {
      perAddress: readInt(env, 'ROOM_RATE_LIMIT_MAX', 120, 1, 1_000_000),
      perLink: readInt(env, 'ROOM_LINK_RATE_LIMIT_MAX', 60, 1, 1_000_000),
    },
  } as const;
}

export const roomConfig = featureConfig('room', readRoomConfig);
