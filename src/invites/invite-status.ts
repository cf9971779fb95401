export const INVITE_STATUSES = ['pending', 'started', 'completed', 'expired'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];
