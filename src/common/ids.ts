import { randomBytes } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * A new record identifier: a UUIDv7 (RFC 9562) from the uuid package. Time-ordered, so InnoDB's
 * clustered-index inserts stay sequential; the package keeps ids of one process in order within a
 * millisecond too.
 */
export function uuidv7(): string {
  return v7();
}

/**
 * A secret a URL carries, and the only credential its holder needs (an invite's linkID, a shared
 * report's shareID): 192 bits from the CSPRNG, base64url (32 chars).
 */
export function newUrlSecret(): string {
  return newUrlSecrets(1)[0];
}

/** n URL secrets from one CSPRNG call. */
export function newUrlSecrets(n: number): string[] {
  const bytes = randomBytes(24 * n);
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = bytes.subarray(i * 24, (i + 1) * 24).toString('base64url');
  return out;
}
