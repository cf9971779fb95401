/**
 * Where the service may send a person's browser: an absolute https URL without credentials. A
 * `user:pw@` part would hand the person's browser a login to someone's server (and many browsers
 * block or warn on such links anyway).
 */
export function isRedirectUrl(value: string): boolean {
  if (!isHttpUrl(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.username === '' && url.password === '';
}

/** An absolute http(s) URL with a host and no white space. */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
