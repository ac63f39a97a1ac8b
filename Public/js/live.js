// Live updates on pages that work without them: new, edited and deleted messages in a room, a
// meetup's talk or a crew's guestbook, the notification bell, the messages waiting, a meetup's
// places. A room's message arrives as the room page shows it, rendered on the server (inert
// until placed, and given this page's form token); everything else arrives as text and goes
// into the page as text. Without this script, or if the stream fails, the page stays as it is.
//
// One stream per tab, and only while the page is shown: it is closed when the page is left
// (`pagehide`) and opened again if the browser brings the page back from its back/forward
// cache (`pageshow`), from the last message it had. A browser allows six connections per
// host over HTTP/1.1, and a stream left open in every cached page would use them up.
(function () {
  'use strict';
  if (!window.EventSource || !window.fetch || !window.URLSearchParams) return;
  var holder = document.querySelector('main [data-live-events]') || document.body;
  var url = holder.getAttribute('data-live-events');
  if (!url) return;
  var thread = holder.querySelector('[data-live="thread"]');
  var newestFirst = thread && thread.getAttribute('data-live-order') === 'newest-first';
  var inRoom = holder.classList.contains('talk-room');
  var shown = {};
  var lastID = null;
  var source = null;

  function data(event) {
    try {
      var value = JSON.parse(event.data);
      return value && typeof value === 'object' ? value : null;
    } catch (error) {
      return null;
    }
  }
  function text(value) { return typeof value === 'string' ? value : ''; }
  function count(value) { return typeof value === 'number' && value > 0 ? Math.floor(value) : 0; }
  function element(name, className, content) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (content) node.textContent = content;
    return node;
  }
  function remember(event) {
    if (/^[0-9]{1,19}$/.test(event.lastEventId || '')) lastID = event.lastEventId;
  }

  // A room's message as its `<li>`, with the page's token in its forms.
  function rendered(message) {
    if (typeof message.html !== 'string' || typeof message.id !== 'number') return null;
    var box = document.createElement('template');
    box.innerHTML = message.html;
    var item = box.content.firstElementChild;
    if (!item || item.id !== 'message-' + message.id) return null;
    var token = document.querySelector('input[name="_csrf"]');
    Array.prototype.forEach.call(item.querySelectorAll('input[name="_csrf"]'), function (input) {
      input.value = token ? token.value : '';
    });
    return item;
  }

  function place(item) {
    // Someone reading at the bottom follows the thread; anyone else stays where they are.
    var atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 48;
    if (newestFirst) thread.insertBefore(item, thread.firstChild); else thread.appendChild(item);
    if (atBottom && !newestFirst) item.scrollIntoView({ block: 'nearest' });
  }

  function onMessage(event) {
    remember(event);
    var message = data(event);
    if (!message || !thread || shown[message.id] || document.getElementById('message-' + message.id)) return;
    shown[message.id] = true;
    var empty = holder.querySelector('.thread-card .empty');
    if (empty) empty.parentNode.removeChild(empty);
    if (inRoom) {
      var item = rendered(message);
      if (item) place(item);
      return;
    }
    var author = element('a', 'author', text(message.author));
    var path = text(message.url);
    author.href = /^\/[^\/\\]/.test(path) ? path : '#';  // a path of this site, nothing else
    var time = element('time', 'muted small', text(message.when));
    time.dateTime = text(message.iso);
    time.title = text(message.exact);
    var head = element('div', inRoom ? 'message-head' : 'comment-head');
    head.appendChild(author);
    head.appendChild(document.createTextNode(' '));
    head.appendChild(time);
    var body = element('div', 'prose');
    body.appendChild(element('p', 'live-text', text(message.text)));
    var item = element('li', inRoom ? 'message' : 'comment');
    if (typeof message.id === 'number') item.id = 'message-' + message.id;
    item.appendChild(head);
    item.appendChild(body);
    place(item);
  }

  // A message the page shows, edited or deleted: replaced by what it is now.
  function onEdit(event) {
    remember(event);
    var message = data(event), item = message && rendered(message);
    var old = item && document.getElementById(item.id);
    if (old) old.parentNode.replaceChild(item, old);
  }

  // A count beside a link ("3", "99+"), gone at zero.
  function badge(link, number, className, live) {
    if (!link) return;
    var bubble = link.querySelector('.' + className);
    if (number > 0) {
      if (!bubble) {
        bubble = link.appendChild(element('span', className));
        if (live) bubble.setAttribute('data-live', live);
      }
      bubble.textContent = number > 99 ? '99+' : String(number);
    } else if (bubble) {
      bubble.parentNode.removeChild(bubble);
    }
  }

  function onBell(event) {
    remember(event);
    var bell = data(event), link = document.querySelector('a.bell:not(.talk-link)');
    if (!bell || !link) return;
    if (text(bell.label)) link.setAttribute('aria-label', text(bell.label));
    badge(link, count(bell.count), 'bubble');
  }

  function onTalk(event) {
    remember(event);
    var waiting = data(event);
    if (!waiting) return;
    var link = document.querySelector('a.talk-link'), number = count(waiting.count);
    badge(link, number, 'bubble', 'talk-unread');
    // The link's name says the count too, as the page wrote it.
    if (link && link.getAttribute('data-label')) {
      link.setAttribute('aria-label', link.getAttribute('data-label') + (number > 0 ? ' (' + (number > 99 ? '99+' : number) + ')' : ''));
    }
  }

  function onMeetup(event) {
    remember(event);
    var state = data(event);
    if (!state) return;
    var going = document.querySelector('[data-live="going"]');
    if (going && text(state.going)) going.textContent = text(state.going);
    var version = holder.getAttribute('data-live-version');
    var notice = holder.querySelector('[data-live="changed"]');
    if (notice && version && text(state.version) && state.version !== version) notice.hidden = false;
  }

  function open() {
    if (source) return;
    // Back from the cache: from the last message this page had, not from the newest.
    var address = lastID ? url + (url.indexOf('?') >= 0 ? '&' : '?') + 'after=' + lastID : url;
    source = new EventSource(address);
    source.addEventListener('message', onMessage);
    source.addEventListener('edit', onEdit);
    source.addEventListener('bell', onBell);
    source.addEventListener('talk', onTalk);
    source.addEventListener('meetup', onMeetup);
  }
  function close() {
    if (!source) return;
    source.close();
    source = null;
  }
  window.addEventListener('pagehide', close);
  window.addEventListener('pageshow', function (event) { if (event.persisted) open(); });
  open();

  // The talk form posts without leaving the page; the message comes back through the stream.
  // Any answer but a success (an error page, a lost connection) sends the form the usual way.
  var form = holder.querySelector('form[data-live="talk-form"]') || document.querySelector('form[data-live="talk-form"]');
  if (form) {
    form.addEventListener('submit', function (event) {
      if (!source || source.readyState !== EventSource.OPEN) return;
      event.preventDefault();
      var button = form.querySelector('button[type="submit"]');
      var area = form.querySelector('textarea');
      if (button) button.disabled = true;
      // A form that sends photos goes as multipart, as it would without the script.
      var body = form.enctype === 'multipart/form-data' ? new FormData(form) : new URLSearchParams(new FormData(form));
      fetch(form.action, { method: 'POST', body: body, credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok || !response.redirected) throw new Error('not posted');
          if (area) { area.value = ''; area.focus(); }
          var files = form.querySelector('input[type="file"]');
          if (files) files.value = '';
          if (button) button.disabled = false;
          var reply = form.querySelector('input[name="reply_to"]');
          if (reply) reply.parentNode.removeChild(reply);
          var replying = form.querySelector('.replying');
          if (replying) replying.parentNode.removeChild(replying);
        })
        .catch(function () { form.submit(); });
    });
  }
})();
