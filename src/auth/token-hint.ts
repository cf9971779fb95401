/**
 * The command that creates the first admin token for the database this process uses, as a person can
 * paste it into another shell: with DATABASE_URL in front, since that shell may not have it (a .env
 * file is read by both, the environment of a service manager is not). A password is never printed
 * (start-up output ends up in logs): it is masked, and the hint says so.
 */
export function firstTokenCommand(databaseUrl: string | undefined): { command: string; masked: boolean } {
  const base = 'npm run token -- create --admin';
  if (!databaseUrl?.trim()) return { command: base, masked: false };
  let shown = databaseUrl.trim();
  let masked = false;
  try {
    const url = new URL(shown);
    if (url.password) {
      url.password = 'PASSWORD';
      shown = url.toString();
      masked = true;
    }
  } catch {
    // Not a URL (sqlite:<file>): shown as it is.
  }
  return { command: `DATABASE_URL=${shellQuoted(shown)} ${base}`, masked };
}

/** One POSIX shell word: single quotes, each ' written as '\'' */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
