import { Env, readHttpUrl, readInt } from '../config/env';
import type { AppConfig } from '../config/app-config';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { featureConfig } from '../config/feature-config';

/** The invites' own settings (the namespace invitesConfig). */
export interface InvitesConfig {
  /** Invite URLs are `${inviteBaseUrl}/${linkID}`. */
  readonly inviteBaseUrl: string;
  /** An invite expires this long after it was created, unless createInvites says otherwise. */
  readonly inviteTtlDays: number;
  /** How often each instance looks for invites past expires_on. */
  readonly expirySweepMs: number;
  /** Upper bound of createInvites' count. */
  readonly maxInvitesPerRequest: number;
}

export function readInvitesConfig(env: Env, app: AppConfig): InvitesConfig {
  return {
    // Unset, links open on this very service: a link printed by a local service works there.
    inviteBaseUrl: readHttpUrl(env, 'INVITE_BASE_URL', `http://localhost:${app.port}/i`),
    inviteTtlDays: readInt(env, 'INVITE_TTL_DAYS', 30, 1, INVITE_LIMITS.expiresInDaysMax),
    expirySweepMs: readInt(env, 'EXPIRY_SWEEP_SECONDS', 60, 1, 60) * 1000,
    maxInvitesPerRequest: readInt(env, 'MAX_INVITES_PER_REQUEST', 1000, 1, INVITE_LIMITS.perRequestCeiling),
  };
}

export const invitesConfig = featureConfig('invites', readInvitesConfig);
