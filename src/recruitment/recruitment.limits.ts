/** Bounds of an interview's recruitment (contract, part four: "Recruitment through panels"). */
export const RECRUITMENT_LIMITS = {
  /** A query parameter name: participantParam and each passthrough name. */
  paramName: 64,
  passthrough: 10,
  /** A passthrough value kept with an invite; longer ones are cut (a panel's ids are short). */
  passthroughValue: 500,
  /** Completes wanted in all, and a quota's max. */
  places: 1_000_000,
  screenerQuestions: 10,
  question: 500,
  options: 20,
  option: 100,
  quotas: 50,
  /** screenerID and quotaID: letters, digits, `_` and `-`. */
  id: 40,
  /** The open link's secret (192 bits, base64url: 32 characters) in a column as wide as a linkID's. */
  openId: 64,
  /**
   * A pending invite made by the open link holds its place this long: the person is on the way to the
   * consent. Past it, only a start takes a place (checked again then).
   */
  pendingHoldMinutes: 60,
} as const;

/** The outcomes a panel sends its participants back for, in the order the API lists them. */
export const REDIRECT_OUTCOMES = ['completed', 'screenout', 'overquota', 'quality', 'abandoned'] as const;
export type RedirectOutcome = (typeof REDIRECT_OUTCOMES)[number];

/** Query parameter names the open link uses itself: a panel's parameter may not be one of them. */
export const RESERVED_PARAMS = ['lang'] as const;
/** The screener form's own fields start with this. */
export const SCREENER_FIELD_PREFIX = 'irs_';
