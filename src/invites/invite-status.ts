export const INVITE_STATUSES = ['pending', 'started', 'completed', 'expired'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export const CONVERSATION_ROLES = ['interviewer', 'interviewee', 'system'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

/** Allowed transitions: pending → started → completed; pending | started → expired. */
export const TRANSITIONS: Record<InviteStatus, readonly InviteStatus[]> = {
  pending: ['started', 'expired'],
  started: ['completed', 'expired'],
  completed: [],
  expired: [],
};
