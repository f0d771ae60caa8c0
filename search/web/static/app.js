// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  // Controls (languages, raw/normalised) apply on change; not when an arrow key moved the
  // choice (a keyboard user moves on, then applies with the button or Enter).
  document.querySelectorAll("form.controls").forEach(function (form) {
    var button = form.querySelector("button");
    var arrow = false;
    if (button) { button.classList.add("autosubmit"); }
    form.addEventListener("keydown", function (e) { arrow = e.key.indexOf("Arrow") === 0; });
    form.addEventListener("change", function () {
      if (arrow) { arrow = false; if (button) { button.classList.remove("autosubmit"); } return; }
      form.submit();
    });
  });
  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.isContentEditable);
  }
  // Filters behind a button on a phone.
  var filtersButton = document.querySelector(".filters-button");
  var facets = document.getElementById("facets");
  if (filtersButton && facets) {
    filtersButton.addEventListener("click", function () {
      var open = facets.classList.toggle("open");
      filtersButton.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }
  // The query's terms highlighted after following a hit (?hl=...).
  var hl = new URLSearchParams(location.search).get("hl");
  if (hl) { highlight(hl); }
  function stems(query) {
    return query.split(/[\s"()*~]+/).filter(function (w) {
      return w && ["AND", "OR", "NOT"].indexOf(w) < 0;
    }).map(function (w) {
      w = w.toLowerCase();
      return /[\u3400-\u9fff]/.test(w) ? w : w.slice(0, Math.max(3, w.length - 2));
    });
  }
  function escape(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function highlight(query) {
    var words = stems(query);
    if (!words.length) { return; }
    var re = new RegExp("(" + words.map(function (w) {
      return /[\u3400-\u9fff]/.test(w) ? escape(w) : "(?<![\\p{L}\\p{N}])" + escape(w) + "[\\p{L}\\p{N}]*";
    }).join("|") + ")", "giu");
    document.querySelectorAll("table.aligned td").forEach(function (cell) {
      var walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      var nodes = [];
      while (walker.nextNode()) { nodes.push(walker.currentNode); }
      nodes.forEach(function (node) {
        var text = node.nodeValue;
        re.lastIndex = 0;
        if (!re.test(text)) { return; }
        var frag = document.createDocumentFragment();
        var last = 0;
        text.replace(re, function (m, _g, at) {
          frag.appendChild(document.createTextNode(text.slice(last, at)));
          var mark = document.createElement("mark");
          mark.className = "hl";
          mark.textContent = m;
          frag.appendChild(mark);
          last = at + m.length;
          return m;
        });
        frag.appendChild(document.createTextNode(text.slice(last)));
        node.parentNode.replaceChild(frag, node);
      });
    });
  }
  // "?": the keyboard shortcuts.
  var dialog = null;
  function shortcuts() {
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.className = "shortcuts";
      dialog.setAttribute("aria-label", "Keyboard shortcuts");
      var keys = [["/", "search"], ["g", "go to a citation"], ["[ ]", "previous / next article"],
                  ["j k", "next / previous paragraph"], ["?", "this list"], ["Esc", "close"]];
      var dl = document.createElement("dl");
      keys.forEach(function (k) {
        var dt = document.createElement("dt"); dt.textContent = k[0];
        var dd = document.createElement("dd"); dd.textContent = k[1];
        dl.appendChild(dt); dl.appendChild(dd);
      });
      var h = document.createElement("h2"); h.textContent = "Keyboard shortcuts";
      var close = document.createElement("button"); close.type = "button"; close.textContent = "Close";
      close.addEventListener("click", function () { dialog.close(); });
      dialog.appendChild(h); dialog.appendChild(dl); dialog.appendChild(close);
      document.body.appendChild(dialog);
    }
    if (dialog.open) { dialog.close(); } else { dialog.showModal(); }
  }
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.aligned tbody tr[id]"));
  // A paragraph permalink opened: j and k move on from that paragraph.
  var current = rows.findIndex(function (r) { return "#" + r.id === location.hash; });
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
    if (e.key === "?") { e.preventDefault(); shortcuts(); }
    else if (dialog && dialog.open) { return; }
    else if (e.key === "/") { e.preventDefault(); document.getElementById("q").focus(); }
    else if (e.key === "g") { e.preventDefault(); document.getElementById("cite").focus(); }
    else if (e.key === "[" && (link = document.getElementById("prev"))) { link.click(); }
    else if (e.key === "]" && (link = document.getElementById("next"))) { link.click(); }
    else if (e.key === "j") { focusRow(current + 1); }
    else if (e.key === "k") { focusRow(current - 1); }
  });
})();
