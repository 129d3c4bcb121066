#!/usr/bin/env python3
"""Layering check of src/ (issue 21): the folders of src/ include each other one way only.

Builds the folder graph from every `#include "..."` in src/**/* and include/pqsig/*.hpp:
  - "folder/x.hpp"   (internal header)  -> that src folder
  - "pqsig/x.hpp"    (public header)    -> the src folder that implements it (OWNER below)
  - "x.hpp"          (bare)             -> the includer's own folder
A public header's own includes count as edges of its owning folder.

Fails (exit 1), naming the files, on
  - a public header missing from OWNER (classify every new header),
  - an include of a src folder missing from LAYERS,
  - an edge against LAYERS (a folder may include only folders in LOWER layers, or a same-layer
    folder listed in SIDEWAYS),
  - any cycle between folders.
Edges listed in KNOWN are reported but tolerated (each with its reason) at exactly the include
sites listed there; a new site, or a listed site or edge that no longer occurs, is an error too,
so the list only shrinks.
Prints the graph on success.  Usage: check-layering.py [--strict] [repo-root]
(--strict ignores KNOWN: shows what is left to fix.)
"""
import os
import re
import sys

# Layers, lowest first: a folder may include folders of lower layers (and its own).
# The order of the project brief (DEVELOPERS.md): hash <- {mldsa, mlkem, slhdsa, lms, xmss};
# {those, classical, kem} <- suites <- providers <- {jose, sf/httpsig, ledger} <- {price, serve,
# client} <- tools (tools/ is not a src folder); common is below everything.
LAYERS = [
    ["common"],
    ["hash"],
    ["mldsa", "mlkem", "slhdsa", "lms", "xmss", "classical"],  # primitives; classical knows no suite
    ["kem"],                                           # hybrid KEM: mlkem + classical X25519/HKDF
    ["suites"],
    ["providers"],
    ["jose", "sf", "httpsig", "ledger", "canonical", "keys"],
    ["price", "serve", "client"],
]

# Same-layer edges that are allowed (the cycle check still applies to them).
SIDEWAYS = {
    ("sf", "jose"): "sf_json parses with the strict JSON reader jose/json_strict.hpp",
    ("httpsig", "jose"): "Web Bot Auth key directories are JWK sets",
    ("httpsig", "sf"): "HTTP message signatures are built on structured fields",
    ("keys", "jose"): "key files read and write JWKs",
    ("keys", "canonical"): "key fingerprints are canonical encodings",
    ("ledger", "jose"): "ledger items and batch requests are read with the strict JSON reader jose/json_strict.hpp",
    ("serve", "client"): "the proxy and directory cache fetch through the client",
    ("xmss", "lms"): "XMSS signs through the one never-reuse state store of LMS/HSS (lms::StateStore)",
}

# Edges against LAYERS that exist today and are tolerated until fixed, each with the only include
# sites allowed to carry it (a new file or include along the same edge fails). Keep this short;
# a new entry needs the lead's consent.
KNOWN = {
}

# Every public header and the src folder that implements it.
OWNER = {
    "build_info.hpp": "common",
    "canonical.hpp": "canonical",
    "classical.hpp": "classical",
    "classical_suites.hpp": "suites",
    "client.hpp": "client",
    "common.hpp": "common",
    "cose.hpp": "jose",
    "composite.hpp": "suites",
    "hash.hpp": "hash",
    "hbs_fleet.hpp": "client",
    "httpsig.hpp": "httpsig",
    "jose.hpp": "jose",
    "kem.hpp": "kem",
    "keys.hpp": "keys",
    "ledger.hpp": "ledger",
    "lms.hpp": "lms",
    "mldsa.hpp": "mldsa",
    "mlkem.hpp": "mlkem",
    "price.hpp": "price",
    "price_engines.hpp": "price",
    "price_ledger.hpp": "price",
    "price_tls.hpp": "price",
    "provider.hpp": "providers",
    "serve.hpp": "serve",
    "sf.hpp": "sf",
    "slhdsa.hpp": "slhdsa",
    "stateful_key.hpp": "suites",
    "suite.hpp": "suites",
    "webbotauth.hpp": "httpsig",
    "xmss.hpp": "xmss",
}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_EXT = (".cpp", ".hpp", ".h", ".cc", ".inc")


def main(root):
    src = os.path.join(root, "src")
    inc = os.path.join(root, "include", "pqsig")
    rank = {f: i for i, layer in enumerate(LAYERS) for f in layer}
    errors = []
    edges = {}  # (from, to) -> [file: include, ...]
    sites = {}  # (from, to) -> {(file, include)}

    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for f in folders:
        if f not in rank:
            errors.append(f"src/{f}/: folder missing from LAYERS in scripts/check-layering.py")

    files = []  # (owning folder, display path, absolute path)
    for f in folders:
        for dirpath, _, names in os.walk(os.path.join(src, f)):
            for n in sorted(names):
                if n.endswith(SOURCE_EXT):
                    p = os.path.join(dirpath, n)
                    files.append((f, os.path.relpath(p, root), p))
    for n in sorted(os.listdir(inc)):
        if not n.endswith(".hpp"):
            continue
        if n not in OWNER:
            errors.append(f"include/pqsig/{n}: public header missing from OWNER in scripts/check-layering.py")
            continue
        files.append((OWNER[n], f"include/pqsig/{n}", os.path.join(inc, n)))

    for folder, shown, path in files:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                target = m.group(1)
                parts = target.split("/")
                if len(parts) == 1:
                    to = folder
                elif parts[0] == "pqsig" and len(parts) == 2:
                    if parts[1] not in OWNER:
                        errors.append(f"{shown}:{lineno}: includes {target}, missing from OWNER")
                        continue
                    to = OWNER[parts[1]]
                elif parts[0] in folders:
                    to = parts[0]
                else:
                    errors.append(f"{shown}:{lineno}: include \"{target}\" names no src folder or public header")
                    continue
                if to != folder:
                    edges.setdefault((folder, to), []).append(f"{shown}:{lineno} \"{target}\"")
                    sites.setdefault((folder, to), set()).add((shown, target))

    # Edges against the declared order.
    seen_known = set()
    for (a, b), where in sorted(edges.items()):
        if a not in rank or b not in rank:
            continue
        if rank[b] < rank[a] or ((a, b) in SIDEWAYS and rank[a] == rank[b]):
            continue
        if (a, b) in KNOWN:
            seen_known.add((a, b))
            extra = sorted(sites[(a, b)] - KNOWN[(a, b)][1])
            if extra:
                errors.append(f"{a} -> {b}: KNOWN edge (issue 21) at a new include site; do not add to it:\n    " +
                              "\n    ".join(f"{f} \"{t}\"" for f, t in extra))
            gone = sorted(KNOWN[(a, b)][1] - sites[(a, b)])
            if gone:
                errors.append(f"{a} -> {b}: KNOWN include site no longer occurs, remove it from KNOWN: " +
                              ", ".join(f"{f} \"{t}\"" for f, t in gone))
            continue
        kind = "same-layer edge not in SIDEWAYS" if rank[a] == rank[b] else "upward edge"
        errors.append(f"{a} -> {b}: {kind} (layers: {a}={rank[a]}, {b}={rank[b]}):\n    " + "\n    ".join(where))
    for k in sorted(set(KNOWN) - seen_known):
        errors.append(f"{k[0]} -> {k[1]}: listed in KNOWN but no longer occurs (or is now allowed): remove it")

    # Cycles between folders (Tarjan's strongly connected components), KNOWN edges included:
    # a tolerated edge must not hide a new loop, so a cycle is reported unless every edge
    # closing it is KNOWN.
    graph = {}
    for (a, b) in edges:
        graph.setdefault(a, set()).add(b)
    index, low, stack, on, sccs = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    for comp in sccs:
        inner = [(a, b) for (a, b) in sorted(edges) if a in comp and b in comp]
        # Without the KNOWN edges, is the component still cyclic? (then it is a new cycle)
        sub = {}
        for (a, b) in inner:
            if (a, b) not in KNOWN:
                sub.setdefault(a, set()).add(b)
        if not has_cycle(sub):
            continue  # cyclic only through KNOWN edges (already reported as tolerated)
        lines = []
        for (a, b) in inner:
            lines.append(f"  {a} -> {b}" + (" (KNOWN)" if (a, b) in KNOWN else "") + ":\n      " +
                         "\n      ".join(edges[(a, b)]))
        errors.append("cycle between folders " + ", ".join(comp) + ":\n" + "\n".join(lines))

    if errors:
        print("check-layering: FAILED", file=sys.stderr)
        for e in errors:
            print("  " + e, file=sys.stderr)
        return 1

    print("check-layering: OK, folder graph of src/ (layer: folder -> what it includes):")
    for i, layer in enumerate(LAYERS):
        for f in layer:
            outs = sorted(b for (a, b) in edges if a == f)
            marks = [b + (" [KNOWN, issue 21]" if (f, b) in KNOWN else "") for b in outs]
            print(f"  {i} {f:10} -> {', '.join(marks) if marks else '-'}")
    if KNOWN:
        print("tolerated edges (KNOWN):")
        for (a, b), (why, where) in sorted(KNOWN.items()):
            print(f"  {a} -> {b}: {why}: " + ", ".join(f"{f} \"{t}\"" for f, t in sorted(where)))
    return 0


def has_cycle(graph):
    state = {}

    def visit(v):
        state[v] = 1
        for w in graph.get(v, ()):
            s = state.get(w, 0)
            if s == 1 or (s == 0 and visit(w)):
                return True
        state[v] = 2
        return False

    return any(state.get(v, 0) == 0 and visit(v) for v in list(graph))


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--strict" in args:
        args.remove("--strict")
        KNOWN.clear()
    sys.exit(main(args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")))
