// Opens PortOne's payment window for the attempt this page shows. The amount and the payment
// id come from Moim (pre-registered with PortOne); whatever the window says, Moim asks PortOne
// itself at the return address. Phones leave for the PG's page and come back by `redirectUrl`;
// desktops get an answer here and go to the same address.
(function () {
  "use strict";
  var form = document.getElementById("portone-pay");
  if (!form) return;
  var waiting = document.querySelector("[data-portone-waiting]");
  var error = form.querySelector("[data-portone-error]");
  if (!window.PortOne || typeof window.PortOne.requestPayment !== "function") {
    return; // The SDK did not load (blocked, offline): the note stays, the cancel link works.
  }
  form.hidden = false;
  if (waiting) waiting.hidden = true;
  var data = form.dataset;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    var choice = form.querySelector("input[name=method]:checked");
    var method = choice ? choice.value : "CARD";
    var request = {
      storeId: data.storeId,
      channelKey: data.channelKey,
      paymentId: data.paymentId,
      orderName: data.orderName,
      totalAmount: Number(data.amount),
      currency: data.currency,
      payMethod: method === "CARD" ? "CARD" : "EASY_PAY",
      redirectUrl: data.redirectUrl,
      customer: { fullName: data.customerName, email: data.customerEmail || undefined }
    };
    if (method !== "CARD") request.easyPay = { easyPayProvider: method };
    Promise.resolve(window.PortOne.requestPayment(request)).then(function (answer) {
      var query = "?paymentId=" + encodeURIComponent(data.paymentId);
      if (answer && answer.code) query += "&code=" + encodeURIComponent(answer.code);
      window.location.assign(data.redirectUrl + query);
    }, function (failure) {
      button.disabled = false;
      error.textContent = (failure && failure.message) || String(failure);
      error.hidden = false;
    });
  });
})();
