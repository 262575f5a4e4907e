(function () {
  // The filter box of every page: it searches the whole site through
  // search.json, fetched the first time it is used. Where a page cannot
  // fetch (a page opened from disk), it filters the entries on the page.
  var box = document.getElementById("filter");
  if (!box) return;
  var bar = box.closest("p");
  var root = bar.getAttribute("data-root") || "";
  var shown = document.getElementById("shown");
  var results = document.getElementById("results");
  var list = results.querySelector("ul");
  var main = document.querySelector("main");
  var items = Array.prototype.slice.call(document.querySelectorAll("main li.xfolkentry"));
  var index = null, failed = false, loading = false;
  bar.hidden = false;
  function matches(q, text, tags) {
    return q.indexOf("tag:") === 0 ? tags.indexOf(q.slice(4).trim()) >= 0 : text.indexOf(q) >= 0;
  }
  function onPage(q) {
    var n = 0;
    items.forEach(function (li) {
      var tags = Array.prototype.map.call(li.querySelectorAll("a[rel~=tag]"), function (a) { return a.textContent.toLowerCase(); });
      var ok = !q || matches(q, li.textContent.toLowerCase(), tags);
      li.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = q ? n + " of " + items.length + " on this page" : "";
  }
  function everywhere(q) {
    while (list.firstChild) list.removeChild(list.firstChild);
    var n = 0;
    for (var i = 0; i < index.length; i++) {
      var e = index[i], tags = e[4].map(function (t) { return t.toLowerCase(); });
      if (!matches(q, (e[0] + " " + e[1] + " " + e[4].join(" ")).toLowerCase(), tags)) continue;
      if (++n > 200) continue;
      var li = document.createElement("li"), a = document.createElement("a"), at = document.createElement("a");
      a.href = e[1]; a.textContent = e[0];
      at.href = root + e[2]; at.textContent = e[3]; at.className = "count";
      li.appendChild(a); li.appendChild(document.createTextNode(" ")); li.appendChild(at);
      list.appendChild(li);
    }
    shown.textContent = n + (n === 1 ? " bookmark" : " bookmarks") + (n > 200 ? " (first 200 shown)" : "");
  }
  function run() {
    var q = box.value.trim().toLowerCase();
    if (!q || failed) { results.hidden = true; main.hidden = false; onPage(q); return; }
    if (index) { results.hidden = false; main.hidden = true; everywhere(q); return; }
    if (loading) return;
    loading = true;
    shown.textContent = "loading…";
    fetch(root + "search.json").then(function (r) { return r.json(); }).then(function (j) {
      index = j.entries; run();
    }, function () { failed = true; run(); });
  }
  box.addEventListener("input", run);
  if (location.hash.indexOf("#q=") === 0) { box.value = decodeURIComponent(location.hash.slice(3)); run(); }
})();
