import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * What any write through the API changes. Tables whose every update sets updated_at (the service's
 * writes all do) are fingerprinted by row count and latest updated_at, which stays cheap on a large
 * shared database; the others (no updated_at, or updated in place) by a digest of every row.
 * Equal fingerprints mean nothing was written.
 */
const BY_UPDATED_AT = ['products', 'interviews', 'invites', 'webhooks', 'webhook_deliveries', 'reports'];
const BY_CONTENT: [string, string][] = [
  ['profiles', 'id'],
  ['profile_products', 'profile_id, product_id'],
  ['api_tokens', 'id'],
  ['webhook_attempts', 'id'],
  ['idempotency_keys', 'token_id, idem_key'],
  ['report_shares', 'id'],
  ['erasures', 'id'],
  ['invite_answer_digests', 'link_id, turn_index'],
  ['invite_email_digests', 'link_id'],
];

export async function dbFingerprint(db: DataSource): Promise<string> {
  const parts: string[] = [];
  for (const table of BY_UPDATED_AT) {
    const [row] = await db.query(`SELECT COUNT(*) AS n, MAX(updated_at) AS m FROM ${table}`);
    parts.push(`${table}:${Number(row.n)}:${row.m instanceof Date ? row.m.toISOString() : String(row.m ?? '')}`);
  }
  for (const [table, order] of BY_CONTENT) {
    const rows: unknown[] = await db.query(`SELECT * FROM ${table} ORDER BY ${order}`);
    parts.push(`${table}:${rows.length}:${createHash('sha256').update(JSON.stringify(rows)).digest('hex')}`);
  }
  // Kept recordings by key and size: their bytes are written once and never changed in place.
  const audio: unknown[] = await db.query('SELECT link_id, turn_index, part, content_type, LENGTH(data) AS size FROM invite_audio ORDER BY link_id, turn_index, part');
  parts.push(`invite_audio:${audio.length}:${createHash('sha256').update(JSON.stringify(audio)).digest('hex')}`);
  return parts.join('|');
}
