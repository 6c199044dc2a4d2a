"""The files a model spec reads, so a sweep can check every worker sees them before scoring.

Why here and not in engine.models.specs: only a sweep needs to know the paths without loading
the model (on a cluster, the client may not have the files at all)."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from engine.models.specs import parse_spec

# spec options that name files besides the target (docs/models.md)
_PATH_OPTIONS = ("encoder", "vectors")


def spec_paths(spec: str) -> list[str]:
    """Local paths ``spec`` needs. An ``hf-classifier:`` target that is neither absolute, nor
    relative (``./``, ``~``), nor an existing folder here is a hub id (read from the workers' own
    Hugging Face cache) and is left out."""
    kind, target, opts = parse_spec(spec)
    out = []
    if target and (kind != "hf-classifier" or _looks_like_path(target)):
        out.append(target)
    out.extend(opts[k] for k in _PATH_OPTIONS if opts.get(k) and _looks_like_path(opts[k]))
    return [str(Path(p).expanduser()) for p in out]


def _looks_like_path(text: str) -> bool:
    p = Path(text).expanduser()
    return p.is_absolute() or text.startswith((".", "~")) or p.exists()


def with_base(spec: str, base: Path) -> str:
    """``spec`` with relative file paths made absolute against ``base`` (the plan file's folder),
    when that file exists there: workers run elsewhere, with another working directory."""
    kind, target, opts = parse_spec(spec)
    body, _, _query = spec.strip().partition("?")

    def absolute(text: str) -> str:
        p = Path(text).expanduser()
        return str((base / p).resolve()) if not p.is_absolute() and (base / p).exists() else text

    changed = {k: absolute(opts[k]) for k in _PATH_OPTIONS if opts.get(k)}
    if target:
        new_target = absolute(target)
        body = f"{kind}:{new_target}" if body.startswith(f"{kind}:") else new_target
    if not opts:
        return body
    return f"{body}?{urlencode({**opts, **changed}, safe=':/,')}"


def with_options(spec: str, options: dict[str, str]) -> str:
    """``spec`` with plan-wide model options added where the spec does not set them itself."""
    if not options:
        return spec
    _kind, _target, opts = parse_spec(spec)
    body, _, _query = spec.strip().partition("?")
    merged = {**options, **opts}
    return f"{body}?{urlencode(merged, safe=':/,')}"
