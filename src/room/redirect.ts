import { isRedirectUrl } from '../common/http-url';

/**
 * Where a finished interviewee is sent: the interview's completion URL (a panel's) with `status` set
 * in its query, so that the panel can tell completes from drop-outs. Nothing of the invite goes in it:
 * the linkID is the interviewee's credential.
 */
export function completionRedirect(url: string | null, status: string): string | null {
  // Checked again here, not only when stored: a URL stored before a rule existed must not slip through.
  if (!url || (status !== 'completed' && status !== 'abandoned') || !isRedirectUrl(url)) return null;
  try {
    const target = new URL(url);
    target.searchParams.set('status', status);
    return target.toString();
  } catch {
    return null;
  }
}
