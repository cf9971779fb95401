import { hash } from 'node:crypto';

/**
 * An e-mail address as the service compares it: trimmed and lower-cased. The data rights find a person's
 * invites by it (erase, export, retention) and the duplicate-participant check keeps its digest, so both
 * sides agree on who is the same person; here, not in either feature, so that both import it without a cycle.
 */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The only form in which the service keeps or tells an address beside the person's own data: lowercase
 * hex SHA-256 of its normal form (the contract's emailSha256). The erasure audit keeps it, and the
 * duplicate-participant check looks invites up by it.
 */
export function emailSha256(email: string): string {
  return hash('sha256', normalEmail(email), 'hex');
}
