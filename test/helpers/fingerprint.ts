import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

const TABLES: [string, string][] = [
  ['products', 'id'],
  ['interviews', 'id'],
  ['invites', 'link_id'],
  ['profiles', 'id'],
  ['profile_products', 'profile_id, product_id'],
  ['api_tokens', 'id'],
];

/** A hash of every row of every table: equal fingerprints mean nothing was written. */
export async function dbFingerprint(db: DataSource): Promise<string> {
  const hash = createHash('sha256');
  for (const [table, order] of TABLES) {
    const rows = await db.query(`SELECT * FROM ${table} ORDER BY ${order}`);
    hash.update(table).update(JSON.stringify(rows));
  }
  return hash.digest('hex');
}
