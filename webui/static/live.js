// Keep every element marked data-live="<part>" current through server-sent events.
// EventSource reconnects by itself and sends Last-Event-ID, so the server only sends what changed.
(function () {
  "use strict";
  const offline = document.getElementById("offline");
  document.querySelectorAll("[data-live]").forEach(function (element) {
    const source = new EventSource("/events?part=" + encodeURIComponent(element.dataset.live));
    source.addEventListener("update", function (event) {
      element.innerHTML = event.data;
      element.dataset.revision = event.lastEventId;
      document.dispatchEvent(new CustomEvent("live-update", { detail: { part: element.dataset.live } }));
    });
    source.addEventListener("open", function () { if (offline) offline.hidden = true; });
    source.addEventListener("error", function () { if (offline) offline.hidden = false; });
  });
})();
