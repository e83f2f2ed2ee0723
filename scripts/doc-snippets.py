#!/usr/bin/env python3
"""Turns the Swift snippets of README.md and docs/*.md into code the example package compiles.

Usage: doc-snippets.py REPO CONSUMER_PACKAGE

- A snippet whose first line is `// From Examples/PATH` is an excerpt: the lines after that one
  must stand, verbatim and in one piece, in Examples/PATH, which the example package compiles.
- Any other snippet is compiled, with the other snippets of the same document, in a test target of
  its own (`DocSnippets_<document>`) that can import every Rehearse product and ShakeDetector.
  A snippet of declarations (types, functions, `@Test`s) is a file as it stands; a snippet of
  top-level statements becomes the body of a test, so it runs too.

Exits 1, naming the document and the snippet, when an excerpt is not found.
"""
import json
import pathlib
import re
import subprocess
import sys

DECLARATION = re.compile(r"^(@Test|@Suite|@main|(public |private |fileprivate |internal )?(final )?"
                         r"(struct|class|enum|extension|protocol|func|actor|typealias)\b)")


def library_products(repo):
    """The package's library products, as its manifest lists them: what a snippet may import."""
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=repo, check=True,
                                         capture_output=True, text=True).stdout)
    return [product["name"] for product in manifest["products"] if "library" in product["type"]]


def snippets(text):
    """The ```swift blocks of a Markdown text, with the line each starts on."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(text.splitlines(), 1):
        if current is None and line.strip() == "```swift":
            current, start = [], number + 1
        elif current is not None and line.strip() == "```":
            blocks.append((start, current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def is_declarations(lines):
    code = [line for line in lines if line.strip() and not line.lstrip().startswith(("//", "import "))]
    return bool(code) and DECLARATION.match(code[0]) is not None


def main(repo, consumer):
    documents = [repo / "README.md"] + sorted((repo / "docs").glob("*.md"))
    targets = []
    for document in documents:
        name = "DocSnippets_" + re.sub(r"\W", "_", document.stem)
        folder = consumer / "DocSnippets" / document.stem
        files = 0
        for start, lines in snippets(document.read_text()):
            where = f"{document.relative_to(repo)}:{start}"
            if lines and lines[0].startswith("// From Examples/"):
                source = (repo / "Examples" / lines[0][len("// From Examples/"):].strip()).read_text()
                if "\n".join(lines[1:]).strip("\n") not in source:
                    print(f"{where}: error: the snippet is not in {lines[0][len('// From '):]} as written", file=sys.stderr)
                    return 1
                continue
            folder.mkdir(parents=True, exist_ok=True)
            files += 1
            if is_declarations(lines):
                body = "\n".join(lines)
            else:
                imports = [line for line in lines if line.startswith("import ")]
                statements = [line for line in lines if not line.startswith("import ")]
                body = "\n".join(["import Testing"] + imports
                                 + [f"@Test func snippetAtLine{start}() async throws {{"]
                                 + ["    " + line if line else "" for line in statements] + ["}"])
            (folder / f"Snippet{start}.swift").write_text(f"// {where}\n{body}\n")
        if files:
            targets.append((name, document.stem))
    with open(consumer / "Package.swift", "a") as manifest:
        manifest.write("\n// Added by scripts/doc-snippets.py: the documents' snippets.\n")
        products = ", ".join(f'.product(name: "{product}", package: "rehearse")' for product in library_products(repo))
        for name, stem in targets:
            manifest.write(f'package.targets.append(.testTarget(name: "{name}", dependencies: ["ShakeDetector", {products}], '
                           f'path: "DocSnippets/{stem}"))\n')
    print(f"doc snippets: {len(targets)} document(s) compiled as test targets")
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])))
