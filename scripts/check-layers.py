#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""No import circle between the library's modules (docs/ARCHITECTURE.md).

A module is a source file and its own headers, in one folder of lib/: the
module lib/rings/fill is lib/rings/fill.c with lib/rings/fill.h, the module
lib/socket is lib/socket.c with lib/socket_internal.h; a header alone
(lib/backend.h) or a source alone (lib/burst.c) is a module too. A header
belongs to its module and, besides, to every module whose functions it
declares (a function belongs to the module whose source defines it): a
header that declares another file's functions is that file's header too.
A module imports another when one of its files includes (#include "...")
a header of the other. A quoted name is looked up as the compiler does for
lib/'s targets: beside the including file, then from lib/; what resolves to
nothing under lib/ (bpf/'s headers, the generated BPF object, <xskx/...>)
is outside the graph.

The check fails when
  - modules import each other in a circle, naming it (a -> b -> a): there
    is no exception (lib/sim's last circle went with issue 19; where two
    steps must call each other, one calls through a function pointer that
    the upper one sets, as the wire reaches a port's receive);
  - the core (lib/, lib/frames/, lib/rings/) imports a backend (lib/kernel/,
    lib/sim/): the core reaches a backend through its ops table only;
  - a backend imports the other: lib/kernel/ is part of libxskx, lib/sim/
    is libxskx-sim, a library of its own built on libxskx, which reaches
    the core through libxskx.map's private node only (docs/ARCHITECTURE.md,
    "The simulator's seam");
  - a layer imports one above it: lib/frames/ imports lib/rings/, or
    lib/frames/ or lib/rings/ imports a module of lib/ itself that imports
    lib/frames/ or lib/rings/ (directly or not), that is one of the APIs
    and the control path built on them rather than a rule or a service
    below them.

Usage: scripts/check-layers.py [ROOT]   (ROOT: the source tree, default .)
       scripts/check-layers.py --graph [ROOT]   prints the imports
"""
import os
import re
import sys

BACKENDS = ("lib/kernel/", "lib/sim/")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def module_of(path):
    """lib/rings/fill.c and lib/rings/fill.h -> lib/rings/fill;
    lib/socket_internal.h -> lib/socket."""
    stem, _ = os.path.splitext(path)
    if stem.endswith("_internal"):
        stem = stem[: -len("_internal")]
    return stem


def sources(root):
    for folder, _, files in os.walk(os.path.join(root, "lib")):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(folder, name), root)


def resolve(root, including, name):
    for base in (os.path.dirname(including), "lib"):
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, path)):
            return path
    return None


COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
PREPROCESSOR = re.compile(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", re.MULTILINE)
CALLED = re.compile(r"(\w+)\s*\(")
NOT_NAMES = {"__attribute__", "__typeof__", "sizeof", "if", "while", "for",
             "switch", "return"}


def file_scope(text):
    """The file-scope statements of C text: (statement, has_body), a
    statement ending at a ';' or at the '{' of a body, bodies skipped."""
    text = PREPROCESSOR.sub("", COMMENT.sub(" ", text))
    depth, start = 0, 0
    for i, c in enumerate(text):
        if c == "{":
            if depth == 0:
                yield text[start:i], True
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0:
            yield text[start:i], False
            start = i + 1


def function_name(statement):
    """The function a file-scope statement declares or defines, or None:
    the first name before a '(' outside parentheses, attributes aside;
    None for static ones (the file's own), typedefs and variables."""
    words = statement.split()
    if not words or words[0] in ("static", "typedef") or "=" in statement:
        return None
    level = 0
    for i, c in enumerate(statement):
        if c == "(":
            if level == 0:
                m = re.search(r"(\w+)\s*$", statement[:i])
                if m and m.group(1) not in NOT_NAMES:
                    return m.group(1)
            level += 1
        elif c == ")":
            level -= 1
    return None


def import_graph(root):
    texts = {}
    for path in sources(root):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            texts[path] = f.read()
    defined_in = {}
    for path, text in texts.items():
        if path.endswith(".c"):
            for statement, body in file_scope(text):
                name = body and function_name(statement)
                if name:
                    defined_in[name] = module_of(path)
    owners = {}
    for path, text in texts.items():
        owners[path] = {module_of(path)}
        if path.endswith(".h"):
            for statement, body in file_scope(text):
                name = not body and function_name(statement)
                if name in defined_in:
                    owners[path].add(defined_in[name])
    graph = {}
    for path, text in texts.items():
        mod = module_of(path)
        graph.setdefault(mod, {})
        for name in INCLUDE.findall(text):
            target = resolve(root, path, name)
            if target is None:
                continue
            for dep in sorted(owners[target] - {mod}):
                graph[mod].setdefault(dep, f"{path} includes \"{name}\"")
    return graph


def circles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def a_circle(graph, component):
    """One circle through the component's first module, as a path."""
    start = min(component)
    path, seen = [start], {start}

    def walk(v):
        for w in sorted(graph[v]):
            if w == start:
                return True
            if w in component and w not in seen:
                seen.add(w)
                path.append(w)
                if walk(w):
                    return True
                path.pop()
        return False

    walk(start)
    return path + [start]


def describe(graph, component):
    path = a_circle(graph, component)
    steps = [f"    {a} -> {b}: {graph[a][b]}" for a, b in zip(path, path[1:])]
    return (" -> ".join(path) + "\n  (the circle's modules: " +
            ", ".join(sorted(component)) + ")\n" + "\n".join(steps))


LOW = ("lib/frames/", "lib/rings/")


def in_root(mod):
    return mod.startswith("lib/") and "/" not in mod[len("lib/"):]


def upward_imports(graph):
    """The imports of lib/frames and lib/rings that reach up (docstring)."""
    above = set()
    for mod in graph:
        if not in_root(mod):
            continue
        seen, todo = set(), [mod]
        while todo:
            for dep in graph.get(todo.pop(), {}):
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        if any(dep.startswith(LOW) for dep in seen):
            above.add(mod)
    errors = []
    for mod, deps in sorted(graph.items()):
        if not mod.startswith(LOW):
            continue
        for dep, why in sorted(deps.items()):
            if mod.startswith("lib/frames/") and dep.startswith("lib/rings/"):
                errors.append(f"frames import the ring runs above them: {mod} -> {dep}: {why}")
            elif dep in above:
                errors.append(f"{mod} imports {dep}, a layer above it (it imports lib/frames or lib/rings): {why}")
    return errors


def main(argv):
    show = "--graph" in argv
    args = [a for a in argv if a != "--graph"]
    root = args[0] if args else "."
    graph = import_graph(root)
    if show:
        for mod in sorted(graph):
            print(f"{mod}: {' '.join(sorted(graph[mod]))}")
        return 0
    errors = []
    found = circles(graph)
    for component in found:
        errors.append("import circle: " + describe(graph, component))
    for mod, deps in sorted(graph.items()):
        own = next((b for b in BACKENDS if mod.startswith(b)), None)
        for dep, why in sorted(deps.items()):
            other = next((b for b in BACKENDS if dep.startswith(b)), None)
            if other is None or other == own:
                continue
            if own is None:
                errors.append(f"the core imports a backend: {mod} -> {dep}: {why}")
            else:
                errors.append(f"a backend imports the other (libxskx and libxskx-sim are separate libraries): {mod} -> {dep}: {why}")
    errors += upward_imports(graph)
    for e in errors:
        print(e, file=sys.stderr)
    edges = sum(len(d) for d in graph.values())
    print(f"{len(graph)} modules, {edges} imports, {len(found)} circle(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
