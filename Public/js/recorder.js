// Records a run: positions kept in IndexedDB as they come, figures and route drawn live
// (estimates: the server computes the record), sent as GPX through the record form.
(() => {
  "use strict";
  let box = document.getElementById("recorder");
  let form = document.querySelector("[data-role=record-form]");
  if (!box || !form || !window.indexedDB || !window.MoimOutbox) return;
  let Outbox = window.MoimOutbox, t = box.dataset, unit = Number(t.unitMeters) || 1000;
  const ACCURACY = 30, SPEED = 12, STILL_MS = 10000, STILL_METERS = 5;
  let run = null, points = [], watch = null, lock = null, tick = null, still = null, jumps = 0;

  function $(role) { return box.querySelector("[data-role=" + role + "]"); }
  function text(key, values) {
    return (t[key] || "").replace(/\{(\w+)\}/g, (_, name) => values && name in values ? values[name] : "");
  }
  function status(words) { $("status").textContent = words; }
  function note(words) { $("note").textContent = words; $("note").hidden = !words; }
  function show(names) {
    box.querySelectorAll("[data-role=controls] button").forEach(b => { b.hidden = !names.includes(b.dataset.action); });
  }

  function clock(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    let h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(s).padStart(2, "0");
  }

  // Metres between two points on the sphere: an estimate.
  function meters(a, b) {
    let r = Math.PI / 180, dLat = (b.lat - a.lat) * r, dLon = (b.lon - a.lon) * r;
    let h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(dLon / 2) ** 2;
    return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  // Distance and moving seconds by segment; `marks`: the moving time at each whole unit.
  function totals() {
    let distance = 0, seconds = 0, marks = [];
    for (let i = 1; i < points.length; i++) {
      let a = points[i - 1], b = points[i];
      if (a.seg !== b.seg) continue;
      let step = meters(a, b), dt = (b.t - a.t) / 1000;
      while (step > 0 && distance + step >= (marks.length + 1) * unit) marks.push(seconds + dt * ((marks.length + 1) * unit - distance) / step);
      distance += step;
      seconds += dt;
    }
    let last = points[points.length - 1];
    if (watch !== null && run.state === "running" && last && last.seg === run.seg) seconds += (Date.now() - last.t) / 1000;
    return { distance, seconds, marks };
  }

  function figures() {
    let sum = totals(), marks = sum.marks, n = marks.length, recent = points.slice(-6).filter(p => p.seg === run.seg);
    let first = recent[0], last = recent[recent.length - 1], span = first ? meters(first, last) : 0;
    let split = n ? clock(marks[n - 1] - (marks[n - 2] || 0)) : "–";
    let shown = {
      distance: (sum.distance / unit).toFixed(2), time: clock(sum.seconds), split,
      average: sum.distance > 50 ? clock(sum.seconds / (sum.distance / unit)) : "–",
      pace: span > 10 ? clock((last.t - first.t) / 1000 / (span / unit)) : "–",
    };
    for (let name in shown) box.querySelector("[data-figure=" + name + "]").textContent = shown[name];
    if (n > (run.announced || 0)) {  // each whole unit, told to screen readers
      run.announced = n;
      $("announce").textContent = text("tAnnounce", { distance: n, unit: t.unit, split, average: clock(marks[n - 1] / n) });
      save();
    }
    if (run.state === "running" && watch !== null && autopause.checked) standingStill();
    draw();
  }

  // The route on the site's map tiles (Web Mercator, 256 px), fitted to the view.
  function draw() {
    let W = 360, H = 220, edge = [Infinity, Infinity, -Infinity, -Infinity];
    let xy = points.map(p => {
      let lat = Math.max(-85, Math.min(85, p.lat)) * Math.PI / 180;
      let q = [(p.lon + 180) / 360 * 256, (1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) * 128];
      edge = [Math.min(edge[0], q[0]), Math.min(edge[1], q[1]), Math.max(edge[2], q[0]), Math.max(edge[3], q[1])];
      return q;
    });
    if (!xy.length) return;
    let z = Math.max(3, Math.min(17, Math.floor(Math.log2(Math.min(320 / (edge[2] - edge[0] || 1e-9), 180 / (edge[3] - edge[1] || 1e-9))))));
    let k = 2 ** z, left = (edge[0] + edge[2]) / 2 * k - W / 2, top = (edge[1] + edge[3]) / 2 * k - H / 2;
    function at(q) { return [(q[0] * k - left).toFixed(1), (q[1] * k - top).toFixed(1)]; }
    $("route").setAttribute("points", xy.map(q => at(q).join(",")).join(" "));
    let here = at(xy[xy.length - 1]);
    ["cx", "cy"].forEach((name, i) => $("here").setAttribute(name, here[i]));
    if (!("tiles" in t)) return;
    let tiles = "";
    for (let x = Math.floor(left / 256); x * 256 < left + W; x++) {
      for (let y = Math.max(0, Math.floor(top / 256)); y * 256 < top + H && y < k; y++) {
        tiles += '<image href="/tiles/' + z + "/" + (x % k + k) % k + "/" + y + '" x="' + (x * 256 - left).toFixed(1)
          + '" y="' + (y * 256 - top).toFixed(1) + '" width="256" height="256"/>';
      }
    }
    if ($("tiles").dataset.drawn !== tiles) $("tiles").innerHTML = $("tiles").dataset.drawn = tiles;
  }

  function save() { return Outbox.transaction(["runs"], "readwrite", runs => runs.put(run)); }

  // The form's choices (the note, who sees the run, its meetup) are kept with the run, so a
  // reload, a killed tab or a crash brings them back with the points.
  function choices() {
    let fields = [];
    new FormData(form).forEach((value, name) => { if (typeof value === "string" && name !== "_csrf") fields.push([name, value]); });
    return fields;
  }
  function restore(fields) {
    (fields || []).forEach(([name, value]) => {
      let field = form.elements.namedItem(name);
      if (!field) return;
      if (field.type === "checkbox") field.checked = true;
      else field.value = value;  // a text, a choice, or a group of radio buttons
    });
  }
  function keepChoices() { if (run && run.state !== "finished") { run.choices = choices(); save(); } }
  form.addEventListener("change", keepChoices);
  form.addEventListener("input", keepChoices);

  function keep(point) {
    points.push(point);
    Outbox.transaction(["points"], "readwrite", store => store.add(point));
    figures();
  }

  function position(fix) {
    if (!run || run.state === "finished") return;
    let c = fix.coords, point = { lat: c.latitude, lon: c.longitude, ele: c.altitude, t: Date.now(), seg: run.seg };
    if (!isFinite(point.lat + point.lon)) return;
    if (c.accuracy > ACCURACY) return status(text("tWeak", { accuracy: Math.round(c.accuracy) }));
    let last = points[points.length - 1];
    if (run.state === "still") {  // moving again after an auto-pause: a new segment
      if (meters(still, point) < STILL_METERS * 2) return;
      run.state = "running";
      point.seg = ++run.seg;
      save();
    }
    if (run.state !== "running") return;
    status(text("tRunning"));
    if (last && last.seg === point.seg) {
      let dt = (point.t - last.t) / 1000, step = meters(last, point);
      // Faster than a runner is GPS noise, dropped; five such fixes in a row, the GPS settled
      // elsewhere: a new segment from there, the jump not counted.
      if (dt > 0 ? step / dt > SPEED : step > SPEED) {
        if (++jumps < 5) return;
        point.seg = ++run.seg;
      }
    }
    jumps = 0;
    keep(point);
  }

  // Auto-pause: ten seconds within a few metres (or with no new fix) is standing still.
  function standingStill() {
    let now = Date.now(), segment = points.filter(p => p.seg === run.seg), last = segment[segment.length - 1];
    if (!last || now - segment[0].t < STILL_MS) return;
    if (segment.every(p => now - p.t > STILL_MS || meters(p, last) < STILL_METERS)) {
      run.state = "still";
      still = last;
      save().then(() => status(text("tStanding")));
    }
  }

  function failed(error) {
    if (error.code !== 1) return run.state === "running" && status(text("tWaiting"));
    stop();
    if (!points.length) forget();
    note(text("tDenied"));
    show(points.length ? ["finish", "discard"] : []);
  }

  function listen() {
    if (watch === null) watch = navigator.geolocation.watchPosition(position, failed, { enableHighAccuracy: true, maximumAge: 0, timeout: 30000 });
    tick = tick || setInterval(figures, 1000);
    awake();
  }

  function stop() {
    if (watch !== null) navigator.geolocation.clearWatch(watch);
    clearInterval(tick);
    if (lock) lock.release().catch(() => {});
    watch = tick = lock = null;
  }

  // The screen kept on while recording, where it can be.
  function awake() {
    if (!("wakeLock" in navigator)) return note(text("tNoWakeLock"));
    if (lock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(sentinel => {
      lock = sentinel;
      sentinel.onrelease = () => { lock = null; };
    }, () => watch !== null && note(text("tNoWakeLock")));
  }

  function begin(existing) {
    if (!existing) forget();
    run = existing || { key: crypto.randomUUID(), startedAt: Date.now(), state: "running", seg: 0 };
    if (existing && existing.state !== "paused") run.state = "running";  // the same segment: a reload is no pause
    run.choices = choices();
    save();
    $("resume").hidden = true;
    show(run.state === "paused" ? ["resume", "finish", "discard"] : ["pause", "finish"]);
    status(text(run.state === "paused" ? "tPaused" : "tWaiting"));
    listen();
    figures();
  }

  // Finishing: the run goes to the outbox with the form's note, visibility and meetup, and
  // leaves the phone once the server has it.
  function finish() {
    stop();
    $("resume").hidden = true;
    if (points.length < 2) return discard(true);
    run.state = "finished";
    let fields = choices();
    show([]);
    status(text("tSending"));
    Outbox.put({ key: run.key, csrf: form.querySelector("[name=_csrf]").value, fields, gpx: Outbox.gpx(points) }).then(forget).then(send);
  }

  // One run at a time is kept; finished or discarded, it goes.
  function forget() {
    return Outbox.transaction(["runs", "points"], "readwrite", (runs, store) => { runs.clear(); store.clear(); });
  }

  function send() {
    return Outbox.flush().then(results => {
      let saved = results.find(r => r.status === "saved"), problem = results.find(r => r.status !== "saved");
      if (saved) return location.assign(saved.url);
      if (!problem) return;
      if (problem.status !== "offline") return status(text(problem.status === "signed-out" ? "tSignedOut" : "tRefused", problem));
      status(text("tQueued"));
      // Sent when the network is back: by this page if open, else by the service worker.
      addEventListener("online", send, { once: true });
      navigator.serviceWorker?.ready.then(registration => registration.sync?.register("moim-runs")).catch(() => {});
    });
  }

  function discard(quietly) {
    if (quietly !== true && !confirm(text("tConfirmDiscard"))) return;
    stop();
    forget().then(() => location.reload());
  }

  box.addEventListener("click", event => {
    let button = event.target.closest("[data-action]");
    if (!button) return;
    let name = button.dataset.action;
    if (name === "start") begin();
    if (name === "pause") { run.state = "paused"; save(); status(text("tPaused")); show(["resume", "finish", "discard"]); }
    if (name === "resume") { run.state = "running"; run.seg += 1; save(); status(text("tWaiting")); show(["pause", "finish"]); }
    if (name === "continue") begin(run);
    if (name === "keep" || name === "finish") finish();
    if (name === "discard") discard();
  });
  document.addEventListener("visibilitychange", () => { if (watch !== null) awake(); });

  const autopause = box.querySelector("[data-setting=autopause]");
  autopause.checked = localStorage.getItem("moim-autopause") === "1";
  autopause.onchange = () => localStorage.setItem("moim-autopause", autopause.checked ? "1" : "0");

  box.hidden = false;
  if (location.hash === "#recorder") box.scrollIntoView();
  if (!("geolocation" in navigator)) return show([]), note(text("tUnavailable"));
  show(["start"]);
  // A run not finished (a reload, a crash, a dead battery) is offered back with every point.
  Outbox.transaction(["runs", "points"], "readonly", (runs, store) => Promise.all([Outbox.all(runs), Outbox.all(store)])).then(found => {
    if (found[0].length) {
      run = found[0][0];
      points = found[1];
      restore(run.choices);
      let started = new Date(run.startedAt).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
      $("resume-text").textContent = text("tResume", { time: started });
      $("resume").hidden = false;
      show([]);
      figures();
    }
    return Outbox.transaction(["outbox"], "readonly", Outbox.all);
  }).then(queued => {
    let refused = queued.find(entry => entry.refused);
    if (refused) status(text("tRefused", { reason: refused.refused }));
    if (queued.some(entry => !entry.refused)) send();
  });
})();
