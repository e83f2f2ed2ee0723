#!/usr/bin/env python3
"""What a subcommand's code reaches of a module, in the debug build's object files.

    scripts/command-reach.py MODULE FILE...      (e.g. RehearseDBusService ViewCommand RunCommand)

`rehearse` is one program and links every module (`serve` needs the service), so what counts is
what one subcommand's code can call: from every symbol `Sources/RehearseCommand/FILE.swift`
defines, follow the relocations (a function to what it references) through RehearseCommand's
other object files, and list the symbols of MODULE reached, each with the chain that reaches it.
Exits 1 if there is one. Build first (`swift build`); reads `.build/debug/RehearseCommand.build`.
"""
import bisect, collections, glob, os, re, subprocess, sys

def run(*arguments):
    return subprocess.run(arguments, capture_output=True, text=True, errors="replace").stdout

def demangle(symbol):
    return run("swift", "demangle", "--compact", symbol).strip()[:160]

def read(path):
    """The symbols `path` defines (global ones apart) and, for each, the symbols it references."""
    sections = {m.group(2): int(m.group(1)) for m in re.finditer(r"^\s*\[\s*(\d+)\]\s+(\S+)", run("readelf", "-SW", path), re.M)}
    symbols, defined, exported = collections.defaultdict(list), set(), set()
    for line in run("readelf", "-sW", path).split("\n"):
        fields = line.split()
        if len(fields) < 8 or not fields[0].endswith(":") or not fields[6].isdigit() or fields[3] == "SECTION":
            continue
        symbols[int(fields[6])].append((int(fields[1], 16), fields[7]))
        defined.add(fields[7])
        if fields[4] in ("GLOBAL", "WEAK"):
            exported.add(fields[7])
    for entries in symbols.values():
        entries.sort()

    def containing(section, offset):
        entries = symbols.get(section, [])
        index = bisect.bisect_right(entries, (offset, "\U0010ffff")) - 1
        return entries[index][1] if index >= 0 else f"{path}:{section}"

    references, section = collections.defaultdict(set), None
    for line in run("readelf", "-rW", path).split("\n"):
        header = re.match(r"Relocation section '\.rela(\S+)'", line)
        if header:
            section = sections.get(header.group(1))
            continue
        fields = line.split()
        if section is None or len(fields) < 5 or not re.fullmatch(r"[0-9a-f]{16}", fields[0]):
            continue
        targets = {fields[4]}
        if fields[4] in sections:  # section-relative: the symbol at the addend, or 4 past it (PC-relative)
            addend = int(fields[6], 16) * (-1 if fields[5] == "-" else 1) if len(fields) > 6 else 0
            targets = {containing(sections[fields[4]], max(0, addend + shift)) for shift in (0, 4)}
        references[containing(section, int(fields[0], 16))].update(targets)
    return defined, exported, references

def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    module, starts = sys.argv[1], sys.argv[2:]
    folder = ".build/debug/RehearseCommand.build"
    files = {path: read(path) for path in glob.glob(f"{folder}/*.o")}
    exporter = {symbol: path for path, (_, exported, _) in files.items() for symbol in exported}
    tag = f"{len(module)}{module}"
    parent, queue = {}, collections.deque()
    for start in starts:
        path = f"{folder}/{start}.swift.o"
        for symbol in files[path][0]:
            parent[(path, symbol)] = None
            queue.append((path, symbol))
    found = {}
    while queue:
        path, symbol = queue.popleft()
        for target in files[path][2].get(symbol, ()):
            if tag in target:
                found.setdefault(target, (path, symbol))
                continue
            where = path if target in files[path][0] and target not in exporter else exporter.get(target)
            if where and (where, target) not in parent:
                parent[(where, target)] = (path, symbol)
                queue.append((where, target))
    reached = {path for path, _ in parent}
    print(f"{' '.join(starts)}: {len(parent)} symbols in {len(reached)} files of RehearseCommand, {len(found)} of {module}")
    for target, step in found.items():
        print(" ", demangle(target))
        while step:
            print("    from", os.path.basename(step[0]), demangle(step[1]))
            step = parent[step]
    sys.exit(1 if found else 0)

try:
    main()
except BrokenPipeError:
    sys.exit(1)
