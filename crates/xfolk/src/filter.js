(function () {
  var box = document.getElementById("filter");
  if (!box) return;
  var items = Array.prototype.slice.call(document.querySelectorAll("li.xfolkentry"));
  var shown = document.getElementById("shown");
  box.closest("p").hidden = false;
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
  if (location.hash.indexOf("#q=") === 0) box.value = decodeURIComponent(location.hash.slice(3));
  run();
})();
