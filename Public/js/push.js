// Settings → Notifications on this device: the browser's own prompt comes only from the
// member's click; the subscription it gives is posted to Moim like any form.
(function () {
  "use strict";
  var form = document.getElementById("push-on");
  if (!form || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  var unsupported = document.querySelector("[data-push-unsupported]");
  var error = form.querySelector("[data-push-error]");
  form.hidden = false;
  if (unsupported) unsupported.hidden = true;

  function key(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function fail(message) {
    form.querySelector("button").disabled = false;
    error.textContent = message;
    error.hidden = false;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    form.querySelector("button").disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error(permission === "denied" ? "Notifications are blocked for this site in the browser's settings." : "Notifications were not allowed.");
      return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () { return navigator.serviceWorker.ready; });
    }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (existing) {
        return existing || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(form.dataset.key) });
      });
    }).then(function (subscription) {
      var json = subscription.toJSON();
      var body = new URLSearchParams();
      body.set("_csrf", form.querySelector("input[name=_csrf]").value);
      body.set("endpoint", json.endpoint);
      body.set("p256dh", json.keys.p256dh);
      body.set("auth", json.keys.auth);
      return fetch(form.action, { method: "POST", body: body, credentials: "same-origin" });
    }).then(function (response) {
      if (response.ok) { window.location.reload(); return; }
      return response.text().then(function (page) {
        var found = /<h1>[^<]*<\/h1>\s*<p>([^<]*)</.exec(page);
        fail(found ? found[1] : "Notifications could not be turned on (" + response.status + ").");
      });
    }).catch(function (problem) { fail(problem.message || String(problem)); });
  });
})();
