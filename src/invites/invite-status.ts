export const INVITE_STATUSES = ['pending', 'started', 'completed', 'expired'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export const CONVERSATION_ROLES = ['interviewer', 'interviewee', 'system'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];
