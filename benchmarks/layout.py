"""Layout measurements of issue 28: module and function sizes, import circles, arrows up, raise sites,
and the walk of ``answer`` through ``Guard.check``.

Static part (stdlib :mod:`ast` and :mod:`tokenize` only; nothing is imported), over ``guardrail/`` and
the adapter packages ``integrations/*/<package>/``:

* modules over 400 lines (physical lines);
* functions over 50 lines of code: lines holding a token other than a comment, a blank or a docstring
  (a nested function's lines count in its outer function too);
* import circles among the library's modules, as grimp draws them: ``from a.b import c`` is an arrow
  to ``a.b.c`` when that is a module, else to ``a.b``; parent packages are not implied. Imports under
  ``if TYPE_CHECKING:`` are left out. **Module-level** circles (imports that run when the module is
  imported, also inside ``try``/``if`` at module level or a class body) are the bar; circles closed only
  by a lazy import inside a function are reported apart, for information;
* arrows from ``guardrail.text``, ``guardrail.llm``, ``guardrail.models`` to a later pipeline step, i.e.
  to any library module outside those three and the foundation modules (:data:`FOUNDATION`);
  module-level and in-function imports both count, type-only ones are listed apart;
* raise sites of exceptions not derived from ``guardrail.errors.GuardrailError``
  (:mod:`benchmarks.layout_raises`).

Dynamic part (``--walk``, loads the default guard's models): the walk of ``answer`` through one
``Guard.check`` (:mod:`benchmarks.layout_walk`).

Usage: ``python benchmarks/layout.py [--walk] [--out benchmarks/results/layout.md]``.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.layout_raises import raise_sites, resolve_from  # noqa: E402
from benchmarks.layout_walk import WALK_ROW, answer_walks  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "layout.md"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 50
#: The low layers: nothing in them may import a later pipeline step.
LOW = ("guardrail.text", "guardrail.llm", "guardrail.models")
#: Modules below every pipeline step (the low layers may import them).
FOUNDATION = ("guardrail.errors", "guardrail.types", "guardrail._optional", "guardrail._frozen",
              "guardrail._lazy", "guardrail._model_files") + LOW
@dataclass(frozen=True)
class Module:
    """One library module: dotted name, path (relative to the repository) and parsed tree."""

    name: str
    path: str
    source: str
    tree: ast.Module

    @property
    def lines(self) -> int:
        """Physical lines."""
        return len(self.source.splitlines())


@dataclass(frozen=True)
class Import:
    """An arrow ``src -> dst`` at ``line``; ``kind`` is ``module``, ``function`` or ``type``."""

    src: str
    dst: str
    line: int
    kind: str


def _package_roots(root: Path) -> list[Path]:
    return [root / "guardrail"] + sorted(p.parent for p in root.glob("integrations/*/*/__init__.py"))


def load_modules(root: Path = ROOT) -> dict[str, Module]:
    """Every module of ``guardrail/`` and of the adapter packages, by dotted name."""
    out: dict[str, Module] = {}
    for pkg in _package_roots(root):
        for path in sorted(pkg.rglob("*.py")):
            parts = list(path.relative_to(pkg.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            src = path.read_text(encoding="utf-8")
            name = ".".join(parts)
            out[name] = Module(name, str(path.relative_to(root)), src, ast.parse(src, str(path)))
    return out


# ------------------------------------------------------------------ sizes
def _docstring_lines(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return out


def code_lines(source: str, tree: ast.AST) -> set[int]:
    """Line numbers holding code: a token other than a comment or a line break, outside docstrings."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER}
    lines: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in skip:
            lines.update(range(tok.start[0], tok.end[0] + 1))
    return lines - _docstring_lines(tree)


def long_modules(mods: dict[str, Module], limit: int = MAX_MODULE_LINES) -> list[tuple[str, int]]:
    """``(path, lines)`` of the modules over ``limit`` lines, longest first."""
    return sorted(((m.path, m.lines) for m in mods.values() if m.lines > limit), key=lambda p: -p[1])


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def long_functions(mods: dict[str, Module], limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, str, int]]:
    """``(path:line, qualified name, code lines)`` of the functions over ``limit`` lines of code."""
    out = []
    for m in mods.values():
        code = code_lines(m.source, m.tree)
        for qual, fn in _functions(m.tree):
            n = sum(1 for i in range(fn.lineno, (fn.end_lineno or fn.lineno) + 1) if i in code)
            if n > limit:
                out.append((f"{m.path}:{fn.lineno}", qual, n))
    return sorted(out, key=lambda r: -r[2])


# ------------------------------------------------------------------ imports
def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk_kinds(node: ast.AST, kind: str = "module") -> Iterator[tuple[ast.AST, str]]:
    """Every node with the kind of import it would be: ``type`` > ``function`` > ``module``."""
    for child in ast.iter_child_nodes(node):
        k = kind
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and kind == "module":
            k = "function"
        yield child, k
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for sub in child.body:
                yield sub, "type"
                yield from _walk_kinds(sub, "type")
            for sub in child.orelse:
                yield sub, k
                yield from _walk_kinds(sub, k)
        else:
            yield from _walk_kinds(child, k)


def _targets(mod: Module, node: ast.AST, known: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
        base = resolve_from(mod, node)
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    else:
        return []
    out = []
    for name in names:
        parts = name.split(".")
        while parts and ".".join(parts) not in known:
            parts.pop()
        if parts and ".".join(parts) != mod.name:
            out.append(".".join(parts))
    return out


def imports(mods: dict[str, Module]) -> list[Import]:
    """Every arrow between library modules, with its kind (``module``, ``function``, ``type``)."""
    known = set(mods)
    out = []
    for m in mods.values():
        for node, kind in _walk_kinds(m.tree):
            for dst in dict.fromkeys(_targets(m, node, known)):
                out.append(Import(m.name, dst, getattr(node, "lineno", 0), kind))
    return out


def _sccs(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(graph.get(w, ())))))
            elif w in on:
                low[v] = min(low[v], index[w])
    return sorted(out)


def cycles(arrows: list[Import], kinds: tuple[str, ...]) -> list[list[str]]:
    """The import circles (modules of each strongly connected component) over arrows of ``kinds``."""
    graph: dict[str, set[str]] = {}
    for a in arrows:
        if a.kind in kinds:
            graph.setdefault(a.src, set()).add(a.dst)
    return _sccs(graph)


def upward(arrows: list[Import]) -> list[Import]:
    """Arrows from a low layer (:data:`LOW`) to a module outside :data:`FOUNDATION`."""
    def under(name: str, roots: tuple[str, ...]) -> bool:
        return any(name == r or name.startswith(r + ".") for r in roots)

    return [a for a in arrows if under(a.src, LOW) and a.dst.startswith("guardrail")
            and not under(a.dst, FOUNDATION)]


# ------------------------------------------------------------------ report
def measure(root: Path = ROOT) -> dict[str, Any]:
    """Every static measurement, as plain data."""
    mods = load_modules(root)
    arrows = imports(mods)
    module_level = cycles(arrows, ("module",))
    with_lazy = [c for c in cycles(arrows, ("module", "function")) if c not in module_level]
    return {"modules": len(mods), "long_modules": long_modules(mods), "long_functions": long_functions(mods),
            "cycles": module_level, "lazy_cycles": with_lazy,
            "type_cycles": [c for c in cycles(arrows, ("module", "function", "type"))
                            if c not in module_level and c not in with_lazy],
            "arrows": arrows, "upward": upward(arrows), "raises": raise_sites(mods)}


def _cycle_lines(comps: list[list[str]], arrows: list[Import], kinds: tuple[str, ...]) -> list[str]:
    out = []
    for comp in comps:
        inner = [a for a in arrows if a.src in comp and a.dst in comp and a.kind in kinds]
        out.append(f"- {' , '.join(comp)}: " + "; ".join(f"{a.src} -> {a.dst} (l.{a.line}, {a.kind})"
                                                         for a in inner))
    return out or ["- none"]


def render(r: dict[str, Any], walk: dict[str, dict[str, Any]] | None) -> str:
    """The Markdown report."""
    lines = ["# Layout (issue 28 bars)", "", f"Generated by `python benchmarks/layout.py{' --walk' if walk else ''}`"
             f" over {r['modules']} modules of `guardrail/` and `integrations/*/<package>/`.", "",
             f"## Modules over {MAX_MODULE_LINES} lines: {len(r['long_modules'])}"]
    lines += [f"- {p}: {n}" for p, n in r["long_modules"]] or ["- none"]
    lines += ["", f"## Functions over {MAX_FUNCTION_LINES} lines of code: {len(r['long_functions'])}"]
    lines += [f"- {w} `{q}`: {n}" for w, q, n in r["long_functions"]] or ["- none"]
    lines += ["", f"## Module-level import circles (the bar): {len(r['cycles'])}"]
    lines += _cycle_lines(r["cycles"], r["arrows"], ("module",))
    lines += ["", f"## Circles closed only by in-function (lazy) imports: {len(r['lazy_cycles'])}"]
    lines += _cycle_lines(r["lazy_cycles"], r["arrows"], ("module", "function"))
    lines += ["", f"## Circles closed only by `if TYPE_CHECKING:` imports (aside): {len(r['type_cycles'])}"]
    lines += _cycle_lines(r["type_cycles"], r["arrows"], ("module", "function", "type"))
    up = r["upward"]
    lines += ["", f"## Arrows from text/, llm/, models/ to a later step: "
              f"{sum(a.kind != 'type' for a in up)} (+{sum(a.kind == 'type' for a in up)} type-only)"]
    lines += [f"- {a.src} -> {a.dst} (l.{a.line}, {a.kind})" for a in up] or ["- none"]
    rs = r["raises"]
    lines += ["", f"## Raise sites of exceptions outside the GuardrailError tree: {len(rs['outside'])}"]
    lines += [f"- {s}" for s in rs["outside"]] or ["- none"]
    for key, title in (("validators", "In pydantic validators (allowed)"),
                       ("cli", "The CLI's exits and usage errors (typer's interface, `guardrail/cli/`)"),
                       ("protocol", "Required by a foreign protocol (`PROTOCOL` in this script says why)"),
                       ("mapped", "Raised inside the module's own boundary, whose `ErrorMap` maps it to the tree"),
                       ("unresolved", "Not resolvable statically (read by hand)")):
        lines += ["", f"{title}: {len(rs[key])}"]
        lines += [f"- {s}" for s in rs[key]] or ["- none"]
    if walk:
        worst = max(w["core"]["returns"] for w in walk.values())
        lines += ["", f"## The walk of `answer` through `Guard.check`: {worst} returns (the worse of two answers)",
                  "", "The check's own code: the answer's stays in the files of the calls it is handed to, a part"
                  " (extractor, detector, explainer) counted where it is entered, not followed inside; then the"
                  " walk that follows the parts too (the issue's second count)."]
        for kind, w in walk.items():
            for which in ("core", "parts"):
                c = w[which]
                lines += ["", f"{kind} answer of row {WALK_ROW} of `examples/data/halueval_qa_head.jsonl` "
                          f"(passed={w['passed']}), {'the check' if which == 'core' else 'following the parts'}: "
                          f"{len(c['stays'])} stays in {c['files']} files, {c['returns']} returns to a file "
                          f"already left:", "", " -> ".join(Path(f).name for f in c["stays"])]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walk", action="store_true", help="also trace one check (loads the models)")
    ap.add_argument("--out", default=str(OUT))
    a = ap.parse_args()
    walk = None
    if a.walk:
        import json

        head = ROOT / "examples" / "data" / "halueval_qa_head.jsonl"
        walk = answer_walks(json.loads(head.read_text(encoding="utf-8").splitlines()[WALK_ROW]), ROOT)
    text = render(measure(), walk)
    Path(a.out).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
