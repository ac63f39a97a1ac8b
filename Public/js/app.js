// The service worker (offline page, cached assets, push notifications), registered where the
// browser has it; and when a member signs out, whatever it cached and this browser's push
// subscription go with them. Nothing here is needed for the site to work.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.getAttribute("action") !== "/logout") return;
    var worker = navigator.serviceWorker.controller;
    if (worker) worker.postMessage("signed-out");
  }, true);
})();
