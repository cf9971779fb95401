export const PARTICIPANT_LIMITS = {
  /** As the room takes it (RFC 5321's path limit). */
  email: 320,
  /** The audit's "by": a token's name is at most this long. */
  by: 100,
  /** An export's invites (bounded for the OpenAPI document: one person's invites within one owner). */
  exportInvites: 1_000_000,
} as const;

/** The audit's "by" when the retention sweep erased. */
export const RETENTION_ACTOR = 'retention';
