// The interview room's script: the page is rendered by the server in the invite's state; this script
// sends the start form, the answers and "End interview" to the room's JSON API and shows what comes
// back. Transcript text only ever goes into textContent, never into HTML.
(function () {
  'use strict';

  var main = document.querySelector('main.room');
  if (!main || !main.dataset.status) return;
  var base = window.location.pathname.replace(/\/+$/, '');
  var ROLE_LABELS = { interviewer: 'Interviewer', interviewee: 'You', system: 'Note' };
  var reducedMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  /** POST JSON to the room's API; resolves {status, body} or rejects with a plain-words Error. */
  function post(action, payload) {
    return fetch(base + '/' + action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(payload || {}),
      credentials: 'same-origin',
    }).then(
      function (res) {
        return res
          .json()
          .catch(function () {
            return {};
          })
          .then(function (body) {
            return { status: res.status, body: body, retryAfter: res.headers.get('Retry-After') };
          });
      },
      function () {
        throw new Error('We could not reach the server. Check your connection and try again.');
      },
    );
  }

  /** What to tell a person about an error answer, in plain words (the API's messages are for developers). */
  function explain(reply) {
    var message = (reply.body && reply.body.message) || '';
    if (reply.status === 409) {
      if (/expired/.test(message)) return { expired: true, text: 'This link has expired, so your last answer was not sent.' };
      if (/is completed/.test(message)) return { completed: true, text: 'This interview is already complete.' };
      if (/is revoked/.test(message)) return { completed: true, state: 'revoked', text: 'This link is no longer active, so your last answer was not sent.' };
      if (/is abandoned/.test(message)) return { completed: true, state: 'abandoned', text: 'This interview has ended.' };
      if (/is started/.test(message)) return { started: true, text: 'This interview has already started.' };
      if (/being handled/.test(message)) return { text: 'Your previous answer is still being handled. Please send this one again in a moment.' };
      if (/transcript is full/.test(message)) return { text: 'This interview has reached its length limit, so no more answers can be added. Please press End interview.' };
    }
    if (reply.status === 429) return { text: 'You are sending answers too quickly. Please wait ' + (reply.retryAfter || 'a few') + ' seconds and try again.' };
    if (reply.status === 404) return { text: 'This link does not lead to an interview any more.' };
    if (reply.status === 413) return { text: 'That answer is too long to send. Please shorten it.' };
    if (reply.status === 400) return { field: /^(name|email|occupation|consent|content)\b/.exec(message), text: message ? capitalize(message) + '.' : 'Please check what you entered.' };
    return { text: 'Something went wrong on our side. Please try again in a moment.' };
  }

  function capitalize(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
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
        el.textContent = date.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });
      } catch {
        // an old browser without dateStyle keeps the server's UTC text
      }
    });
  }

  /**
   * Swaps the page's form for the completed or expired panel (a template in the page); the
   * conversation stays in view. `note` says what happened to an answer that was not sent.
   */
  function finish(state, note) {
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
  }

  function turnElement(turn) {
    var role = ROLE_LABELS[turn.role] ? turn.role : 'system';
    var item = document.createElement('li');
    item.className = 'turn turn--' + role;
    var who = document.createElement('span');
    who.className = 'turn__who';
    who.textContent = ROLE_LABELS[role];
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
        ? ['name', 'Please enter your name.']
        : !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)
          ? ['email', 'Please enter your email address, like name@example.com.']
          : !consent
            ? ['consent', 'Please tick "I agree" to start the interview.']
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
      var payload = { name: name, email: email, consent: true };
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
    var buttons = replyForm.querySelectorAll('button');
    var busy = false;

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

    describeAnswer();
    scrollToEnd(true);

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
        showError('Please write an answer first.');
        answer.focus();
        return;
      }
      showError('');
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
      post('reply', { content: content })
        .then(function (reply) {
          if (reply.status === 200) {
            typing.hidden = true;
            turns.appendChild(turnElement(reply.body.result.turns[1]));
            if (reply.body.result.status === 'completed') return finish('completed');
            setBusy(false);
            describeAnswer();
            answer.focus();
            scrollToEnd();
            return;
          }
          var why = explain(reply);
          if (why.expired || why.completed) {
            mine.remove();
            return finish(why.expired ? 'expired' : why.state || 'completed', 'Your last answer was not sent.');
          }
          failed(why.text);
        })
        .catch(function (error) {
          failed(error.message);
        });
    });

    document.getElementById('end').addEventListener('click', function () {
      if (busy) return;
      if (!window.confirm('End the interview now? Your answers so far will be kept.')) return;
      showError('');
      answer.focus();
      setBusy(true);
      post('end')
        .then(function (reply) {
          // Ended before any answer, the interview is abandoned rather than completed.
          if (reply.status === 200) return finish(reply.body.result.status === 'abandoned' ? 'abandoned' : 'completed');
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
  }
})();
