import { isRedirectUrl } from '../common/http-url';

/** `{name}` in a redirect URL: replaced by the participant id (`{pid}`) or a passthrough value. */
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The participant id's placeholder, whatever the panel calls its parameter. */
export const PID_PLACEHOLDER = 'pid';

/** The placeholders a URL uses that are not among `known`. */
export function unknownPlaceholders(url: string, known: readonly string[]): string[] {
  return [...new Set([...url.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((name) => !known.includes(name)))];
}

/**
 * Whether placeholders stay out of the URL's scheme, credentials, host and port: filled in two ways,
 * the URL must keep one origin, or a participant id could send a person to another site.
 */
export function placeholdersOnlyAfterOrigin(url: string): boolean {
  const a = fill(url, () => 'a');
  const b = fill(url, () => 'b');
  if (!isRedirectUrl(a) || !isRedirectUrl(b)) return false;
  return new URL(a).origin === new URL(b).origin;
}

function fill(url: string, value: (name: string) => string): string {
  return url.replace(PLACEHOLDER, (_whole, name: string) => value(name));
}

/**
 * A redirect with its placeholders replaced, URL-encoded (a placeholder without a value becomes empty);
 * null when there is none, or when the result is not a URL a person may be sent to (checked again here,
 * not only when stored).
 */
export function outcomeRedirect(template: string | null | undefined, values: Readonly<Record<string, string>>): string | null {
  if (!template) return null;
  const url = fill(template, (name) => (Object.hasOwn(values, name) ? encodeURIComponent(values[name]) : ''));
  return isRedirectUrl(url) ? url : null;
}

/** The origins the redirects lead to (their placeholders cannot change an origin: placeholdersOnlyAfterOrigin). */
export function redirectOrigins(redirects: Readonly<Record<string, string | null>>): string[] {
  const origins = new Set<string>();
  for (const template of Object.values(redirects)) {
    const url = template ? fill(template, () => 'x') : null;
    if (url && isRedirectUrl(url)) origins.add(new URL(url).origin);
  }
  return [...origins];
}
