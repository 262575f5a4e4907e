// markport serve's page: the form works without this script (a plain
// POST that downloads the file); with it, the page shows what each file
// holds before converting, the report in plain words, and the download.
(function () {
  "use strict";
  var form = document.getElementById("convert");
  var input = document.getElementById("file");
  var drop = document.getElementById("drop");
  var readOut = document.getElementById("read");
  var result = document.getElementById("result");
  var go = document.getElementById("go");
  var profile = document.getElementById("profile");
  var lastUrl = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function plural(n, word) { return n.toLocaleString() + " " + word + (n === 1 ? "" : "s"); }
  function where(e) {
    var at = e.file || "";
    if (e.line) { at += ":" + e.line + ":" + e.column; }
    return at ? at + ": " : "";
  }
  function answer(r) {
    return r.text().then(function (t) {
      var j;
      try { j = JSON.parse(t); } catch (x) { j = { error: t || r.statusText }; }
      if (!r.ok) { throw j; }
      return j;
    });
  }

  // The folder tree from the flat list (depth, title, bookmarks), nested
  // with an explicit stack: no recursion as deep as the file.
  function tree(folders) {
    var root = el("ul", "tree");
    var stack = [root];
    var shown = Math.min(folders.length, 2000);
    for (var i = 0; i < shown; i++) {
      var f = folders[i];
      while (stack.length > f.depth + 1) { stack.pop(); }
      var li = el("li");
      var next = folders[i + 1];
      var label = (f.title || "(untitled)") + " ";
      if (next && next.depth > f.depth && i + 1 < shown) {
        var d = el("details");
        var s = el("summary", null, label);
        s.appendChild(el("span", "count", plural(f.bookmarks, "bookmark")));
        d.appendChild(s);
        var ul = el("ul");
        d.appendChild(ul);
        li.appendChild(d);
        stack[stack.length - 1].appendChild(li);
        stack.push(ul);
      } else {
        li.textContent = label;
        li.appendChild(el("span", "count", plural(f.bookmarks, "bookmark")));
        stack[stack.length - 1].appendChild(li);
      }
    }
    if (folders.length > shown) {
      root.appendChild(el("li", "count", "and " + plural(folders.length - shown, "more folder")));
    }
    return root;
  }

  function showRead(files) {
    readOut.textContent = "";
    if (!files.length && !profile.value) { return; }
    var data = new FormData();
    if (profile.value) { data.append("profile", profile.value); }
    for (var i = 0; i < files.length; i++) { data.append("file", files[i], files[i].name); }
    readOut.appendChild(el("p", "count", "Reading…"));
    // Relative: the page and its API are under the token's path.
    fetch("api/info", { method: "POST", body: data, headers: { Accept: "application/json" } })
      .then(answer)
      .then(function (j) {
        readOut.textContent = "";
        j.files.forEach(function (f) {
          var box = el("div", "file");
          var p = el("p");
          p.appendChild(el("span", "file-name", f.file));
          p.appendChild(document.createTextNode(" — " + f.format + ": " + plural(f.bookmarks, "bookmark") +
            " in " + plural(f.folders, "folder") + (f.diagnostics.length ? ", " + plural(f.diagnostics.length, "note") + " from the reader" : "")));
          box.appendChild(p);
          if (f.tree.length) {
            var d = el("details");
            d.open = f.tree.length <= 30;
            d.appendChild(el("summary", null, "Folders"));
            d.appendChild(tree(f.tree));
            box.appendChild(d);
          }
          readOut.appendChild(box);
        });
      })
      .catch(function (e) {
        readOut.textContent = "";
        readOut.appendChild(el("p", "lost", "Cannot read " + where(e) + (e.error || e)));
      });
  }

  function entries(title, list, cls) {
    var frag = document.createDocumentFragment();
    if (!list || !list.length) { return frag; }
    frag.appendChild(el("h3", cls, title));
    var ul = el("ul", "entries");
    list.forEach(function (l) {
      var li = el("li");
      li.appendChild(el("code", null, l.field));
      li.appendChild(document.createTextNode(" on " + plural(l.count, "item") + (l.reason ? ": " + l.reason : "")));
      if (l.paths && l.paths.length) {
        li.appendChild(el("span", "count", " (" + l.paths.join(", ") + (l.count > l.paths.length ? ", …" : "") + ")"));
      }
      ul.appendChild(li);
    });
    frag.appendChild(ul);
    return frag;
  }

  function showReport(j, failed) {
    var r = j.report || {};
    result.hidden = false;
    result.className = failed ? "bad" : "";
    result.textContent = "";
    var to = r.to || "";
    var from = r.from || (r.inputs || []).map(function (i) { return i.from; }).join(" + ");
    result.appendChild(el("h2", null, failed ? "Nothing written" : "Done: " + from + " → " + to));
    if (failed) { result.appendChild(el("p", "lost", where(j) + j.error)); }
    // The plain summary: the lines `markport convert` says, from the
    // library that says them.
    var lines = (j.summary && j.summary.lines) || [];
    if (lines.length) {
      var said = el("div", "summary");
      said.id = "summary";
      lines.forEach(function (l) {
        var cls = { lost: "lost", destination: "lost", kept: "kept", empty: "lost" }[l.kind] || null;
        var p = el("p", cls, l.text);
        p.setAttribute("data-kind", l.kind);
        if (l.level) { p.classList.add("detail"); }
        said.appendChild(p);
      });
      result.appendChild(said);
    }
    (r.diagnostics || []).forEach(function (d) {
      result.appendChild(el("p", "count", "The reader noticed: " + where(d) + d.message));
    });
    if (r.losses) {
      // What the destination will not keep, each field with why, first:
      // it is what a person moving their bookmarks asks.
      var who = r["for"] ? document.querySelector("#for option[value='" + r["for"] + "']") : null;
      var dest = entries((who ? "What " + who.textContent + " will not keep" : "Not kept where the bookmarks go") + ":", r.destination, "lost");
      if (dest.firstChild) { dest.firstChild.id = "not-kept"; }
      result.appendChild(dest);
      var more = el("details");
      more.appendChild(el("summary", null, "Each field, why, and where"));
      more.appendChild(entries(to + " cannot carry:", r.losses, "lost"));
      more.appendChild(entries("Kept only where other " + to + " readers do not look:", r.extensions));
      more.appendChild(entries("Changes you asked for (not losses):", r.changes));
      if (more.children.length > 1) { result.appendChild(more); }
    }
    if (!failed && j.filename) {
      if (lastUrl) { URL.revokeObjectURL(lastUrl); }
      var bytes;
      if (j.base64) {
        var raw = atob(j.output);
        bytes = new Uint8Array(raw.length);
        for (var k = 0; k < raw.length; k++) { bytes[k] = raw.charCodeAt(k); }
      } else {
        bytes = j.output;
      }
      lastUrl = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
      var a = el("a", "download", "Download " + j.filename);
      a.href = lastUrl;
      a.download = j.filename;
      a.id = "download";
      result.insertBefore(a, result.children[1] || null);
    }
    result.focus();
  }

  input.addEventListener("change", function () { showRead(input.files); });
  profile.addEventListener("change", function () { showRead(input.files); });
  // The browsers' profiles on this computer are in the page as served, so
  // the plain form offers them too: nothing to fetch here.
  // A program chosen decides the file; the format list stays for overriding it.
  var dest = document.getElementById("for");
  var toSelect = document.getElementById("to");
  dest.addEventListener("change", function () {
    if (dest.value) { toSelect.value = ""; } else if (!toSelect.value) { toSelect.value = "netscape"; }
  });
  ["dragenter", "dragover"].forEach(function (t) {
    drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.add("over"); });
  });
  ["dragleave", "drop"].forEach(function (t) {
    drop.addEventListener(t, function () { drop.classList.remove("over"); });
  });
  drop.addEventListener("drop", function (e) {
    e.preventDefault();
    if (e.dataTransfer && e.dataTransfer.files.length) {
      input.files = e.dataTransfer.files;
      showRead(input.files);
    }
  });
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    go.disabled = true;
    result.hidden = false;
    result.className = "";
    result.textContent = "Converting…";
    fetch("api/convert", { method: "POST", body: new FormData(form), headers: { Accept: "application/json" } })
      .then(answer)
      .then(function (j) { showReport(j, false); })
      .catch(function (j) { showReport(j && j.error ? j : { error: String(j) }, true); })
      .then(function () { go.disabled = false; });
  });
})();
