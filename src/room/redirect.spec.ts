import { completionRedirect } from './redirect';

describe(completionRedirect.name, () => {
  it('sets status in the query, keeping the panel\'s own parameters and fragment', () => {
    expect(completionRedirect('https://panel.example/complete?pid=4711', 'completed')).toBe('https://panel.example/complete?pid=4711&status=completed');
    expect(completionRedirect('https://panel.example/done', 'abandoned')).toBe('https://panel.example/done?status=abandoned');
    expect(completionRedirect('https://panel.example/done?status=old&x=1#top', 'completed')).toBe('https://panel.example/done?status=completed&x=1#top');
  });

  it('is null before the end, for other endings, without a URL, or for anything but https', () => {
    expect(completionRedirect('https://panel.example/done', 'started')).toBeNull();
    expect(completionRedirect('https://panel.example/done', 'expired')).toBeNull();
    expect(completionRedirect('https://panel.example/done', 'revoked')).toBeNull();
    expect(completionRedirect(null, 'completed')).toBeNull();
    expect(completionRedirect('http://panel.example/done', 'completed')).toBeNull();
    expect(completionRedirect('javascript:alert(1)', 'completed')).toBeNull();
    expect(completionRedirect('not a url', 'completed')).toBeNull();
  });

  it('is null for a stored URL that carries credentials', () => {
    expect(completionRedirect('https://user:pw@panel.example/done', 'completed')).toBeNull();
    expect(completionRedirect('https://user@panel.example/done', 'completed')).toBeNull();
  });
});
