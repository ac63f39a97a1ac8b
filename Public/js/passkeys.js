// Passkeys: forms marked data-passkey="register" or "signin" ask the server for options,
// hand them to the browser's authenticator, and send its answer as an ordinary form post.
// Without WebAuthn in the browser the forms stay hidden.
(function () {
  "use strict";
  if (!window.PublicKeyCredential || !navigator.credentials) return;

  var toBytes = function (text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    var binary = atob(base64 + "===".slice((base64.length + 3) % 4));
    return Uint8Array.from(binary, function (c) { return c.charCodeAt(0); });
  };
  var toText = function (buffer) {
    var binary = String.fromCharCode.apply(null, new Uint8Array(buffer));
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  var set = function (form, name, value) {
    var field = form.querySelector("input[name='" + name + "']");
    if (field) field.value = value;
  };

  document.querySelectorAll("form[data-passkey]").forEach(function (form) {
    form.hidden = false;
    var error = form.querySelector("[data-passkey-error]");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (error) error.hidden = true;
      var body = new URLSearchParams({ _csrf: form.querySelector("input[name='_csrf']").value });
      fetch(form.dataset.options, { method: "POST", body: body, credentials: "same-origin" })
        .then(function (answer) {
          if (!answer.ok) throw new Error("options " + answer.status);
          return answer.json();
        })
        .then(function (options) {
          options.challenge = toBytes(options.challenge);
          if (form.dataset.passkey === "register") {
            options.user.id = toBytes(options.user.id);
            options.excludeCredentials = options.excludeCredentials.map(function (c) { return { type: c.type, id: toBytes(c.id) }; });
            return navigator.credentials.create({ publicKey: options });
          }
          return navigator.credentials.get({ publicKey: options });
        })
        .then(function (credential) {
          var answer = credential.response;
          set(form, "client_data", toText(answer.clientDataJSON));
          if (form.dataset.passkey === "register") {
            set(form, "attestation", toText(answer.attestationObject));
          } else {
            set(form, "credential_id", toText(credential.rawId));
            set(form, "authenticator_data", toText(answer.authenticatorData));
            set(form, "signature", toText(answer.signature));
            set(form, "user_handle", answer.userHandle ? toText(answer.userHandle) : "");
          }
          form.submit();
        })
        .catch(function () {
          if (error) error.hidden = false;
        });
    });
  });
})();
