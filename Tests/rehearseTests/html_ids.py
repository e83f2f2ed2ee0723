"""Checks every page of a `rehearse run --report` folder as an HTML5 parser reads it (html5lib,
strict: a parse error fails): no id is given twice in a page, and every `url(#id)` and `href="#id"`
names an id of the same page (a clip path found elsewhere, or the first of two, clips wrongly).

usage: html_ids.py REPORT_FOLDER
Prints "PAGE: N ids, M references" per page; exits 1 naming each problem."""

import collections
import os
import re
import sys

import html5lib

REFERENCE = re.compile(r"url\(#([^)]*)\)")

problems = []
for folder, _, names in sorted(os.walk(sys.argv[1])):
    for name in sorted(names):
        if not name.endswith(".html"):
            continue
        path = os.path.join(folder, name)
        page = os.path.relpath(path, sys.argv[1])
        with open(path, "rb") as file:
            try:
                tree = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(file)
            except html5lib.html5parser.ParseError as error:
                problems.append(f"{page}: not HTML5: {error}")
                continue
        ids = collections.Counter()
        references = []
        for element in tree.iter():
            for attribute, value in element.attrib.items():
                local = attribute[1] if isinstance(attribute, tuple) else attribute
                if local == "id":
                    ids[value] += 1
                references += REFERENCE.findall(value)
                if local == "href" and value.startswith("#"):
                    references.append(value[1:])
        problems += [f"{page}: id {identifier!r} is given {count} times" for identifier, count in ids.items() if count > 1]
        problems += [f"{page}: url(#{identifier}) names no id of the page" for identifier in sorted(set(references)) if identifier not in ids]
        print(f"{page}: {len(ids)} ids, {len(references)} references")

for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
