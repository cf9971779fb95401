export const INVITE_LIMITS = {
  /** Column width of link_id; generated linkIDs are 32 characters. */
  linkId: 64,
  /** What is known of the invited person (userInfo). */
  email: 320,
  personName: 200,
  occupation: 200,
  /** A transcript holds up to 8 MB of JSON (5 MB round-trips byte-exact in the tests) and 100,000 turns. */
  transcriptBytes: 8 * 1024 * 1024,
  turns: 100_000,
  /** The highest MAX_INVITES_PER_REQUEST may be set to (its default is 1,000). */
  perRequestCeiling: 10_000,
  /** A language tag (`en`, `pt-BR`). */
  language: 16,
  /** createInvites' expiresInDays, and INVITE_TTL_DAYS. */
  expiresInDaysMax: 365,
  /** `link` or `open`. */
  source: 8,
  /** A panel's participant id (Prolific's are 24 characters, Cint's RIDs 36). */
  participantID: 128,
  /** A segment: createInvites' or the screener's chosen options. */
  segment: 100,
  /** `|quotaID|…|` for every quota cell an invite is in (10 quotas of 40-character ids). */
  quotaCells: 1000,
} as const;
