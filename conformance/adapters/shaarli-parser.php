<?php
// Shaarli's netscape-bookmark-parser (Debian: php-netscape-bookmark-parser,
// the parser Shaarli's own import runs): parse a Netscape bookmark file and
// write what it returns as markport's JSON model (docs/formats/json.md), so
// `--to json` compares the parser's result. The parser returns a flat list
// of links, each with the titles of the folders above it among its tags (as
// Shaarli imports them); the list is written as it comes, at the top level.
// Usage: php shaarli-parser.php IN OUT   (with --from netscape --to json)

require_once 'Shaarli/NetscapeBookmarkParser/autoload.php';

use Shaarli\NetscapeBookmarkParser\NetscapeBookmarkParser;

[, $input, $output] = $argv;

// The parser logs each line it reads to a file under the directory it is
// given: a private one, removed at the end.
$logs = sys_get_temp_dir() . '/shaarli-parser-' . getmypid() . '-' . bin2hex(random_bytes(4));
mkdir($logs, 0700);
try {
    // Shaarli's defaults but one: a link the file does not mark is public,
    // as every browser's export means it.
    $parser = new NetscapeBookmarkParser(true, [], '1', $logs);
    $items = $parser->parseFile($input);
} finally {
    array_map('unlink', glob($logs . '/*') ?: []);
    rmdir($logs);
}

$nodes = [];
foreach ($items as $item) {
    $node = ['type' => 'bookmark', 'href' => $item['uri']];
    if ($item['title'] !== '') {
        $node['title'] = $item['title'];
    }
    if ($item['note'] !== '') {
        $node['desc'] = $item['note'];
    }
    if ($item['tags']) {
        $node['tags'] = array_values($item['tags']);
    }
    $node['added'] = gmdate('Y-m-d\TH:i:s\Z', $item['time']);
    if ($item['icon'] !== '') {
        $node['favicon'] = $item['icon'];
    }
    // The parser answers for every link: public (1) or private (0).
    $node['private'] = !$item['pub'];
    $nodes[] = $node;
}
// Bytes that are not UTF-8 (the parser reads a file as bytes, whatever its
// charset) become U+FFFD: the values they change are shown as changed.
$json = json_encode(
    ['markport' => 1, 'nodes' => $nodes],
    JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE
);
if ($json === false || file_put_contents($output, $json) === false) {
    fwrite(STDERR, "cannot write $output\n");
    exit(1);
}
