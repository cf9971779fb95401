import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_LIMITS } from './webhooks.limits';

/** A new endpoint secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(WEBHOOK_LIMITS.secretBytes).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt, signed with the reference library:
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. The id is the delivery's
 * (the same on every attempt); the timestamp is the attempt's, which receivers check against their clock.
 */
export function signedHeaders(secret: string, webhookID: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': webhookID,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookID, at, body),
  };
}
