(function () {
  var box = document.getElementById("filter");
  if (!box) return;
  var items = Array.prototype.slice.call(document.querySelectorAll("li.xfolkentry"));
  var shown = document.getElementById("shown");
  var bar = box.closest("p");
  bar.hidden = false;
  function run() {
    var q = box.value.trim().toLowerCase(), n = 0;
    items.forEach(function (li) {
      var tags = Array.prototype.map.call(li.querySelectorAll("a[rel~=tag]"), function (a) { return a.textContent.toLowerCase(); });
      var ok = !q || (q.indexOf("tag:") === 0 ? tags.indexOf(q.slice(4).trim()) >= 0 : li.textContent.toLowerCase().indexOf(q) >= 0);
      li.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = q ? n + " of " + items.length : "";
  }
  box.addEventListener("input", run);
  if (bar.getAttribute("data-tag-links") === "filter") {
    // Tag links name pages this page does not have: a plain click filters
    // by the tag instead (a click with a modifier key is left to the browser).
    document.addEventListener("click", function (e) {
      var a = e.target.closest ? e.target.closest("a[rel~=tag]") : null;
      if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      box.value = "tag:" + a.textContent;
      run();
      if (history.replaceState) history.replaceState(null, "", "#q=" + encodeURIComponent(box.value));
      bar.scrollIntoView({ block: "nearest" });
    });
  }
  if (location.hash.indexOf("#q=") === 0) box.value = decodeURIComponent(location.hash.slice(3));
  run();
})();
