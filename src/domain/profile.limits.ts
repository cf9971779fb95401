/** How a profile was acquired (metadata.source). */
export const PROFILE_SOURCES = ['interview', 'import', 'manual', 'referral'] as const;
/** What a history entry points at (history[].type); id is that record's identifier. */
export const HISTORY_TYPES = ['interview', 'invite', 'note'] as const;

/** Bounds of what a profile holds, enforced by ProfilesService.create and stated in the OpenAPI schema. */
export const PROFILE_LIMITS = {
  products: 1000,
  name: 200,
  shortText: 200,
  background: 10_000,
  productAlignment: 1000,
  listItems: 100,
  history: 10_000,
  historyId: 64,
  interviewCount: 1_000_000,
  /** "org:" or "user:" and an owner id (100). */
  ownerKey: 110,
} as const;
