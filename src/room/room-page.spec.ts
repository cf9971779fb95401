import type { SessionDto } from './dto/session.dto';
import { renderRoom, renderRoomError } from './room-page';

const session = (overrides: Partial<SessionDto> = {}): SessionDto => ({
  status: 'pending',
  publicTitle: 'Your first week',
  language: 'en',
  direction: 'ltr',
  languages: [],
  productName: 'Acme <Notes>',
  productImage: null,
  consentText: 'We record this.',
  progress: { asked: 0, total: 3 },
  redirectUrl: null,
  mode: 'text',
  questionsSpokenBy: null,
  keepAudio: false,
  conversation: [],
  expires_on: '2026-12-21T12:04:05.123Z',
  ...overrides,
});

describe(renderRoom.name, () => {
  it('sets the language and direction on <html>, and sends no referrer', () => {
    expect(renderRoom(session())).toContain('<html lang="en" dir="ltr">');
    expect(renderRoom(session({ language: 'ar', direction: 'rtl' }))).toContain('<html lang="ar" dir="rtl">');
    expect(renderRoom(session())).toContain('<meta name="referrer" content="no-referrer">');
  });

  it.each(['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'tr', 'ja', 'zh', 'ar'])('%s: every state shows catalog texts, never a key or an unfilled placeholder', (language) => {
    for (const status of ['pending', 'started', 'completed', 'abandoned', 'expired', 'revoked']) {
      const html = renderRoom(session({ language, status: status as SessionDto['status'], progress: { asked: 2, total: 3 }, conversation: [{ role: 'interviewer', content: 'Q?' }] }));
      const visible = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '').replace(/\/assets\/room\.(css|js)/g, '');
      expect([status, visible.match(/\b(room|client|agent)\.[a-z]+\.?[a-zA-Z.]*/g)]).toEqual([status, null]);
      expect([status, visible.match(/\{(product|name|date|time|asked|total|seconds)\}/g)]).toEqual([status, null]);
    }
  });

  it('escapes data inside translated texts', () => {
    const html = renderRoom(session({ status: 'completed' }));
    expect(html).toContain('the team behind Acme &lt;Notes&gt;');
    expect(html).not.toContain('Acme <Notes>');
  });

  it('shows the progress in the language while the conversation runs', () => {
    expect(renderRoom(session({ status: 'started', language: 'de', progress: { asked: 2, total: 5 } }))).toContain('<p id="progress" class="room__progress">Frage 2 von 5</p>');
    expect(renderRoom(session({ status: 'started', progress: null }))).not.toContain('id="progress"');
  });

  it('links on to the completion URL once the interview is over, without a Referer', () => {
    const html = renderRoom(session({ status: 'completed', redirectUrl: 'https://panel.example/c?pid=1&status=completed' }));
    expect(html).toMatch(/<main[\s\S]*<p class="redirect">[^<]*<a class="redirect__link" href="https:\/\/panel\.example\/c\?pid=1&amp;status=completed" rel="noreferrer">Continue<\/a>/);
  });

  it.each(['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'tr', 'ja', 'zh', 'ar'])('%s: a voice interview shows its controls and notice in catalog texts', (language) => {
    for (const status of ['pending', 'started'] as const) {
      const html = renderRoom(session({ language, status, mode: 'voice', questionsSpokenBy: 'browser', keepAudio: true, conversation: [{ role: 'interviewer', content: 'Q?' }] }));
      const visible = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '').replace(/\/assets\/room\.(css|js)/g, '');
      expect([status, visible.match(/\b(room|client|agent)\.[a-z]+\.?[a-zA-Z.]*/g)]).toEqual([status, null]);
    }
  });

  it('a voice interview: the record button has the focus, the answer box stays; a text interview has neither control nor notice', () => {
    const voice = renderRoom(session({ status: 'started', mode: 'voice', questionsSpokenBy: 'server', conversation: [{ role: 'interviewer', content: 'Q?' }] }));
    expect(voice).toMatch(/<div id="voice" class="voice" data-state="idle" data-spoken-by="server" data-max-seconds="170">/);
    expect(voice).toMatch(/<button type="button" id="record" class="record" aria-describedby="voice-status" autofocus>/);
    expect(voice).toMatch(/<p id="voice-status" class="voice__status" role="status">Press Record answer and speak/);
    expect(voice).toMatch(/<textarea id="answer" [^>]*aria-describedby="answer-hint"><\/textarea>/);
    expect(voice).toContain('<main class="room" data-status="started" data-mode="voice">');
    const text = renderRoom(session({ status: 'started', conversation: [{ role: 'interviewer', content: 'Q?' }] }));
    expect(text).not.toContain('id="voice"');
    expect(text).toMatch(/<textarea id="answer" [^>]* autofocus><\/textarea>/);
    expect(renderRoom(session())).not.toContain('voice-notice');
  });

  it('says before the start that answers are spoken, and that recordings are kept only when they are', () => {
    const kept = renderRoom(session({ mode: 'voice', questionsSpokenBy: 'browser', keepAudio: true }));
    expect(kept).toContain('<p class="voice-notice">In this interview you answer by speaking: your browser will ask to use the microphone. You can always type instead. Your recordings are kept with your answers for the research team.</p>');
    const notKept = renderRoom(session({ mode: 'voice', questionsSpokenBy: 'browser', keepAudio: false, language: 'de' }));
    expect(notKept).toContain('In diesem Interview antworten Sie gesprochen');
    expect(notKept).not.toContain('Aufnahmen werden');
  });

  it('keeps the script\'s messages from closing their <script>', () => {
    const html = renderRoom(session());
    const data = /<script type="application\/json" id="room-messages">([\s\S]*?)<\/script>/.exec(html)![1];
    expect(data).not.toContain('<');
    expect(JSON.parse(data)['client.enterName']).toBe('Please enter your name.');
  });
});

describe(renderRoomError.name, () => {
  it('speaks the browser\'s language and never repeats the request', () => {
    expect(renderRoomError(404, 'ja')).toContain('このリンクに対応するインタビューはありません');
    expect(renderRoomError(429, 'fr')).toContain('Trop de requêtes');
    expect(renderRoomError(500, 'ar')).toContain('<html lang="ar" dir="rtl">');
  });

  it("lists the interview's languages before the start, each by its own name, the shown one current; none without a choice", () => {
    const languages = [
      { language: 'en', name: 'English' },
      { language: 'de', name: 'Deutsch' },
      { language: 'ja', name: '日本語' },
    ];
    const html = renderRoom(session({ language: 'de', languages }));
    expect(html).toContain('<nav class="languages" aria-label="Sprache">');
    expect(html).toContain('<a class="languages__link" href="?lang=de" lang="de" hreflang="de" dir="ltr" aria-current="true">Deutsch</a>');
    expect(html).toContain('<a class="languages__link" href="?lang=ja" lang="ja" hreflang="ja" dir="ltr">日本語</a>');
    expect(html).toContain('data-language="de"');
    expect(renderRoom(session())).not.toContain('class="languages"');
  });
});
