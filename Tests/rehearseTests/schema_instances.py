"""Generates scenario files from `rehearse schema` itself and asks `rehearse validate` about each
one the schema accepts: where the loader refuses, the reason must be one that a JSON Schema cannot
express. Mutating the bundled files (schema_mutations.py) stays near what they hold; instances
drawn from the schema reach every key, enum value and limit it allows.

usage: schema_instances.py REHEARSE SCHEMA SEED COUNT
Draws candidates by walking the schema (a random branch of each oneOf and anyOf, the required keys
and some optional ones, numbers at and between the bounds, strings from a pool that the patterns
filter), keeps the first COUNT the schema accepts (jsonschema, Draft 7), writes each as JSON (which
YAML 1.2 reads as JSON readers do), then prints one line per file the loader refuses:
    loader-only FILE: MESSAGE
and a last line: "N instances: A accepted by both, L loader-only (of T candidates)"."""

import json
import os
import random
import re
import sys
import tempfile

import jsonschema

from schema_mutations import loader_verdicts

# Strings the generator tries, in this order of preference for a pattern or a length.
STRINGS = ["title", "username", "password", "field", "login", "scroll", "a", "tap", "frame.y", "title.frame.y",
           "alpha", "time >= 0", "title.alpha == 1", "shot", "main", "H:|-[title]-|", "ok", "keyboard", "root", ""]
# Keys never drawn: a command plugin's program would run (`validate` starts it).
NEVER = {"command", "directory", "deadline", "reads"}
# Keys of mappings whose keys the schema leaves open (fields, paths, plugin configurations).
KEYS = ["title.alpha", "username.frame.y", "x", "y", "target", "value", "online", "section"]


class Generator:
    def __init__(self, schema, rng):
        self.root, self.rng = schema, rng

    def resolve(self, schema):
        while "$ref" in schema:
            schema = self.root["definitions"][schema["$ref"].rsplit("/", 1)[1]]
        return schema

    def value(self, schema, depth=0):
        schema = self.resolve(schema)
        rng = self.rng
        if "enum" in schema:
            return rng.choice(schema["enum"])
        if "const" in schema:
            return schema["const"]
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return self.value(rng.choice(schema[key]), depth + 1)
        if "if" in schema and "type" not in schema:
            return self.value(rng.choice([schema.get("then", {}), schema.get("else", {})]), depth + 1)
        if "allOf" in schema and "type" not in schema:
            plain = [part for part in schema["allOf"] if "not" not in part]
            return self.value(rng.choice(plain) if plain else {}, depth + 1)
        kinds = schema.get("type", ["string", "number", "boolean"])
        kind = rng.choice(kinds) if isinstance(kinds, list) else kinds
        if depth > 8 and isinstance(kinds, list):
            kind = next((choice for choice in kinds if choice not in ("object", "array")), kind)
        return getattr(self, "a_" + kind)(schema, depth)

    def a_object(self, schema, depth):
        properties = schema.get("properties", {})
        required = schema.get("required", [])
        chosen = [key for key in properties
                  if key not in NEVER and (key in required or (depth < 8 and self.rng.random() < 0.4))]
        for key, needs in schema.get("dependencies", {}).items():
            if key in chosen:
                chosen += [need for need in needs if need not in chosen]
        result = {key: self.value(properties[key], depth + 1) for key in chosen}
        extra = schema.get("additionalProperties", True)
        if not properties and extra is not False and depth < 8:
            pattern = schema.get("propertyNames", {}).get("pattern")
            names = [key for key in KEYS if not pattern or re.search(pattern, key)]
            wanted = max(schema.get("minProperties", 0), self.rng.randint(0, 2))
            for key in self.rng.sample(names, min(wanted, len(names))):
                result[key] = self.value(extra if isinstance(extra, dict) else {}, depth + 1)
        for rule in schema.get("allOf", []):
            if "if" in rule and jsonschema.Draft7Validator(rule["if"]).is_valid(result):
                then = rule.get("then", {})
                for key, inner in then.get("properties", {}).items():
                    if key in result or key in then.get("required", []):
                        result[key] = self.value(inner, depth + 1)
        return result

    def a_array(self, schema, depth):
        low = schema.get("minItems", 0)
        high = min(schema.get("maxItems", low + 3), low + 3)
        if depth > 8:
            high = low
        return [self.value(schema.get("items", {}), depth + 1) for _ in range(self.rng.randint(low, high))]

    def a_string(self, schema, depth):
        pattern = schema.get("pattern")
        low, high = schema.get("minLength", 0), schema.get("maxLength", 10_000)
        pool = [text for text in STRINGS if low <= len(text) <= high and (not pattern or re.search(pattern, text))]
        if not pool:
            pool = ["a" * max(low, 1)]
        return self.rng.choice(pool)

    def a_number(self, schema, depth):
        low, high = schema.get("minimum", -1e6), schema.get("maximum", 1e6)
        picks = [low, high, 0, 0.5, 1, 2.5, 10, 100, 320, self.rng.uniform(max(low, -1e3), min(high, 1e3))]
        return self.rng.choice([pick for pick in picks if low <= pick <= high] or [low])

    def a_integer(self, schema, depth):
        low, high = schema.get("minimum", -1000), schema.get("maximum", 1000)
        picks = [low, high, 0, 1, 2, 3, 10, self.rng.randint(max(low, -100), min(high, 100))]
        return int(self.rng.choice([pick for pick in picks if low <= pick <= high] or [low]))

    def a_boolean(self, schema, depth):
        return self.rng.random() < 0.5

    def a_null(self, schema, depth):
        return None


def main():
    rehearse, schema_file, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open(schema_file) as file:
        schema = json.load(file)
    validator = jsonschema.Draft7Validator(schema)
    generator = Generator(schema, random.Random(seed))
    candidates = 0
    with tempfile.TemporaryDirectory() as folder:
        files = []
        while len(files) < count and candidates < count * 200:
            candidates += 1
            instance = generator.value(schema)
            if not validator.is_valid(instance):
                continue
            file = os.path.join(folder, "%05d.yaml" % len(files))
            with open(file, "w") as out:
                json.dump(instance, out)
            files.append(file)
        refused = {}
        for start in range(0, len(files), 200):
            refused.update(loader_verdicts(rehearse, files[start:start + 200]))
        for file in files:
            if file in refused:
                print("loader-only %s: %s" % (os.path.basename(file), refused[file]))
    print("%d instances: %d accepted by both, %d loader-only (of %d candidates)"
          % (len(files), len(files) - len(refused), len(refused), candidates))


if __name__ == "__main__":
    main()
