// Click the four table corners on the camera frame; their image-pixel coordinates fill the form.
(function () {
  "use strict";
  const box = document.getElementById("calibrate");
  const image = document.getElementById("calibrate-image");
  const field = document.getElementById("corners");
  const clear = document.getElementById("corners-clear");
  if (!field) return;
  function points() { return field.value.trim() ? field.value.trim().split(/\s+/) : []; }
  function draw() {
    if (!box || !image || !image.naturalWidth) return;
    box.querySelectorAll(".dot").forEach(function (dot) { dot.remove(); });
    points().forEach(function (pair) {
      const xy = pair.split(",").map(Number);
      const dot = document.createElement("span");
      dot.className = "dot";
      dot.style.left = (xy[0] * image.clientWidth / image.naturalWidth) + "px";
      dot.style.top = (xy[1] * image.clientHeight / image.naturalHeight) + "px";
      box.appendChild(dot);
    });
  }
  if (image) {
    image.addEventListener("load", draw);
    image.addEventListener("click", function (event) {
      const rect = image.getBoundingClientRect();
      const x = Math.round((event.clientX - rect.left) * image.naturalWidth / rect.width);
      const y = Math.round((event.clientY - rect.top) * image.naturalHeight / rect.height);
      const list = points().length >= 4 ? [] : points();
      list.push(x + "," + y);
      field.value = list.join(" ");
      draw();
    });
  }
  if (clear) clear.addEventListener("click", function () { field.value = ""; draw(); });
})();
