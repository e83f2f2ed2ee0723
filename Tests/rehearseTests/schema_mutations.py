"""Mutates the bundled scenarios and asks both `rehearse validate` and `rehearse schema` (through
Python's jsonschema, Draft 7) about every mutant: where they disagree, the reason must be one that
a JSON Schema cannot express (a node id, a path, what the file's own scene or plugins define).

usage: schema_mutations.py REHEARSE SCHEMA SEED COUNT FILE...
Writes each mutant as JSON (which YAML 1.2 reads exactly as JSON readers do, so both sides read
the same values), then prints one line per disagreement:
    loader-only FILE: MESSAGE     the loader refuses what the schema accepts
    schema-only FILE: REASON      the schema refuses what the loader accepts
and a last line: "N mutants: A agreed, L loader-only, S schema-only"."""

import copy
import json
import os
import random
import subprocess
import sys
import tempfile

import jsonschema
import yaml


class Yaml12Loader(yaml.SafeLoader):
    """Enough of YAML 1.2 for the bundled files: floats such as 1e-6 (PyYAML reads YAML 1.1)."""


# YAML 1.2's booleans are true and false only: `on`, `off`, `yes` and `no` are strings (a
# gesture's `on:` key).
Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", __import__("re").compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    __import__("re").compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$"),
    list("-+0123456789."))


def places(value, path=()):
    """Every (path, value) in the tree, the root included."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, path + (index,))


def parent_and_key(document, path):
    node = document
    for part in path[:-1]:
        node = node[part]
    return node, path[-1]


def retyped(value, rng):
    """A value of another JSON type than `value`."""
    choices = ["text", 7, 2.5, -1, True, None, [], [1, 2], {}, {"x": 1}, 1e308, 0]
    same = lambda other: type(other) is type(value)
    return rng.choice([choice for choice in choices if not same(choice)])


def mutate(document, rng):
    """One mutation of a copy of `document`: a key dropped, misspelt or added, a value retyped,
    a number pushed far, a list emptied, a null put into a list, an item duplicated, or an id
    made a reserved one."""
    mutant = copy.deepcopy(document)
    spots = [(path, value) for path, value in places(mutant) if path]
    path, value = rng.choice(spots)
    parent, key = parent_and_key(mutant, path)
    kind = rng.choice(["drop", "misspell", "retype", "far", "empty", "null-in-list", "add-key", "duplicate", "reserved"])
    if kind == "drop":
        del parent[key]
    elif kind == "misspell" and isinstance(key, str) and len(key) > 1:
        parent[key[:-1] + key[-1].upper() if key[-1].islower() else key + "x"] = parent.pop(key)
    elif kind == "far" and isinstance(value, (int, float)) and not isinstance(value, bool):
        parent[key] = rng.choice([-value - 1, value * 1e6, 1e7, -0.5, 1.1e16])
    elif kind == "empty" and isinstance(value, (list, dict)):
        parent[key] = type(value)()
    elif kind == "null-in-list" and isinstance(value, list):
        value.append(None)
    elif kind == "add-key" and isinstance(value, dict):
        value[rng.choice(["extra", "name", "fields", "count", "hz", "weight"])] = rng.choice([1, "x", True])
    elif kind == "reserved" and key == "id" and isinstance(value, str):
        parent[key] = rng.choice(["keyboard", "root", "time", "safeArea"])
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(value))
    else:
        parent[key] = retyped(value, rng)
    return mutant


def loader_verdicts(rehearse, files):
    """The first error of each file the loader refuses, by file path."""
    result = subprocess.run([rehearse, "validate"] + files, capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    verdicts = {}
    for line in (result.stdout + result.stderr).splitlines():
        if line.startswith("OK "):
            continue
        for file in files:
            if line.startswith(file + ":") and " error: " in line and file not in verdicts:
                verdicts[file] = line.split(" error: ", 1)[1]
    return verdicts


def main():
    rehearse, schema_file, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open(schema_file) as file:
        validator = jsonschema.Draft7Validator(json.load(file))
    rng = random.Random(seed)
    originals = []
    for path in sys.argv[5:]:
        with open(path, encoding="utf-8") as file:
            originals.append((path, yaml.load(file, Loader=Yaml12Loader)))
    agreed = loader_only = schema_only = 0
    with tempfile.TemporaryDirectory() as folder:
        mutants = []
        for index in range(count):
            source, document = originals[index % len(originals)]
            mutant = mutate(document, rng)
            file = os.path.join(folder, "%05d-%s.yaml" % (index, os.path.basename(source)[:-5]))
            with open(file, "w") as out:
                json.dump(mutant, out)
            mutants.append((file, mutant))
        refused = {}
        for start in range(0, len(mutants), 200):
            refused.update(loader_verdicts(rehearse, [file for file, _ in mutants[start:start + 200]]))
        for file, mutant in mutants:
            errors = sorted(validator.iter_errors(mutant), key=lambda error: list(error.absolute_path))
            name = os.path.basename(file)
            if (file in refused) == bool(errors):
                agreed += 1
            elif file in refused:
                loader_only += 1
                print("loader-only %s: %s" % (name, refused[file]))
            else:
                schema_only += 1
                where = "/".join(str(part) for part in errors[0].absolute_path)
                print("schema-only %s: at %s: %s" % (name, where or "the top", errors[0].message[:200]))
    print("%d mutants: %d agreed, %d loader-only, %d schema-only" % (count, agreed, loader_only, schema_only))


if __name__ == "__main__":
    main()
