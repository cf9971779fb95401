/**
 * An e-mail address as the service compares it: trimmed and lower-cased. The data rights find a person's
 * invites by it (erase, export, retention) and the duplicate-participant check keeps its digest, so both
 * sides agree on who is the same person; here, not in either feature, so that both import it without a cycle.
 */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}
