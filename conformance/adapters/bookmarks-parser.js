// npm's bookmarks-parser (https://www.npmjs.com/package/bookmarks-parser):
// parse a Netscape bookmark file and write what it found as markport's JSON
// model (docs/formats/json.md), so `--to json` compares the parser's tree.
// Usage: node bookmarks-parser.js IN OUT   (bookmarks-parser on NODE_PATH)
"use strict";
const fs = require("fs");
const parse = require("bookmarks-parser");

const [input, output] = process.argv.slice(2);
const roles = { toolbar: "toolbar", unsorted: "unfiled", menu: "menu" };

// Netscape dates are Unix seconds; markport's JSON takes W3C dates.
function date(seconds) {
  const n = Number(seconds);
  if (!seconds || !Number.isFinite(n)) return undefined;
  return new Date(n * 1000).toISOString().replace(".000Z", "Z");
}

// The parser takes text: decode as the file's <META charset> says (as a
// browser importing it does), UTF-8 when it says nothing.
const bytes = fs.readFileSync(input);
const declared = /charset=["']?([\w-]+)/i.exec(bytes.subarray(0, 1024).toString("latin1"));
let text;
try {
  text = new TextDecoder(declared ? declared[1] : "utf-8").decode(bytes);
} catch (e) {
  text = new TextDecoder("utf-8").decode(bytes);
}

parse(text, (err, res) => {
  if (err) {
    console.error(String(err));
    process.exit(1);
  }
  const nodes = [];
  // An explicit stack: the parser's tree can be as deep as the file.
  const stack = res.bookmarks.slice().reverse().map((item) => [item, undefined]);
  while (stack.length) {
    const [item, parent] = stack.pop();
    // The root the parser makes up for loose top-level items ("Menu") has
    // children but no type.
    const folder = item.type === "folder" || Array.isArray(item.children);
    const node = { type: folder ? "folder" : "bookmark" };
    if (parent !== undefined) node.parent = parent;
    if (node.type === "bookmark") node.href = item.url || "";
    if (item.title) node.title = item.title;
    const added = date(item.add_date);
    if (added) node.added = added;
    const modified = date(item.last_modified);
    if (modified) node.modified = modified;
    if (item.icon) node.favicon = item.icon;
    if (item.ns_root && roles[item.ns_root]) node.role = roles[item.ns_root];
    const at = nodes.push(node) - 1;
    for (const child of (item.children || []).slice().reverse()) {
      stack.push([child, at]);
    }
  }
  fs.writeFileSync(output, JSON.stringify({ markport: 1, nodes }, null, 1));
});
