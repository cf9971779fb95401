import { Env, readHttpUrl, readInt } from '../config/env';
import type { AppConfig } from '../config/app-config';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { featureConfig } from '../config/feature-config';

/** The invites' own settings (the namespace invitesConfig): their type is this reader's, as with Nest's registerAs. */
export function readInvitesConfig(env: Env, app: AppConfig) {
  return {
    /** Invite URLs are `${inviteBaseUrl}/${linkID}`. Unset, links open on this very service: a link printed by a local service works there. */
    inviteBaseUrl: readHttpUrl(env, 'INVITE_BASE_URL', `http://localhost:${app.port}/i`),
    /** An invite expires this long after it was created, unless createInvites says otherwise. */
    inviteTtlDays: readInt(env, 'INVITE_TTL_DAYS', 30, 1, INVITE_LIMITS.expiresInDaysMax),
    /** How often each instance looks for invites past expires_on. */
    expirySweepMs: readInt(env, 'EXPIRY_SWEEP_SECONDS', 60, 1, 60) * 1000,
    /** Upper bound of createInvites' count. */
    maxInvitesPerRequest: readInt(env, 'MAX_INVITES_PER_REQUEST', 1000, 1, INVITE_LIMITS.perRequestCeiling),
  } as const;
}

export const invitesConfig = featureConfig('invites', readInvitesConfig);
