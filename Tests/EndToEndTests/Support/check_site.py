#!/usr/bin/env python3
"""Reads a lookbook atl-export wrote, with Python's own HTML parser, and checks that it is a
site a browser can open from file:// with nothing from a network.

    check_site.py DIR

Every .html file parses; has <html lang>, a <title> and one <h1>; every href and src is relative
(no scheme, no leading /) and names a file of the site (fragments aside); no http:, https: or //
anywhere in a link or a script or stylesheet address; every <img> has a non-empty alt; every
<select> sits in a <label>; no id is used twice on a page. Prints "ok N pages" or the first failure, and exits 0 or 1.
"""
import os
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.problems, self.h1, self.title, self.lang = [], [], 0, False, False
        self.open_labels = 0
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            if a["id"] in self.ids:
                self.problems.append(f"the id {a['id']!r} is used twice")
            self.ids.add(a["id"])
        if tag == "html" and a.get("lang"):
            self.lang = True
        if tag == "title":
            self.title = True
        if tag == "h1":
            self.h1 += 1
        if tag == "label":
            self.open_labels += 1
        if tag == "select" and self.open_labels == 0:
            self.problems.append("a <select> outside a <label>")
        if tag == "img" and not (a.get("alt") or "").strip():
            self.problems.append(f"an <img> without alt text: {a.get('src')}")
        for key in ("href", "src"):
            if key in a and a[key] is not None:
                self.links.append(a[key])

    def handle_endtag(self, tag):
        if tag == "label":
            self.open_labels -= 1


def main(root):
    pages = 0
    for folder, _, names in os.walk(root):
        for name in names:
            if not name.endswith(".html"):
                continue
            pages += 1
            path = os.path.join(folder, name)
            page = Page()
            page.feed(open(path, encoding="utf-8").read())
            page.close()
            where = os.path.relpath(path, root)
            if not page.lang or not page.title or page.h1 != 1:
                return f"{where}: needs <html lang>, a <title> and one <h1> (h1: {page.h1})"
            if page.problems:
                return f"{where}: {page.problems[0]}"
            for link in page.links:
                if link.startswith(("http:", "https:", "//", "/")) or ":" in link.split("#")[0]:
                    return f"{where}: a link that is not relative: {link}"
                target = link.split("#")[0]
                if target and not os.path.isfile(os.path.normpath(os.path.join(folder, target))):
                    return f"{where}: a link to a missing file: {link}"
    if pages == 0:
        return "no pages"
    print(f"ok {pages} pages")
    return None


if __name__ == "__main__":
    problem = main(sys.argv[1])
    if problem:
        print(problem)
        sys.exit(1)
