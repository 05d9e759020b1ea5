"""Raise sites of exceptions outside the ``guardrail.errors.GuardrailError`` tree (issue 28's bar),
for :mod:`benchmarks.layout`.

Static (:mod:`ast`): a ``raise X(...)`` is resolved through the module's imports and the class
bases of every library module (re-exports followed). Bare ``raise`` and re-raising the name an
``except`` clause bound are not raise sites. Non-tree sites are sorted into the bar (``outside``)
and what it leaves aside: pydantic validators, the CLI's typer exits, a foreign protocol's
exception (:data:`PROTOCOL`), an exception raised inside its module's own ``ErrorMap`` boundary;
sites whose class is not known statically are listed to be read by hand.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchmarks.layout import Module

__all__ = ["raise_sites", "resolve_from", "PROTOCOL"]

ROOT_ERROR = "guardrail.errors.GuardrailError"
#: Raise sites a foreign protocol requires (the exception is the protocol's, the library's users
#: never see it): ``(path, exception): why``.
PROTOCOL = {
    ("guardrail/llm/deadline.py", "httpx.ReadTimeout"):
        "an httpx transport tells httpx that a read timed out (the openai client retries it; "
        "guardrail.llm.client maps what is left to LLMError)",
    ("guardrail/models/runtime.py", "ImportError"):
        "an import hook (MetaPathFinder.find_spec) refuses torch: Python's import protocol",
}
VALIDATORS = ("field_validator", "model_validator", "validator", "root_validator")


def resolve_from(mod: Module, node: ast.ImportFrom) -> str:
    """The absolute module name of a ``from ... import`` in ``mod`` (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    pkg = mod.name.split(".")
    is_pkg = mod.path.endswith("__init__.py")
    base = pkg if is_pkg else pkg[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _aliases(m: Module) -> dict[str, str]:
    out = {}
    for node in ast.walk(m.tree):
        if isinstance(node, ast.ImportFrom):
            base = resolve_from(m, node)
            out.update({a.asname or a.name: f"{base}.{a.name}" for a in node.names})
        elif isinstance(node, ast.Import):
            out.update({a.asname: a.name for a in node.names if a.asname})
            out.update({a.name.split(".")[0]: a.name.split(".")[0] for a in node.names if not a.asname})
    for node in m.tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = f"{m.name}.{node.name}"
    return out


def _dotted(expr: ast.expr, aliases: dict[str, str]) -> str | None:
    if isinstance(expr, ast.Name):
        if expr.id in aliases:
            return aliases[expr.id]
        return f"builtins.{expr.id}" if isinstance(getattr(builtins, expr.id, None), type) else None
    if isinstance(expr, ast.Attribute):
        head = _dotted(expr.value, aliases)
        return f"{head}.{expr.attr}" if head else None
    return None


class _Classes:
    """Class bases across the library, with re-exports followed (``guardrail.X`` -> its definition)."""

    def __init__(self, mods: dict[str, Module]) -> None:
        self.aliases = {name: _aliases(m) for name, m in mods.items()}
        self.bases: dict[str, list[str]] = {}
        for m in mods.values():
            for node in ast.walk(m.tree):
                if isinstance(node, ast.ClassDef):
                    self.bases[f"{m.name}.{node.name}"] = [
                        b for b in (_dotted(x, self.aliases[m.name]) for x in node.bases) if b]

    def canonical(self, dotted: str) -> str:
        for _ in range(8):
            mod, _, name = dotted.rpartition(".")
            nxt = self.aliases.get(mod, {}).get(name)
            if nxt is None or nxt == dotted or dotted in self.bases:
                return dotted
            dotted = nxt
        return dotted

    def in_tree(self, dotted: str, depth: int = 0) -> bool:
        dotted = self.canonical(dotted)
        if dotted == ROOT_ERROR:
            return True
        return depth < 20 and any(self.in_tree(b, depth + 1) for b in self.bases.get(dotted, ()))

    def known(self, dotted: str) -> bool:
        dotted = self.canonical(dotted)
        return dotted in self.bases or dotted.startswith("builtins.") or not dotted.startswith("guardrail")


def _is_validator(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    names = [ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in fn.decorator_list]
    return any(n.split(".")[-1] in VALIDATORS for n in names)


def _local_classes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr]:
    """Names of ``fn`` whose exception class is known: a parameter annotated ``type[X]``, or a name
    assigned ``X(...)``."""
    out: dict[str, ast.expr] = {}
    for arg in fn.args.args + fn.args.kwonlyargs:
        ann = arg.annotation
        if isinstance(ann, ast.Subscript) and ast.unparse(ann.value) == "type":
            out[arg.arg] = ann.slice
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and ast.unparse(node.value.func).split(".")[-1][:1].isupper():
            out[node.targets[0].id] = node.value.func
    return out


Site = tuple[ast.Raise, frozenset[str], bool, dict[str, ast.expr]]


def _raises(tree: ast.AST) -> Iterator[Site]:
    """Raise nodes, with the names bound by enclosing ``except ... as``, whether a pydantic validator
    encloses them and the enclosing function's names of known class."""
    def visit(node: ast.AST, bound: frozenset[str], validator: bool, local: dict[str, ast.expr]) -> Iterator[Site]:
        for child in ast.iter_child_nodes(node):
            b, v, loc = bound, validator, local
            if isinstance(child, ast.ExceptHandler) and child.name:
                b = bound | {child.name}
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                v, loc = validator or _is_validator(child), _local_classes(child)
            if isinstance(child, ast.Raise):
                yield child, b, v, loc
            yield from visit(child, b, v, loc)
    yield from visit(tree, frozenset(), False, {})


def _mapped(m: Module) -> set[str]:
    """The foreign exceptions that the module's own boundary table (``X: ErrorMap = {...}``) maps."""
    return {ast.unparse(k) for node in ast.walk(m.tree)
            if isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) == "ErrorMap"
            and isinstance(node.value, ast.Dict) for k in node.value.keys if k is not None}


def _category(m: Module, target: ast.expr, validator: bool) -> str:
    """Where a non-tree raise site is listed: ``cli``, ``protocol``, ``mapped``, ``validators`` or
    ``outside`` (the bar)."""
    name = ast.unparse(target)
    if m.path.startswith("guardrail/cli/") and name.startswith("typer."):
        return "cli"
    if (m.path, name) in PROTOCOL:
        return "protocol"
    if name in _mapped(m):
        return "mapped"
    return "validators" if validator else "outside"


def raise_sites(mods: dict[str, Module]) -> dict[str, list[str]]:
    """Raise sites of non-tree exceptions by category (see :func:`_category`), and ``unresolved`` ones;
    ``path:line exception`` per site."""
    classes = _Classes(mods)
    out: dict[str, list[str]] = {k: [] for k in ("outside", "validators", "cli", "protocol", "mapped", "unresolved")}
    for m in mods.values():
        for node, bound, validator, local in _raises(m.tree):
            if node.exc is None:
                continue
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(target, ast.Name) and target.id in local:
                target = local[target.id]
            elif isinstance(target, ast.Name) and target.id in bound:
                continue  # re-raising what an except clause caught
            dotted = _dotted(target, classes.aliases[m.name])
            where = f"{m.path}:{node.lineno} {ast.unparse(target)}"
            if dotted is None or not classes.known(dotted):
                out["unresolved"].append(where)
            elif not classes.in_tree(dotted):
                out[_category(m, target, validator)].append(where)
    return out
