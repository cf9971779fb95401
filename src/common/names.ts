/** A full name as typed into a form: the first word, and the rest (null when there is none). */
export function splitName(fullName: string | null | undefined): { first: string | null; rest: string | null } {
  const words = fullName?.trim().split(/\s+/).filter(Boolean) ?? [];
  return { first: words[0] ?? null, rest: words.length > 1 ? words.slice(1).join(' ') : null };
}
