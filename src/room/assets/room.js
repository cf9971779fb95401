// The interview room's script: the page is rendered by the server in the invite's state; this script
// sends the start form, the answers and "End interview" to the room's JSON API and shows what comes
// back. Transcript text only ever goes into textContent, never into HTML.
(function () {
  'use strict';

  var main = document.querySelector('main.room');
  if (!main || !main.dataset.status) return;
  var base = window.location.pathname.replace(/\/+$/, '');
  var ROLE_LABELS = { interviewer: 'Interviewer', interviewee: 'You', system: 'Note' };

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

  /** What to tell a person about an error answer, in plain words. */
  function explain(reply) {
    var message = (reply.body && reply.body.message) || '';
    if (reply.status === 409 && /expired/.test(message)) return { expired: true, text: 'This link has expired, so your answer was not sent.' };
    if (reply.status === 409 && /completed/.test(message)) return { completed: true, text: 'This interview is already complete.' };
    if (reply.status === 429) return { text: 'You are sending answers too quickly. Please wait ' + (reply.retryAfter || 'a few') + ' seconds and try again.' };
    if (reply.status === 404) return { text: 'This link does not lead to an interview any more.' };
    if (reply.status === 400 || reply.status === 413) return { text: message ? capitalize(message) + '.' : 'Please check what you entered.' };
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

  /** Swaps the page's content for the completed or expired panel (a template in the page). */
  function finish(state) {
    var template = document.getElementById(state + '-template');
    var content = template ? template.content.cloneNode(true) : null;
    Array.prototype.forEach.call(main.querySelectorAll('section.conversation, form, section.card'), function (node) {
      if (state === 'completed' && node.classList.contains('conversation')) return; // keep the conversation in view
      node.remove();
    });
    if (content) main.appendChild(content);
    main.dataset.status = state;
    var panel = main.querySelector('section.card');
    if (panel) {
      panel.setAttribute('tabindex', '-1');
      panel.focus();
    }
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

  function scrollToEnd() {
    var turns = document.getElementById('turns');
    if (turns && turns.lastElementChild) turns.lastElementChild.scrollIntoView({ block: 'end', behavior: 'smooth' });
  }

  function setBusy(form, busy) {
    Array.prototype.forEach.call(form.querySelectorAll('button, input, textarea'), function (el) {
      el.disabled = busy;
    });
    form.setAttribute('aria-busy', busy ? 'true' : 'false');
  }

  // pending: the consent and the interviewee's details.
  var startForm = document.getElementById('start-form');
  if (startForm) {
    startForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var name = startForm.elements.name.value.trim();
      var email = startForm.elements.email.value.trim();
      var occupation = startForm.elements.occupation.value.trim();
      var consent = startForm.elements.consent.checked;
      var problem = !name
        ? ['name', 'Please enter your name.']
        : !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)
          ? ['email', 'Please enter your email address, like name@example.com.']
          : !consent
            ? ['consent', 'Please tick "I agree" to start the interview.']
            : null;
      if (problem) {
        showError(problem[1]);
        startForm.elements[problem[0]].setAttribute('aria-invalid', 'true');
        startForm.elements[problem[0]].focus();
        return;
      }
      showError('');
      setBusy(startForm, true);
      var payload = { name: name, email: email, consent: true };
      if (occupation) payload.occupation = occupation;
      post('start', payload)
        .then(function (reply) {
          if (reply.status === 200) {
            // The server renders the conversation with the interviewer's opening.
            window.location.reload();
            return;
          }
          var why = explain(reply);
          if (why.expired) return finish('expired');
          setBusy(startForm, false);
          showError(why.text);
        })
        .catch(function (error) {
          setBusy(startForm, false);
          showError(error.message);
        });
    });
  }

  // started: the conversation, the answer box, Send and End interview.
  var replyForm = document.getElementById('reply-form');
  if (replyForm) {
    var answer = document.getElementById('answer');
    var typing = document.getElementById('typing');
    var turns = document.getElementById('turns');
    scrollToEnd();

    // Enter sends, Shift+Enter makes a new line.
    answer.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        replyForm.requestSubmit();
      }
    });

    replyForm.addEventListener('submit', function (event) {
      event.preventDefault();
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
      setBusy(replyForm, true);
      typing.hidden = false;
      scrollToEnd();
      post('reply', { content: content })
        .then(function (reply) {
          typing.hidden = true;
          if (reply.status === 200) {
            turns.appendChild(turnElement(reply.body.result.turns[1]));
            scrollToEnd();
            if (reply.body.result.status === 'completed') return finish('completed');
            setBusy(replyForm, false);
            answer.focus();
            return;
          }
          mine.remove();
          var why = explain(reply);
          if (why.expired) return finish('expired');
          if (why.completed) return finish('completed');
          answer.value = content;
          setBusy(replyForm, false);
          showError(why.text);
          answer.focus();
        })
        .catch(function (error) {
          typing.hidden = true;
          mine.remove();
          answer.value = content;
          setBusy(replyForm, false);
          showError(error.message);
          answer.focus();
        });
    });

    document.getElementById('end').addEventListener('click', function () {
      if (!window.confirm('End the interview now? Your answers so far will be kept.')) return;
      setBusy(replyForm, true);
      post('end')
        .then(function (reply) {
          if (reply.status === 200) return finish('completed');
          var why = explain(reply);
          if (why.expired) return finish('expired');
          if (why.completed) return finish('completed');
          setBusy(replyForm, false);
          showError(why.text);
        })
        .catch(function (error) {
          setBusy(replyForm, false);
          showError(error.message);
        });
    });
  }
})();
