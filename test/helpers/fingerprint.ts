import type { DataSource } from 'typeorm';

/**
 * What any write through the API changes: every insert moves a row count, and every update sets
 * updated_at (products, interviews, invites) to now. Equal fingerprints mean nothing was written.
 * Cheap enough to take around each of hundreds of requests, also on a large shared database.
 */
const TABLES: [string, string | null][] = [
  ['products', 'updated_at'],
  ['interviews', 'updated_at'],
  ['invites', 'updated_at'],
  ['profiles', null],
  ['profile_products', null],
  ['api_tokens', 'revoked_at'],
  ['webhooks', 'updated_at'],
  ['webhook_deliveries', 'updated_at'],
  ['webhook_attempts', null],
];

export async function dbFingerprint(db: DataSource): Promise<string> {
  const parts: string[] = [];
  for (const [table, changed] of TABLES) {
    const [row] = await db.query(`SELECT COUNT(*) AS n${changed ? `, MAX(${changed}) AS m` : ''} FROM ${table}`);
    parts.push(`${table}:${Number(row.n)}:${row.m instanceof Date ? row.m.toISOString() : String(row.m ?? '')}`);
  }
  return parts.join('|');
}
