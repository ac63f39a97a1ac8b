// The service worker (offline page, cached assets, push notifications), registered where the
// browser has it; a meetup form's sport fields; and when a member signs out, whatever it cached, runs kept on this phone and
// this browser's push subscription go with them. Nothing here is needed for the site to work.
(function () {
  "use strict";
  // Links to the run recorder, where the browser can give a location.
  if ("geolocation" in navigator) {
    document.querySelectorAll("[data-needs-geolocation]").forEach(function (element) { element.hidden = false; });
  }
  // A meetup's form shows the chosen sport's details only (without the script, each sport's
  // under its own heading).
  document.querySelectorAll("[data-sport-select]").forEach(function (select) {
    function show() {
      select.form.querySelectorAll("[data-sport-fields]").forEach(function (part) {
        part.hidden = part.getAttribute("data-sport-fields").split(" ").indexOf(select.value) < 0;
      });
    }
    select.addEventListener("change", show);
    show();
  });
  // A run finished offline and not sent yet goes now (outbox.js), on whatever page this is.
  if (localStorage.getItem("moim-outbox") && !document.getElementById("recorder")) {
    var outbox = document.createElement("script");
    outbox.src = "/js/outbox.js";
    outbox.onload = function () { window.MoimOutbox.flush(); };
    document.head.appendChild(outbox);
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.getAttribute("action") !== "/logout") return;
    // A run on this phone is the member's: it goes with them, never to whoever signs in next.
    if (window.indexedDB) indexedDB.deleteDatabase("moim-recorder");
    localStorage.removeItem("moim-outbox");
    var worker = "serviceWorker" in navigator && navigator.serviceWorker.controller;
    if (worker) worker.postMessage("signed-out");
  }, true);
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
})();
