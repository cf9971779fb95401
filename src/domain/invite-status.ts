export const INVITE_STATUSES = ['pending', 'started', 'completed', 'abandoned', 'expired', 'revoked', 'screenedout', 'overquota'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export const CONVERSATION_ROLES = ['interviewer', 'interviewee', 'system'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

/**
 * Allowed transitions: pending → started → completed (or abandoned: ended before any answer);
 * pending | started → expired; pending | started → revoked (the research team withdrew the link);
 * screenedout and overquota are made by the open link (and pending → overquota when its place went meanwhile).
 */
export const TRANSITIONS: Record<InviteStatus, readonly InviteStatus[]> = {
  // overquota from pending: an open link's invite whose place was taken meanwhile, found when it starts.
  pending: ['started', 'expired', 'revoked', 'overquota'],
  started: ['completed', 'abandoned', 'expired', 'revoked'],
  completed: [],
  abandoned: [],
  expired: [],
  revoked: [],
  // Made in these statuses by the open link (the person did not qualify, or the quota was full): terminal.
  screenedout: [],
  overquota: [],
};

/** Where an invite came from: createInvites (`link`) or the open link of an interview's recruitment (`open`). */
export const INVITE_SOURCES = ['link', 'open'] as const;
export type InviteSource = (typeof INVITE_SOURCES)[number];

/** Statuses in which the room still takes the interviewee's input; past them, a link shows nothing of the interview. */
export const OPEN_STATUSES: readonly InviteStatus[] = ['pending', 'started'];
