#!/usr/bin/env python3
"""markport's own driver for an independent xFolk parser: Perl's HTML::Microformats
(Debian: libhtml-microformats-perl), which reads xFolk as a kind of hReview.

  xfolk_peer.py PAGE.html --url DOCUMENT_URL
      {"peer": "HTML::Microformats VERSION", "entries": [{"url", "title", "tags",
       "descriptions_text"}]}: every element of class `xfolkentry`, in document order;
      "descriptions_text" is the text of each `.description`, white space collapsed.
      A `<base href>` is resolved against DOCUMENT_URL first, as a browser does (the
      parser does not apply it itself).

Standard library only (besides the Perl module). Exit status: 0 done, 2 Perl or the module
is missing (the reason on standard error), anything else the parser failed.
"""
import argparse
import json
import shutil
import subprocess
import sys

PARSER = r'''
use strict; use warnings;
use HTML::Microformats; use HTML::HTML5::Parser; use URI; use JSON; use XML::LibXML;
my ($file, $url) = @ARGV;
my $page = do { local $/; open my $in, '<:encoding(UTF-8)', $file or die "$file: $!"; <$in> };
my $base = $url;
for my $b (HTML::HTML5::Parser->new->parse_string($page)->getElementsByTagName('base')) {
    next unless $b->hasAttribute('href');
    $base = URI->new_abs($b->getAttribute('href'), $url)->as_string;
    last;
}
# Tags come back as UTF-8 octets: text when they decode.
sub decoded { my $t = shift; return $t unless defined $t; my $c = $t; utf8::decode($c) ? $c : $t }
sub text_of {
    my $node = eval { XML::LibXML->new->parse_string('<x>' . shift . '</x>')->documentElement };
    return undef unless $node;
    my $t = $node->textContent; $t =~ s/[ \t\n\r\f]+/ /g; $t =~ s/^ | $//g; return $t;
}
my $doc = HTML::Microformats->new_document($page, $base);
$doc->assume_all_profiles;
my @entries;
for my $review ($doc->objects('hReview')) {
    my @classes = split /[ \t\n\r\f]+/, ($review->element->getAttribute('class') // '');
    next unless grep { $_ eq 'xfolkentry' } @classes;
    my $d = $review->TO_JSON;
    my $item = ref $d->{item} eq 'HASH' ? $d->{item} : {};
    my ($link) = grep { defined } @{ $item->{url} // [] };
    push @entries, {
        url => $link,
        title => decoded($item->{fn}),
        tags => [ map { decoded(ref $_ eq 'HASH' ? $_->{tag} : $_->TO_JSON->{tag}) } grep { ref } @{ $d->{tag} // [] } ],
        descriptions_text => [ map { text_of(decoded("$_")) } @{ $d->{html_description} // [] } ],
    };
}
binmode STDOUT;
print JSON->new->utf8->canonical->allow_blessed->convert_blessed->encode(
    { peer => "HTML::Microformats $HTML::Microformats::VERSION", entries => \@entries });
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("page")
    ap.add_argument("--url", required=True)
    a = ap.parse_args()
    if not shutil.which("perl"):
        print("perl is not installed", file=sys.stderr)
        return 2
    run = subprocess.run(["perl", "-e", PARSER, a.page, a.url], capture_output=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr.decode("utf-8", "replace"))
        if b"Can't locate HTML/Microformats.pm" in run.stderr:
            sys.stderr.write("install it: apt-get install -y libhtml-microformats-perl\n")
            return 2
        return run.returncode
    sys.stdout.buffer.write(run.stdout + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
