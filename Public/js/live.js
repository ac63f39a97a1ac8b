// Live updates on pages that work without them: new messages in a meetup's talk or a crew's
// guestbook, the notification bell, a meetup's places. Everything arrives as text and goes
// into the page as text. Without this script, or if the stream fails, the page stays as it is.
(function () {
  'use strict';
  if (!window.EventSource || !window.fetch || !window.URLSearchParams) return;
  var holder = document.querySelector('main [data-live-events]') || document.body;
  var url = holder.getAttribute('data-live-events');
  if (!url) return;
  var thread = holder.querySelector('[data-live="thread"]');
  var newestFirst = thread && thread.getAttribute('data-live-order') === 'newest-first';
  var shown = {};

  function data(event) {
    try {
      var value = JSON.parse(event.data);
      return value && typeof value === 'object' ? value : null;
    } catch (error) {
      return null;
    }
  }
  function text(value) { return typeof value === 'string' ? value : ''; }
  function element(name, className, content) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (content) node.textContent = content;
    return node;
  }

  var source = new EventSource(url);

  source.addEventListener('message', function (event) {
    var message = data(event);
    if (!message || !thread || shown[message.id]) return;
    shown[message.id] = true;
    var author = element('a', 'author', text(message.author));
    var path = text(message.url);
    author.href = /^\/[^\/\\]/.test(path) ? path : '#';  // a path of this site, nothing else
    var time = element('time', 'muted small', text(message.when));
    time.dateTime = text(message.iso);
    time.title = text(message.exact);
    var head = element('div', 'comment-head');
    head.appendChild(author);
    head.appendChild(document.createTextNode(' '));
    head.appendChild(time);
    var body = element('div', 'prose');
    body.appendChild(element('p', 'live-text', text(message.text)));
    var item = element('li', 'comment');
    item.appendChild(head);
    item.appendChild(body);
    // Someone reading at the bottom follows the thread; anyone else stays where they are.
    var atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 48;
    if (newestFirst) thread.insertBefore(item, thread.firstChild); else thread.appendChild(item);
    if (atBottom && !newestFirst) item.scrollIntoView({ block: 'nearest' });
  });

  source.addEventListener('bell', function (event) {
    var bell = data(event), link = document.querySelector('a.bell');
    if (!bell || !link) return;
    var count = typeof bell.count === 'number' && bell.count > 0 ? Math.floor(bell.count) : 0;
    if (text(bell.label)) link.setAttribute('aria-label', text(bell.label));
    var bubble = link.querySelector('.bubble');
    if (count > 0) {
      if (!bubble) bubble = link.appendChild(element('span', 'bubble'));
      bubble.textContent = count > 99 ? '99+' : String(count);
    } else if (bubble) {
      link.removeChild(bubble);
    }
  });

  source.addEventListener('meetup', function (event) {
    var state = data(event);
    if (!state) return;
    var going = document.querySelector('[data-live="going"]');
    if (going && text(state.going)) going.textContent = text(state.going);
    var version = holder.getAttribute('data-live-version');
    var notice = holder.querySelector('[data-live="changed"]');
    if (notice && version && text(state.version) && state.version !== version) notice.hidden = false;
  });

  // The talk form posts without leaving the page; the message comes back through the stream.
  // Any answer but a success (an error page, a lost connection) sends the form the usual way.
  var form = holder.querySelector('form[data-live="talk-form"]');
  if (form) {
    form.addEventListener('submit', function (event) {
      if (source.readyState !== EventSource.OPEN) return;
      event.preventDefault();
      var button = form.querySelector('button[type="submit"]');
      var area = form.querySelector('textarea');
      if (button) button.disabled = true;
      fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)), credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok || !response.redirected) throw new Error('not posted');
          if (area) { area.value = ''; area.focus(); }
          if (button) button.disabled = false;
        })
        .catch(function () { form.submit(); });
    });
  }
})();
