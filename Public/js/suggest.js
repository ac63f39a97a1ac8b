// Suggestions under a search box, as a WAI-ARIA 1.2 combobox with a list popup: from two
// characters, the server's fragment of people, crews, tags and meetups (GET /search/suggest)
// shows under the box. Down and Up move through the options (the focus stays in the box,
// aria-activedescendant names the option), Enter opens the chosen one, Escape closes the list
// and, with the list closed, empties the box. Without this script the box is a plain GET form.
(function () {
  "use strict";
  var MINIMUM = 2;

  function attach(input) {
    var form = input.form;
    var popup = document.createElement("div");
    popup.className = "suggest";
    popup.hidden = true;
    var status = document.createElement("div");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    form.appendChild(popup);
    form.appendChild(status);
    var listID = input.id + "-suggestions";
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", listID);
    input.setAttribute("autocomplete", "off");
    var active = -1, asked = null, shownFor = null;

    function options() { return popup.querySelectorAll("[role=option]"); }

    function close() {
      popup.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function choose(index) {
      var all = options();
      if (!all.length) return;
      active = (index + all.length) % all.length;
      all.forEach(function (option, position) { option.setAttribute("aria-selected", position === active ? "true" : "false"); });
      input.setAttribute("aria-activedescendant", all[active].id);
      all[active].scrollIntoView({ block: "nearest" });
    }

    function show(html, text) {
      popup.innerHTML = html;
      var list = popup.querySelector("[role=listbox]");
      if (!list) return close();
      list.id = listID;
      options().forEach(function (option, position) { option.id = listID + "-" + position; });
      shownFor = text;
      active = -1;
      input.removeAttribute("aria-activedescendant");
      popup.hidden = false;
      input.setAttribute("aria-expanded", "true");
      status.textContent = list.getAttribute("data-announce") || "";
    }

    function suggest() {
      var text = input.value.trim();
      if (Array.from(text).length < MINIMUM) { shownFor = null; return close(); }
      if (text === shownFor && popup.innerHTML) { popup.hidden = false; input.setAttribute("aria-expanded", "true"); return; }
      if (asked) asked.abort();
      var request = asked = new AbortController();
      fetch("/search/suggest?q=" + encodeURIComponent(text), { signal: request.signal, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
        .then(function (html) { if (request === asked && input.value.trim() === text) show(html, text); })
        .catch(function () {});
    }

    input.addEventListener("input", suggest);
    input.addEventListener("focus", function () { if (input.value.trim() === shownFor) suggest(); });
    input.addEventListener("keydown", function (event) {
      var open = !popup.hidden;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (!open) { suggest(); return; }
        event.preventDefault();
        choose(event.key === "ArrowDown" ? active + 1 : (active < 0 ? -1 : active - 1));
      } else if (event.key === "Enter" && open && active >= 0) {
        event.preventDefault();
        window.location.href = options()[active].href;
      } else if (event.key === "Escape") {
        if (open) { event.preventDefault(); close(); } else if (input.value) { event.preventDefault(); input.value = ""; shownFor = null; }
      } else if (event.key === "Tab") {
        close();
      }
    });
    // A click on an option follows its link; the box keeps the focus until then.
    popup.addEventListener("mousedown", function (event) { event.preventDefault(); });
    input.addEventListener("blur", function () { setTimeout(close, 150); });
  }

  document.querySelectorAll("form[role=search][action='/search'] input[name=q][id]").forEach(attach);
})();
