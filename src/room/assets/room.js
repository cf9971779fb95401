// The interview room's script: the page is rendered by the server in the invite's state; this script
// sends the start form, the answers and "End interview" to the room's JSON API and shows what comes
// back. Transcript text only ever goes into textContent, never into HTML.
(function () {
  'use strict';

  var main = document.querySelector('main.room');
  if (!main || !main.dataset.status) return;
  var base = window.location.pathname.replace(/\/+$/, '');
  var language = document.documentElement.lang || undefined;
  // The page's texts in its language, from the catalog the server rendered it with (a JSON data block).
  var MESSAGES = {};
  try {
    MESSAGES = JSON.parse(document.getElementById('room-messages').textContent);
  } catch {
    // without them the keys show, which still tells a developer what is missing
  }
  function t(key, values) {
    var text = Object.prototype.hasOwnProperty.call(MESSAGES, key) ? MESSAGES[key] : key;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }
  var ROLES = ['interviewer', 'interviewee', 'system'];
  /** After the interview, a panel's completion URL (when the interview has one) is followed after this long. */
  var REDIRECT_AFTER_MS = 3000;
  var reducedMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  /** POST to the room's API; resolves {status, body, retryAfter} or rejects with a plain-words Error. */
  function send(action, body, contentType) {
    return fetch(base + '/' + action, {
      method: 'POST',
      headers: { 'Content-Type': contentType, Accept: 'application/json' },
      body: body,
      credentials: 'same-origin',
    }).then(
      function (res) {
        return res
          .json()
          .catch(function () {
            return {};
          })
          .then(function (json) {
            return { status: res.status, body: json, retryAfter: res.headers.get('Retry-After') };
          });
      },
      function () {
        throw new Error(t('client.offline'));
      },
    );
  }

  /** POST JSON to the room's API. */
  function post(action, payload) {
    return send(action, JSON.stringify(payload || {}), 'application/json');
  }

  /** What to tell a person about an error answer, in plain words (the API's messages are for developers). */
  /** The API's messages are English, for developers: a person is told in the page's language, by field. */
  var FIELD_MESSAGES = { name: 'client.enterName', email: 'client.enterEmail', consent: 'client.tickAgree', content: 'client.tooLong' };

  function explain(reply) {
    var message = (reply.body && reply.body.message) || '';
    if (reply.status === 409) {
      if (/expired/.test(message)) return { expired: true, text: t('client.expiredUnsent') };
      if (/is completed/.test(message)) return { completed: true, text: t('client.alreadyCompleted') };
      if (/is abandoned/.test(message)) return { completed: true, state: 'abandoned', text: t('client.ended') };
      if (/is revoked/.test(message)) return { completed: true, state: 'revoked', text: t('client.revoked') };
      if (/is started/.test(message)) return { started: true, text: t('client.alreadyStarted') };
      if (/being handled/.test(message)) return { text: t('client.stillHandling') };
      if (/transcript is full/.test(message)) return { text: t('client.transcriptFull') };
    }
    if (reply.status === 429) return { text: t('client.tooFast', { seconds: reply.retryAfter || 30 }) };
    if (reply.status === 404) return { text: t('client.gone') };
    if (reply.status === 413) return { text: t('client.tooLong') };
    if (reply.status === 400) {
      var field = /^(name|email|occupation|consent|content)\b/.exec(message);
      return { field: field, text: t((field && FIELD_MESSAGES[field[1]]) || 'client.checkInput') };
    }
    return { text: t('client.serverError') };
  }

  function showError(text) {
    var box = document.getElementById('form-error');
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
  }

  /** Times arrive in UTC from the server; show them in the reader's own time zone and language. */
  function localizeTimes(root) {
    Array.prototype.forEach.call(root.querySelectorAll('time[datetime]'), function (el) {
      var date = new Date(el.getAttribute('datetime'));
      if (isNaN(date.getTime())) return;
      try {
        el.textContent = date.toLocaleString(language, { dateStyle: 'long', timeStyle: 'short' });
      } catch {
        // an old browser without dateStyle keeps the server's UTC text
      }
    });
  }

  /**
   * Swaps the page's form for the completed or expired panel (a template in the page); the
   * conversation stays in view. `note` says what happened to an answer that was not sent.
   */
  /**
   * A panel's completion URL: shown as a link and followed after a moment, so that a screen reader
   * has read the thank-you first. No Referer goes with it (the page's referrer policy): it would hold the linkID.
   */
  function followRedirect(panel, url) {
    var box = panel && panel.querySelector('.redirect');
    var link = box && box.querySelector('a');
    if (!link) return;
    if (url) link.setAttribute('href', url);
    if (!link.getAttribute('href')) return;
    box.hidden = false;
    window.setTimeout(function () {
      window.location.assign(link.getAttribute('href'));
    }, REDIRECT_AFTER_MS);
  }

  function finish(state, note, redirectUrl) {
    var template = document.getElementById(state + '-template');
    var content = template ? template.content.cloneNode(true) : null;
    Array.prototype.forEach.call(main.querySelectorAll('form, section.card'), function (node) {
      node.remove();
    });
    var typing = document.getElementById('typing');
    if (typing) typing.hidden = true;
    if (content) main.appendChild(content);
    main.dataset.status = state;
    var panel = main.querySelector('section.card');
    if (!panel) return;
    if (note) {
      var extra = document.createElement('p');
      extra.textContent = note;
      panel.appendChild(extra);
    }
    localizeTimes(panel);
    panel.setAttribute('tabindex', '-1');
    panel.focus();
    scrollToEnd();
    followRedirect(panel, redirectUrl);
  }

  function turnElement(turn) {
    var role = ROLES.indexOf(turn.role) >= 0 ? turn.role : 'system';
    var item = document.createElement('li');
    item.className = 'turn turn--' + role;
    var who = document.createElement('span');
    who.className = 'turn__who';
    who.textContent = t('room.role.' + role);
    var text = document.createElement('p');
    text.className = 'turn__text';
    text.textContent = turn.content;
    item.appendChild(who);
    item.appendChild(text);
    return item;
  }

  /**
   * The newest turn into view, above the answer box. The box is sticky at the bottom of the
   * window, so scrolling a turn "into view" would leave it under the box: scroll to the very end.
   */
  function scrollToEnd(instant) {
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: instant || reducedMotion ? 'auto' : 'smooth' });
  }

  localizeTimes(document);
  // Reloaded (or opened again) after the end: the way on to the panel, as on the page that ended it.
  if (['completed', 'abandoned', 'screenedout', 'overquota'].indexOf(main.dataset.status) >= 0) followRedirect(main.querySelector('section.card'));

  // pending: the consent and the interviewee's details.
  var startForm = document.getElementById('start-form');
  if (startForm) {
    var fields = startForm.elements;
    var starting = false;

    var markInvalid = function (name) {
      Array.prototype.forEach.call(startForm.querySelectorAll('[aria-invalid]'), function (el) {
        el.removeAttribute('aria-invalid');
        el.removeAttribute('aria-errormessage');
      });
      if (!name || !fields[name]) return;
      fields[name].setAttribute('aria-invalid', 'true');
      fields[name].setAttribute('aria-errormessage', 'form-error');
    };

    startForm.addEventListener('submit', function (event) {
      event.preventDefault();
      if (starting) return;
      var name = fields.name.value.trim();
      var email = fields.email.value.trim();
      var occupation = fields.occupation.value.trim();
      var consent = fields.consent.checked;
      var problem = !name
        ? ['name', t('client.enterName')]
        : !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)
          ? ['email', t('client.enterEmail')]
          : !consent
            ? ['consent', t('client.tickAgree')]
            : null;
      if (problem) {
        markInvalid(problem[0]);
        showError(problem[1]);
        fields[problem[0]].focus();
        return;
      }
      markInvalid(null);
      showError('');
      starting = true;
      startForm.setAttribute('aria-busy', 'true');
      var submit = startForm.querySelector('button[type=submit]');
      submit.disabled = true;
      // The interview is held in the language this page shows.
      var payload = { name: name, email: email, consent: true };
      if (startForm.dataset.language) payload.language = startForm.dataset.language;
      if (occupation) payload.occupation = occupation;
      var failed = function (text, field) {
        starting = false;
        startForm.setAttribute('aria-busy', 'false');
        submit.disabled = false;
        markInvalid(field);
        showError(text);
        (field && fields[field] ? fields[field] : submit).focus();
      };
      post('start', payload)
        .then(function (reply) {
          // Started (here or on another device): the server renders the conversation with the opening.
          if (reply.status === 200) return window.location.reload();
          var why = explain(reply);
          if (why.started) return window.location.reload();
          if (why.expired) return finish('expired');
          if (why.completed) return finish(why.state || 'completed');
          failed(why.text, why.field && why.field[1]);
        })
        .catch(function (error) {
          failed(error.message);
        });
    });

    // A field that was marked invalid is not any more once it is being corrected.
    startForm.addEventListener('input', function (event) {
      if (event.target.getAttribute('aria-invalid')) markInvalid(null);
    });
  }

  // started: the conversation, the answer box, Send and End interview.
  var replyForm = document.getElementById('reply-form');
  if (replyForm) {
    var answer = document.getElementById('answer');
    var typing = document.getElementById('typing');
    var turns = document.getElementById('turns');
    // Send and End interview; the voice controls keep their own state (see below).
    var buttons = replyForm.querySelectorAll('.composer__actions button');
    var busy = false;
    /** In a voice interview: says an interviewer turn (its text, its index in the conversation). */
    var speakTurn = null;
    /** In a voice interview: drops a recording under way (a typed answer was sent instead, or the interview ended). */
    var dropRecording = null;

    /**
     * While a request is out, nothing else is sent. The answer box turns read-only rather than
     * disabled: a disabled box would drop the keyboard's focus (and a screen reader's place) to the page.
     */
    var setBusy = function (value) {
      busy = value;
      answer.readOnly = value;
      Array.prototype.forEach.call(buttons, function (button) {
        button.disabled = value;
      });
      replyForm.setAttribute('aria-busy', value ? 'true' : 'false');
    };

    /** The answer box names the question it answers, so a screen reader reads both together. */
    var describeAnswer = function () {
      var questions = turns.querySelectorAll('.turn--interviewer .turn__text');
      var previous = document.getElementById('current-question');
      if (previous) previous.removeAttribute('id');
      var last = questions[questions.length - 1];
      if (last) last.id = 'current-question';
      answer.setAttribute('aria-describedby', (last ? 'current-question ' : '') + 'answer-hint');
    };

    /** "Question k of n", as the reply says it stands now. */
    var showProgress = function (progress) {
      var line = document.getElementById('progress');
      if (line && progress) line.textContent = t('room.progress', { asked: progress.asked, total: progress.total });
    };

    describeAnswer();
    scrollToEnd(true);

    // Quality signals for the answer being written: characters typed and pasted, and since when the
    // question is shown. Only the counts are sent, with the answer; no keystroke leaves the page.
    var signals = { typed: 0, pasted: 0, since: Date.now() };
    var resetSignals = function () {
      signals = { typed: 0, pasted: 0, since: Date.now() };
    };
    answer.addEventListener('beforeinput', function (event) {
      if (event.inputType === 'insertText' || event.inputType === 'insertCompositionText' || event.inputType === 'insertLineBreak') signals.typed += event.data ? event.data.length : 1;
    });
    answer.addEventListener('paste', function (event) {
      var text = event.clipboardData ? event.clipboardData.getData('text') : '';
      signals.pasted += text.length;
    });

    // Enter sends, Shift+Enter makes a new line.
    answer.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
        event.preventDefault();
        replyForm.requestSubmit();
      }
    });

    replyForm.addEventListener('submit', function (event) {
      event.preventDefault();
      if (busy) return;
      var content = answer.value;
      if (!content.trim()) {
        showError(t('client.writeAnswer'));
        answer.focus();
        return;
      }
      showError('');
      if (dropRecording) dropRecording();
      var mine = turnElement({ role: 'interviewee', content: content });
      turns.appendChild(mine);
      answer.value = '';
      // Focus stays in the answer box (Send is about to be disabled, which would drop it).
      answer.focus();
      setBusy(true);
      typing.hidden = false;
      scrollToEnd();
      var failed = function (text) {
        typing.hidden = true;
        mine.remove();
        answer.value = content;
        setBusy(false);
        showError(text);
        answer.focus();
      };
      // Within the bounds the server takes (a page left open for days must not make its answer refused).
      var sent = { content: content, typedChars: Math.min(signals.typed, 1000000), pastedChars: Math.min(signals.pasted, 1000000), durationMs: Math.min(Math.max(0, Date.now() - signals.since), 86400000) };
      post('reply', sent)
        .then(function (reply) {
          if (reply.status === 200) {
            resetSignals();
            typing.hidden = true;
            turns.appendChild(turnElement(reply.body.result.turns[1]));
            if (speakTurn) speakTurn(reply.body.result.turns[1].content, turns.children.length - 1);
            showProgress(reply.body.result.progress);
            if (reply.body.result.status === 'completed') return finish('completed', null, reply.body.result.redirectUrl);
            setBusy(false);
            describeAnswer();
            answer.focus();
            scrollToEnd();
            return;
          }
          var why = explain(reply);
          if (why.expired || why.completed) {
            mine.remove();
            return finish(why.expired ? 'expired' : why.state || 'completed', t('client.notSent'));
          }
          failed(why.text);
        })
        .catch(function (error) {
          failed(error.message);
        });
    });

    document.getElementById('end').addEventListener('click', function () {
      if (busy) return;
      if (!window.confirm(t('client.confirmEnd'))) return;
      if (dropRecording) dropRecording();
      showError('');
      answer.focus();
      setBusy(true);
      post('end')
        .then(function (reply) {
          // Ended before any answer, the interview is abandoned rather than completed.
          if (reply.status === 200) return finish(reply.body.result.status === 'abandoned' ? 'abandoned' : 'completed', null, reply.body.result.redirectUrl);
          var why = explain(reply);
          if (why.expired) return finish('expired');
          if (why.completed) return finish(why.state || 'completed');
          setBusy(false);
          showError(why.text);
          answer.focus();
        })
        .catch(function (error) {
          setBusy(false);
          showError(error.message);
          answer.focus();
        });
    });

    // Voice interviews: the answer recorded with the microphone and sent as it is (the server transcribes
    // it and answers as for a typed one), and the interviewer's turns spoken, by the service's speech
    // server or the browser's own synthesis. The answer box stays: typing is always possible.
    var voice = document.getElementById('voice');
    if (voice) {
      var record = document.getElementById('record');
      var recordLabel = record.querySelector('.record__label');
      var recordText = recordLabel.textContent;
      var recordTime = document.getElementById('record-time');
      var status = document.getElementById('voice-status');
      var resend = document.getElementById('resend');
      var replay = document.getElementById('replay');
      var mute = document.getElementById('mute');
      var maxSeconds = Number(voice.dataset.maxSeconds) || 170;
      var spokenBy = voice.dataset.spokenBy;
      /** idle, asking (for the microphone), recording, sending, transcribed, refused. */
      var state = 'idle';
      var recorder = null;
      var stream = null;
      var chunks = [];
      var discard = false;
      var ticker = null;
      var cap = null;
      var startedAt = 0;
      /** A recording the transcriber could not take: sent again by "Send the recording again". */
      var unsent = null;
      var player = null;
      var MUTED_KEY = 'irs-room-muted';
      var muted = false;
      try {
        muted = window.sessionStorage.getItem(MUTED_KEY) === '1';
      } catch {
        // storage refused (private mode): not muted
      }

      /** What the browser can record in, the most widely transcribed first; '' lets it choose. */
      var recordingType = function () {
        if (typeof window.MediaRecorder !== 'function' || typeof window.MediaRecorder.isTypeSupported !== 'function') return '';
        var types = ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4', 'audio/ogg;codecs=opus', 'audio/ogg'];
        for (var i = 0; i < types.length; i++) if (window.MediaRecorder.isTypeSupported(types[i])) return types[i];
        return '';
      };
      var canRecord = !!(navigator.mediaDevices && typeof navigator.mediaDevices.getUserMedia === 'function' && typeof window.MediaRecorder === 'function');

      /**
       * The button says what pressing it does; while the page waits for the browser or the server it is
       * aria-disabled rather than disabled, so that keyboard focus stays on it.
       */
      var setState = function (next, message) {
        state = next;
        voice.dataset.state = next;
        recordLabel.textContent = next === 'recording' ? t('client.voice.stop') : next === 'sending' ? t('client.voice.sendingButton') : recordText;
        record.setAttribute('aria-disabled', next === 'asking' || next === 'sending' ? 'true' : 'false');
        if (next !== 'recording') recordTime.textContent = '';
        if (message !== undefined) status.textContent = message;
      };

      var clock = function (seconds) {
        var s = Math.max(0, Math.floor(seconds));
        return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
      };

      var tick = function () {
        recordTime.textContent = clock((Date.now() - startedAt) / 1000) + ' / ' + clock(maxSeconds);
      };

      var releaseMicrophone = function () {
        window.clearInterval(ticker);
        window.clearTimeout(cap);
        if (stream) stream.getTracks().forEach(function (track) {
          track.stop();
        });
        stream = null;
      };

      // Spoken turns. A turn is never spoken over the interviewee's recording, nor two at once.
      var stopSpeaking = function () {
        if (player) player.pause();
        player = null;
        if (window.speechSynthesis) window.speechSynthesis.cancel();
        voice.dataset.speaking = 'false';
      };

      /** The browser's own speech, in the page's language, without waiting for its list of voices. */
      var synthesize = function (text) {
        if (!window.speechSynthesis || typeof window.SpeechSynthesisUtterance !== 'function') return;
        var utterance = new window.SpeechSynthesisUtterance(text);
        utterance.lang = language || 'en';
        utterance.addEventListener('error', function (event) {
          if (event.error === 'not-allowed') status.textContent = t('client.voice.playFailed');
        });
        window.speechSynthesis.cancel();
        window.speechSynthesis.speak(utterance);
      };

      var lastTurn = null;
      /** Says an interviewer turn unless muted (`force`: the interviewee asked for it). */
      var say = function (text, index, force) {
        lastTurn = { text: text, index: index };
        if ((muted && !force) || state === 'recording') return;
        stopSpeaking();
        if (spokenBy !== 'server') return synthesize(text);
        var audio = new window.Audio(base + '/speech/' + index);
        player = audio;
        audio.addEventListener('playing', function () {
          if (player === audio) voice.dataset.speaking = 'true';
        });
        audio.addEventListener('ended', function () {
          voice.dataset.spoken = String(index);
          if (player !== audio) return;
          player = null;
          voice.dataset.speaking = 'false';
        });
        // The speech server could not say it: the browser does.
        audio.addEventListener('error', function () {
          if (player !== audio) return;
          player = null;
          synthesize(text);
        });
        var playing = audio.play();
        if (playing && typeof playing.catch === 'function') {
          playing.catch(function (error) {
            // The browser wants a press first: the replay button is that press.
            if (error && error.name === 'NotAllowedError') status.textContent = t('client.voice.playFailed');
          });
        }
      };
      speakTurn = say;

      var refused = function () {
        setState('refused', t('client.voice.refused'));
        answer.focus();
      };

      var sendRecording = function (recording) {
        unsent = null;
        resend.hidden = true;
        showError('');
        setState('sending', t('client.voice.sending'));
        setBusy(true);
        typing.hidden = false;
        scrollToEnd();
        var failed = function (text, again) {
          typing.hidden = true;
          setBusy(false);
          if (again) {
            unsent = recording;
            resend.hidden = false;
          }
          setState('idle', text);
          (again ? resend : record).focus();
        };
        send('audio', recording.blob, recording.type)
          .then(function (reply) {
            if (reply.status === 200) {
              var result = reply.body.result;
              typing.hidden = true;
              setBusy(false);
              // What was heard, before the next question: the interviewee sees what was understood.
              turns.appendChild(turnElement(result.turns[0]));
              turns.appendChild(turnElement(result.turns[1]));
              showProgress(result.progress);
              setState('transcribed', t('client.voice.transcribed'));
              say(result.turns[1].content, turns.children.length - 1);
              if (result.status === 'completed') return finish('completed', null, result.redirectUrl);
              describeAnswer();
              record.focus();
              scrollToEnd();
              return;
            }
            var why = explain(reply);
            if (why.expired || why.completed) {
              typing.hidden = true;
              return finish(why.expired ? 'expired' : why.state || 'completed', t('client.notSent'));
            }
            var message = (reply.body && reply.body.message) || '';
            if (reply.status === 503) return failed(t('client.voice.failed'), true);
            if (reply.status === 400 && /no speech/.test(message)) return failed(t('client.voice.noSpeech'));
            if (reply.status === 413) return failed(t('client.voice.tooLong'));
            // Refused for now (too fast, or an answer still being handled): the same recording can go again.
            failed(why.text, reply.status === 429 || /being handled/.test(message));
          })
          .catch(function () {
            failed(t('client.voice.failed'), true);
          });
      };

      var stopRecording = function () {
        if (state !== 'recording' || !recorder) return;
        recorder.stop();
      };

      dropRecording = function () {
        if (state !== 'recording' && state !== 'asking') return;
        discard = true;
        if (recorder && recorder.state !== 'inactive') recorder.stop();
        releaseMicrophone();
        setState('idle', '');
      };

      var startRecording = function () {
        stopSpeaking();
        showError('');
        discard = false;
        setState('asking', t('client.voice.asking'));
        navigator.mediaDevices.getUserMedia({ audio: true }).then(
          function (media) {
            if (state !== 'asking') {
              media.getTracks().forEach(function (track) {
                track.stop();
              });
              return;
            }
            stream = media;
            var type = recordingType();
            try {
              recorder = type ? new window.MediaRecorder(media, { mimeType: type, audioBitsPerSecond: 64000 }) : new window.MediaRecorder(media);
            } catch {
              recorder = new window.MediaRecorder(media);
            }
            chunks = [];
            var current = recorder;
            current.addEventListener('dataavailable', function (event) {
              if (event.data && event.data.size > 0) chunks.push(event.data);
            });
            current.addEventListener('stop', function () {
              releaseMicrophone();
              if (discard) return;
              var blobType = current.mimeType || type || 'audio/webm';
              var blob = new Blob(chunks, { type: blobType });
              if (!blob.size) return setState('idle', t('client.voice.noSpeech'));
              sendRecording({ blob: blob, type: blobType });
            });
            current.start();
            startedAt = Date.now();
            setState('recording', t('client.voice.recording'));
            tick();
            ticker = window.setInterval(tick, 500);
            // The recording cap: sent as it is when the time is up.
            cap = window.setTimeout(stopRecording, maxSeconds * 1000);
          },
          function (error) {
            var name = error && error.name;
            if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return refused();
            setState('idle', t(name === 'NotFoundError' || name === 'OverconstrainedError' ? 'client.voice.noMicrophone' : 'client.voice.unsupported'));
            answer.focus();
          },
        );
      };

      if (!canRecord) {
        record.hidden = true;
        setState('idle', t('client.voice.unsupported'));
      } else if (navigator.permissions && typeof navigator.permissions.query === 'function') {
        // A microphone already refused for this site: say so at once, rather than after a press.
        navigator.permissions.query({ name: 'microphone' }).then(
          function (permission) {
            if (permission.state === 'denied' && state === 'idle') setState('refused', t('client.voice.refused'));
          },
          function () {
            // this browser cannot tell: the press will
          },
        );
      }

      record.addEventListener('click', function () {
        if (state === 'recording') return stopRecording();
        if (state === 'asking' || state === 'sending' || busy) return;
        startRecording();
      });

      resend.addEventListener('click', function () {
        if (unsent && !busy && state !== 'recording') sendRecording(unsent);
      });

      replay.addEventListener('click', function () {
        if (lastTurn) say(lastTurn.text, lastTurn.index, true);
      });

      mute.setAttribute('aria-pressed', muted ? 'true' : 'false');
      mute.addEventListener('click', function () {
        muted = !muted;
        mute.setAttribute('aria-pressed', muted ? 'true' : 'false');
        if (muted) stopSpeaking();
        try {
          window.sessionStorage.setItem(MUTED_KEY, muted ? '1' : '0');
        } catch {
          // not kept across reloads, then
        }
      });

      // The question on the screen is said as the page opens (after the start, or a reload).
      var items = turns.children;
      for (var i = items.length - 1; i >= 0; i--) {
        if (!items[i].classList.contains('turn--interviewer')) continue;
        var text = items[i].querySelector('.turn__text');
        say(text ? text.textContent : '', i);
        break;
      }
    }
  }
})();
