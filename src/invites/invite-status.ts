export const INVITE_STATUSES = ['pending', 'started', 'completed', 'expired'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export const CONVERSATION_ROLES = ['interviewer', 'interviewee', 'system'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

/** A transcript may hold up to 8 MB of JSON and up to 100,000 turns. */
export const MAX_TRANSCRIPT_BYTES = 8 * 1024 * 1024;
export const MAX_TURNS = 100_000;
