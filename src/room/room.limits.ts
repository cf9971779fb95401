import { INVITE_LIMITS } from '../domain/invite.limits';

/** Bounds of the interview room's requests (the interviewee's details are the invite's userInfo). */
export const ROOM_LIMITS = {
  name: INVITE_LIMITS.personName,
  email: INVITE_LIMITS.email,
  occupation: INVITE_LIMITS.occupation,
  /** One answer. */
  answer: 4000,
  /** A room request body; larger ones are refused with 413 before they are parsed. */
  bodyBytes: 16 * 1024,
  /** typedChars and pastedChars of an answer: keystrokes that were deleted again count too, so more than the answer's length. */
  signalChars: 1_000_000,
  /** durationMs of an answer: a day. */
  signalMs: 86_400_000,
} as const;

/** What a linkID can look like (createInvites makes 32 base64url characters); anything else is unknown. */
export const LINK_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
