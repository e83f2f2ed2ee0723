"""Validates scenario files against `rehearse schema` with a real validator (jsonschema, Draft 7).

usage: schema_check.py SCHEMA FILE...
Prints one line per file: "valid FILE", "invalid FILE: REASON", or "unreadable FILE" for a file
that is not YAML at all (the loader refuses those before any schema could apply)."""

import json
import re
import sys

import jsonschema
import yaml


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML reads YAML 1.1, where 1e-6 is a string; scenario files are YAML 1.2 (Yams, and the
    YAML language server), where it is a number."""


# YAML 1.2's booleans are true and false only: `on`, `off`, `yes` and `no` are strings (a
# gesture's `on:` key).
Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", __import__("re").compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$"),
    list("-+0123456789."))

with open(sys.argv[1]) as file:
    schema = json.load(file)
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
for path in sys.argv[2:]:
    try:
        with open(path, encoding="utf-8") as file:
            document = yaml.load(file, Loader=Yaml12Loader)
    except (yaml.YAMLError, UnicodeDecodeError, ValueError):
        print("unreadable " + path)
        continue
    errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
    if errors:
        where = "/".join(str(part) for part in errors[0].absolute_path)
        print("invalid %s: at %s: %s" % (path, where or "the top", errors[0].message[:200]))
    else:
        print("valid " + path)
