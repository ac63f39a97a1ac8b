// The recorder's store (IndexedDB) and the runs finished on this phone, as GPX, waiting here
// until the server has them: the page, the next visit (app.js) or the service worker's
// Background Sync sends them. Each carries its run's key, so a run sent twice is one record.
(function (scope) {
  "use strict";
  var DB = "moim-recorder";

  var opened = null;

  // One connection, kept: transactions then run in the order they were asked for.
  function open() {
    return opened = opened || new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        var db = request.result;
        db.createObjectStore("runs", { keyPath: "key" });
        db.createObjectStore("points", { autoIncrement: true });
        db.createObjectStore("outbox", { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  // Runs `work(stores…)` in one transaction over `names`; resolves with its result when committed.
  function transaction(names, mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(names, mode), result;
        Promise.resolve(work.apply(null, names.map(function (name) { return tx.objectStore(name); })))
          .then(function (value) { result = value; }, reject);
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function all(store) {
    return new Promise(function (resolve) {
      var request = store.getAll();
      request.onsuccess = function () { resolve(request.result); };
    });
  }

  // Sends one queued run: "saved" (with the record's address), "refused" (with the form's
  // first error), "signed-out", or "offline" to try again later.
  function send(entry) {
    var form = new FormData();
    entry.fields.forEach(function (field) { form.append(field[0], field[1]); });
    form.append("_csrf", entry.csrf);
    form.append("run", entry.key);
    form.append("gpx", new Blob([entry.gpx], { type: "application/gpx+xml" }), "run.gpx");
    return fetch("/records", { method: "POST", body: form, credentials: "same-origin" }).then(function (response) {
      if (response.ok && /\/records\/\d+$/.test(new URL(response.url).pathname)) return { status: "saved", url: response.url };
      if (response.status === 403 || /\/login/.test(response.url)) return { status: "signed-out" };
      if (response.status >= 500) return { status: "offline" };
      return response.text().then(function (html) {
        var match = /class="field-error"[^>]*>([^<]*)</.exec(html);
        return { status: "refused", reason: match ? match[1] : String(response.status) };
      });
    }, function () { return { status: "offline" }; });
  }

  function remove(key) {
    return transaction(["outbox"], "readwrite", function (outbox) { outbox.delete(key); });
  }

  // A recorded run as GPX 1.1: a `trkseg` for each part between pauses, times to the millisecond.
  function gpx(points) {
    var rows = [], segment = null;
    points.forEach(function (p) {
      if (p.seg !== segment) { if (segment !== null) rows.push("</trkseg><trkseg>"); segment = p.seg; }
      rows.push('<trkpt lat="' + p.lat.toFixed(7) + '" lon="' + p.lon.toFixed(7) + '">'
        + (p.ele !== null && isFinite(p.ele) ? "<ele>" + p.ele.toFixed(1) + "</ele>" : "") + "<time>" + new Date(p.t).toISOString() + "</time></trkpt>");
    });
    return '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Moim" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>'
      + rows.join("\n") + "</trkseg></trk></gpx>\n";
  }

  scope.MoimOutbox = {
    gpx: gpx,
    open: open,
    transaction: transaction,
    all: all,
    put: function (entry) {
      return transaction(["outbox"], "readwrite", function (outbox) { outbox.put(entry); });
    },
    remove: remove,
    // Sends every queued run not refused before, one at a time; resolves with each one's
    // result. A refused run stays, marked, for the recorder to show.
    flush: function () {
      return transaction(["outbox"], "readonly", all).then(function (entries) {
        return entries.filter(function (entry) { return !entry.refused; }).reduce(function (done, entry) {
          return done.then(function (results) {
            return send(entry).then(function (result) {
              result.key = entry.key;
              var after = result.status === "saved" ? remove(entry.key)
                : result.status === "refused" ? scope.MoimOutbox.put(Object.assign(entry, { refused: result.reason })) : Promise.resolve();
              return after.then(function () { return results.concat([result]); });
            });
          });
        }, Promise.resolve([]));
      }).then(function (results) {
        return transaction(["outbox"], "readonly", all).then(function (left) {
          var waiting = left.some(function (entry) { return !entry.refused; });
          if (scope.localStorage) {
            if (waiting) scope.localStorage.setItem("moim-outbox", "1"); else scope.localStorage.removeItem("moim-outbox");
          }
          return results;
        });
      });
    },
  };
})(self);
