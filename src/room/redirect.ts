/**
 * Where a finished interviewee is sent: the interview's completion URL (a panel's) with `status` set
 * in its query, so that the panel can tell completes from drop-outs. Nothing of the invite goes in it:
 * the linkID is the interviewee's credential.
 */
export function completionRedirect(url: string | null, status: string): string | null {
  if (!url || (status !== 'completed' && status !== 'abandoned')) return null;
  try {
    const target = new URL(url);
    if (target.protocol !== 'https:') return null;
    target.searchParams.set('status', status);
    return target.toString();
  } catch {
    return null;
  }
}
