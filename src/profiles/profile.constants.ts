/** How a profile was acquired (metadata.source). */
export const PROFILE_SOURCES = ['interview', 'import', 'manual', 'referral'] as const;
/** What a history entry points at (history[].type); id is that record's identifier. */
export const HISTORY_TYPES = ['interview', 'invite', 'note'] as const;
