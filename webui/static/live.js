// Keep every element marked data-live="<part>" current through server-sent events.
// EventSource reconnects by itself and sends Last-Event-ID, so the server only sends what changed.
// While the operator is typing inside a part, its update waits until the field is left.
(function () {
  "use strict";
  const offline = document.getElementById("offline");
  document.querySelectorAll("[data-live]").forEach(function (element) {
    let pending = null;
    function show(html) {
      if (element.contains(document.activeElement) && document.activeElement.matches("input, select, textarea")) {
        pending = html;
        return;
      }
      pending = null;
      element.innerHTML = html;
    }
    element.addEventListener("focusout", function () {
      if (pending !== null) setTimeout(function () { if (pending !== null) show(pending); }, 0);
    });
    const source = new EventSource("/events?part=" + encodeURIComponent(element.dataset.live));
    source.addEventListener("update", function (event) { show(event.data); });
    source.addEventListener("open", function () { if (offline) offline.hidden = true; });
    source.addEventListener("error", function () { if (offline) offline.hidden = false; });
  });
})();
