// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  // Controls (languages, raw/normalised) apply on change.
  document.querySelectorAll("form.controls").forEach(function (form) {
    var button = form.querySelector("button");
    if (button) { button.classList.add("autosubmit"); }
    form.addEventListener("change", function () { form.submit(); });
  });
  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.isContentEditable);
  }
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.aligned tbody tr[id]"));
  var current = -1;
  function focusRow(i) {
    if (!rows.length) { return; }
    current = Math.max(0, Math.min(rows.length - 1, i));
    rows.forEach(function (r) { r.classList.remove("focus"); });
    var row = rows[current];
    row.classList.add("focus");
    row.scrollIntoView({ block: "center" });
    history.replaceState(null, "", "#" + row.id);
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(document.activeElement)) { return; }
    var link;
    if (e.key === "/") { e.preventDefault(); document.getElementById("q").focus(); }
    else if (e.key === "g") { e.preventDefault(); document.getElementById("cite").focus(); }
    else if (e.key === "[" && (link = document.getElementById("prev"))) { link.click(); }
    else if (e.key === "]" && (link = document.getElementById("next"))) { link.click(); }
    else if (e.key === "j") { focusRow(current + 1); }
    else if (e.key === "k") { focusRow(current - 1); }
  });
})();
