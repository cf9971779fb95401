import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newWebhookSecret, signedHeaders } from './webhook-signing';

const body = JSON.stringify({ type: 'invite.completed', timestamp: '2026-11-22T10:15:29.870Z', data: { linkID: 'q3Vd9x', status: 'completed' } });

describe(newWebhookSecret.name, () => {
  it('is whsec_ and the base64 of 32 random bytes, different every time', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe(signedHeaders.name, () => {
  const secret = newWebhookSecret();

  it('produces headers that the Standard Webhooks library verifies on the raw body', () => {
    const headers = signedHeaders(secret, '019a9b12-0000-7000-8000-000000000001', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}"> keyed with the decoded secret', () => {
    const at = new Date('2026-11-22T10:15:30.999Z');
    const headers = signedHeaders(secret, 'msg-1', at, body);
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`msg-1.1795342530.${body}`).digest('base64');
    expect(headers).toEqual({ 'webhook-id': 'msg-1', 'webhook-timestamp': '1795342530', 'webhook-signature': `v1,${expected}` });
  });

  it('fails verification for another secret, another body, another id or a stale timestamp', () => {
    const now = new Date();
    const headers = signedHeaders(secret, 'msg-2', now, body);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body.replace('completed', 'started'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg-3' })).toThrow(WebhookVerificationError);
    const old = signedHeaders(secret, 'msg-2', new Date(now.getTime() - 10 * 60_000), body);
    expect(() => new Webhook(secret).verify(body, old)).toThrow(/too old/);
  });
});
