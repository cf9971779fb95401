export const INVITE_STATUSES = ['pending', 'started', 'completed', 'abandoned', 'expired', 'revoked'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export const CONVERSATION_ROLES = ['interviewer', 'interviewee', 'system'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

/**
 * Allowed transitions: pending → started → completed (or abandoned: ended before any answer);
 * pending | started → expired; pending | started → revoked (the research team withdrew the link).
 */
export const TRANSITIONS: Record<InviteStatus, readonly InviteStatus[]> = {
  pending: ['started', 'expired', 'revoked'],
  started: ['completed', 'abandoned', 'expired', 'revoked'],
  completed: [],
  abandoned: [],
  expired: [],
  revoked: [],
};

/** Statuses in which the room still takes the interviewee's input; past them, a link shows nothing of the interview. */
export const OPEN_STATUSES: readonly InviteStatus[] = ['pending', 'started'];
