#!/usr/bin/env python3
"""Make corpus/edge/collectionsSQLite: Edge's Collections tables (as Edge
creates them: collections, items, collections_items_relationship, comments)
holding made-up cards: collections whose `position` differs from their
insertion order, an empty collection, a card in two collections, a card with
two notes, a note card without a link, rows Edge marked for deletion (a
collection, a card, a link between them), dates in seconds and in
milliseconds. No date comes from the clock, so each run makes the same file.

The expected model beside it is checked by hand:
  markport convert corpus/edge/collectionsSQLite --to json \\
      > corpus/edge/collectionsSQLite.expected.json
Usage: scripts/make-edge-collections.py
"""
import json
import os
import sqlite3

OUT = os.path.join(os.path.dirname(__file__), "..", "corpus", "edge", "collectionsSQLite")

SCHEMA = """
CREATE TABLE collections (
  id TEXT PRIMARY KEY,
  date_created REAL NOT NULL,
  date_modified REAL NOT NULL,
  title TEXT NOT NULL,
  position INTEGER NOT NULL,
  is_syncable INTEGER DEFAULT 1,
  suggestion_url TEXT,
  suggestion_dismissed INTEGER,
  suggestion_type INTEGER,
  thumbnail BLOB,
  is_custom_thumbnail INTEGER NOT NULL DEFAULT 0,
  tag TEXT,
  thumbnail_url TEXT,
  is_marked_for_deletion INTEGER
);
CREATE TABLE items (
  id TEXT PRIMARY KEY,
  date_created REAL NOT NULL,
  date_modified REAL NOT NULL,
  title TEXT,
  source BLOB,
  entity_blob BLOB,
  favicon_url TEXT REFERENCES favicons (url) ON DELETE CASCADE,
  canonical_image_data BLOB,
  canonical_image_url TEXT,
  text_content TEXT,
  html_content TEXT,
  type TEXT,
  progressing INTEGER,
  is_syncable INTEGER DEFAULT 1,
  color TEXT,
  third_party_data BLOB,
  remote_url TEXT,
  tag TEXT,
  is_marked_for_deletion INTEGER
);
CREATE TABLE collections_items_relationship (
  item_id TEXT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  parent_id TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  is_marked_for_deletion INTEGER
);
CREATE TABLE comments (
  id TEXT PRIMARY KEY,
  parent_id TEXT,
  text TEXT,
  properties TEXT,
  is_marked_for_deletion INTEGER
);
"""

COLLECTIONS = [
    # id, created, modified, title, position, deleted
    ("c-read", 1_700_000_100_000, 1_700_000_900_000, "Reading list", 1, 0),
    ("c-trip", 1_700_000_000_000, 1_700_000_500_000, "Trip to Lisbon", 0, 0),
    ("c-old", 1_600_000_000_000, 1_600_000_000_000, "Deleted collection", 2, 1),
    ("c-empty", 1_700_001_000, 1_700_001_000, "Empty for now", 3, 0),
]

def source(url, title, site):
    return json.dumps({"url": url, "title": title, "websiteName": site}).encode()

ITEMS = [
    # id, created, modified, title, source, type, text_content, deleted
    ("i-tram", 1_700_000_010_000, 1_700_000_020_000, "Tram 28 – timetable",
     source("https://transit.example.pt/tram/28?lang=en", "Tram 28", "Transit"), "website", None, 0),
    ("i-pastel", 1_700_000_030_000, 1_700_000_030_000, "Pastéis de nata, the recipe",
     source("https://food.example.com/pasteis-de-nata", "Pastéis", "Food"), "website", None, 0),
    ("i-note", 1_700_000_040_000, 1_700_000_040_000, "Packing list",
     None, "annotation", "passport, charger, umbrella", 0),
    ("i-essay", 1_700_000_200, 1_700_000_300, "On reading slowly",
     source("https://essays.example.org/reading-slowly", "On reading slowly", "Essays"), "website", None, 0),
    ("i-gone", 1_700_000_050_000, 1_700_000_060_000, "A card deleted on another device",
     source("https://deleted.example.com/", "Deleted", "Deleted"), "website", None, 1),
]

RELATIONS = [
    # item, collection, position, deleted
    ("i-pastel", "c-trip", 1, 0),
    ("i-tram", "c-trip", 0, 0),
    ("i-note", "c-trip", 2, 0),
    ("i-gone", "c-trip", 3, 0),
    ("i-essay", "c-read", 0, 0),
    ("i-pastel", "c-read", 1, 0),
    ("i-tram", "c-read", 2, 1),
    ("i-essay", "c-old", 0, 0),
]

COMMENTS = [
    ("n1", "i-pastel", "Best warm, with cinnamon.", "{}", 0),
    ("n2", "i-pastel", "The bakery near the tram stop opens at 8.", "{}", 0),
    ("n3", "i-essay", "A note deleted on another device", "{}", 1),
]

def main():
    if os.path.exists(OUT):
        os.remove(OUT)
    conn = sqlite3.connect(OUT)
    conn.executescript(SCHEMA)
    conn.executemany(
        "INSERT INTO collections (id, date_created, date_modified, title, position,"
        " is_marked_for_deletion) VALUES (?, ?, ?, ?, ?, ?)", COLLECTIONS)
    conn.executemany(
        "INSERT INTO items (id, date_created, date_modified, title, source, type,"
        " text_content, is_marked_for_deletion) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ITEMS)
    conn.executemany("INSERT INTO collections_items_relationship VALUES (?, ?, ?, ?)", RELATIONS)
    conn.executemany("INSERT INTO comments VALUES (?, ?, ?, ?, ?)", COMMENTS)
    conn.commit()
    conn.execute("VACUUM")
    conn.close()

main()
