// Moim's service worker. Static files are kept by the release's revision (a new release is a
// new worker, which takes over on the next load and drops the old files); pages are never
// kept: a navigation goes to the network, and offline gets the offline page, never a page
// that was shown to a member. Push messages show as notifications; a tap opens their page.
const REVISION = "__REVISION__";
const CACHE = "moim-" + REVISION;
const FILES = ["/offline.html", "/css/moim.css", "/js/app.js", "/js/suggest.js", "/js/live.js", "/js/outbox.js", "/js/recorder.js", "/icons/moim.svg", "/icons/icon-192.png"];
importScripts("/js/outbox.js");

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match("/offline.html")));
    return;
  }
  const url = new URL(request.url);
  if (url.origin === location.origin && FILES.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  }
});

// Runs finished offline (outbox.js), sent once the network is back: Background Sync.
self.addEventListener("sync", (event) => {
  if (event.tag === "moim-runs") event.waitUntil(self.MoimOutbox.flush());
});

self.addEventListener("push", (event) => {
  let message = { title: "Moim", body: "", url: "/" };
  try { message = Object.assign(message, event.data ? event.data.json() : {}); } catch (_) {}
  event.waitUntil(self.registration.showNotification(message.title, {
    body: message.body, tag: message.tag, renotify: Boolean(message.tag), icon: "/icons/icon-192.png", badge: "/icons/icon-192.png",
    data: { url: message.url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", location.origin);
  if (target.origin !== location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    for (const client of windows) {
      if (client.url === target.href && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target.href);
  }));
});

// Signing out: what was kept goes, but the offline page (offline, a visitor still gets Moim's
// page rather than the browser's error), and so does this browser's push subscription.
self.addEventListener("message", (event) => {
  if (event.data !== "signed-out") return;
  event.waitUntil(Promise.all([
    caches.keys().then((names) => Promise.all(names.map((name) => name !== CACHE ? caches.delete(name)
      : caches.open(name).then((cache) => cache.keys().then((requests) => Promise.all(requests
        .filter((request) => new URL(request.url).pathname !== "/offline.html").map((request) => cache.delete(request)))))))),
    self.registration.pushManager.getSubscription().then((subscription) => subscription && subscription.unsubscribe()),
  ]));
});
