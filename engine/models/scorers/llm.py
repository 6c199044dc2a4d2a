"""Prompt-based scorers for local causal language models (a Hugging Face folder or a .gguf file).

How a score is made (docs/models.md, "Auditing a local LLM"): each sentence is put into a prompt
(resources/prompts, or the user's file), rendered with the tokenizer's chat template when it has
one (a plain "instruction … Answer:" text otherwise). One forward pass gives the next-token
distribution at the answer position; the probabilities of the prompt's label tokens ("0".."10",
or "negative"/"neutral"/"positive") are renormalised over the label set, and the score is their
expected value rescaled to [0, 1]. Nothing is sampled, so the scores are deterministic.

Why probabilities, not generated text: a sampled answer is a noisy, discretised draw from exactly
this distribution; the expected value keeps shifts that do not flip the most likely answer, which
is what a bias audit measures, and costs one forward pass with no decoding loop.

Speed: every prompt is [fixed prefix][sentence][fixed suffix]. The prefix (system text, chat
header, instruction) is run once and its key/value cache is expanded over each batch, so a batch
only computes the sentence and the few suffix tokens. Batches are length-sorted and left-padded
(the padding sits between the cached prefix and the sentence; position ids skip it), and the
language-model head is applied to the last positions only.

Labels that share their first token in a model's vocabulary (a tokenizer that writes "10" as
"1" "0") are told apart by reading one more position: the shared token is appended and
P("10") = P("1")·P("0" | "1"), P("1") = P("1")·(1 − Σ P(other continuations | "1")).
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.models.base import make_frame, stable_hash
from engine.models.batching import pad_batch, run_in_batches
from engine.models.device import DeviceInfo, PrecisionCheck, candidate_dtype, dtype_name, is_oom, select_device
from engine.models.errors import ModelError
from engine.models.fingerprint import file_sha256, folder_fingerprint
from engine.models.prompts import PLACEHOLDER, Prompt, select_prompts

SCORER_VERSION = "llm/1"
_MARKER = "@@EEC_TEXT_7f3a@@"  # stands for {text} while the chat template is rendered
#: Templates that print today's date (Llama 3.x: "Today Date: …") get this fixed one instead, so the
#: prompt — and the scores under one fingerprint — do not change from day to day.
FIXED_DATE = "26 Jul 2024"


@dataclass
class PreparedPrompt:
    """A prompt turned into token ids for one tokenizer (see the module docstring)."""

    prompt: Prompt
    mode: str  # "chat" or "plain"
    prefix_ids: list[int]
    suffix_ids: list[int]  # fixed tokens after the sentence, up to the answer position (+ the shared token)
    first_ids: list[int]  # per label: the token read at the answer position
    second_ids: list[int | None]  # per label in the shared-token group: the next token (None: the label ends)
    in_group: list[bool]
    group_token: int | None
    label_tokens: list[list[str]] = field(default_factory=list)  # for the manifest
    prefix_cache: Any = None

    def describe(self) -> dict[str, Any]:
        return {**self.prompt.as_dict(), "mode": self.mode, "prefix_tokens": len(self.prefix_ids),
                "suffix_tokens": len(self.suffix_ids), "label_tokens": self.label_tokens}


def weights_dtype(device: DeviceInfo, precision: str) -> Any:
    """The dtype the weights are loaded in: bf16 (fp16 without bf16) on CUDA for `auto`, fp32 on CPU.

    Why load in that dtype instead of autocasting fp32 weights as the encoder scorers do: an LLM's
    fp32 weights are the memory problem (7 B parameters = 28 GB); bf16 halves them.
    """
    import torch

    return candidate_dtype(device, precision) or torch.float32


def _dtype_kwarg() -> str:
    """from_pretrained's name for the dtype argument (`dtype` since transformers 4.56)."""
    import transformers

    major, minor = (int(x) for x in transformers.__version__.split(".")[:2])
    return "dtype" if (major, minor) >= (4, 56) else "torch_dtype"


def _common_prefix(seqs: list[list[int]]) -> list[int]:
    out: list[int] = []
    for column in zip(*seqs):
        if len(set(column)) != 1:
            break
        out.append(column[0])
    return out


class LLMScorer:
    """A local causal LM asked one prompt per dimension; scores in [0, 1] from label probabilities."""

    scale = (0.0, 1.0)

    def __init__(self, model: str | Path, *, prompts: list[Prompt] | None = None, prompt: str | list[str] | None = None,
                 task: str | list[str] | None = None, language: str | None = None,
                 prompt_file: str | Path | list[str | Path] | None = None, device: str | DeviceInfo | None = None,
                 precision: str = "auto", batch_size: int = 16, max_length: int = 256, allow_pickle: bool = False,
                 prefix_cache: bool = True, chat: bool | None = None, name: str | None = None):
        self.model_id = str(model)
        self.path, self.gguf = self._resolve(model)
        self.name = name or (self.path.stem if self.gguf else self.path.name)
        if prompts is None:
            ids = prompt.split(",") if isinstance(prompt, str) else prompt
            tasks = task.split(",") if isinstance(task, str) else task
            files = [prompt_file] if isinstance(prompt_file, (str, Path)) else prompt_file
            prompts = select_prompts(ids=[i.strip() for i in ids if i.strip()] if ids else None,
                                     tasks=[t.strip() for t in tasks if t.strip()] if tasks else None,
                                     language=language, files=files)
        if not prompts:
            raise ModelError(self.model_id, "no prompt to ask", field="prompt", fix="give prompt=ID or task=…")
        self.prompts = list(prompts)
        self.dimensions = [p.task for p in self.prompts]
        self.languages = sorted({p.language for p in self.prompts})
        self.precision = precision
        self.batch_size = int(batch_size)
        self.max_length = int(max_length)
        self.allow_pickle = allow_pickle
        self.use_prefix_cache = bool(prefix_cache)
        self.chat = chat
        self._device_arg = device
        self.device: DeviceInfo | None = device if isinstance(device, DeviceInfo) else None
        self._tok: Any = None
        self._model: Any = None
        self._dtype: Any = None
        self._prepared: list[PreparedPrompt] | None = None
        self._keep_logits: str | None = None
        self._fp: str | None = None
        self.label_mass: dict[str, dict[str, float]] = {}
        self.precision_check: PrecisionCheck | None = None

    # --- loading -----------------------------------------------------------------------------
    @staticmethod
    def _resolve(model: str | Path) -> tuple[Path, bool]:
        from engine.models.hf_loading import resolve_model_dir

        path = Path(model).expanduser()
        if path.suffix.lower() == ".gguf":
            if not path.is_file():
                raise ModelError(str(path), "GGUF file not found", fix="check the path")
            return path, True
        if path.is_file():
            raise ModelError(str(path), "is a file but not a .gguf model",
                             fix="give a model folder (config.json, *.safetensors, tokenizer) or a .gguf file")
        return resolve_model_dir(model), False

    def _ensure_device(self) -> DeviceInfo:
        if self.device is None:
            self.device = select_device(self._device_arg if isinstance(self._device_arg, str) else None)
        if self._dtype is None:
            self._dtype = weights_dtype(self.device, self.precision)
            self.precision_check = PrecisionCheck(self.precision, dtype_name(self._dtype_or_none()), None)
        return self.device

    def _dtype_or_none(self) -> Any:
        import torch

        return None if self._dtype == torch.float32 else self._dtype

    def _gguf_kwargs(self) -> dict[str, Any]:
        for module in ("gguf", "accelerate"):
            try:
                __import__(module)
            except ImportError:
                raise ModelError(str(self.path), f"reading .gguf files needs the '{module}' package",
                                 fix=f"pip install {module}") from None
        return {"gguf_file": self.path.name, "local_files_only": True}

    def load_tokenizer(self) -> Any:
        if self._tok is None:
            from engine.models.hf_loading import load_tokenizer, offline, quiet_transformers

            if self.gguf:
                offline()
                from transformers import AutoTokenizer

                try:
                    with quiet_transformers():
                        self._tok = AutoTokenizer.from_pretrained(str(self.path.parent), **self._gguf_kwargs())
                except ModelError:
                    raise
                except Exception as exc:
                    raise ModelError(str(self.path), f"cannot read the tokenizer in this GGUF file "
                                     f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]})",
                                     fix="use the model's Hugging Face folder instead") from None
            else:
                self._tok = load_tokenizer(self.path)
        return self._tok

    def load(self) -> "LLMScorer":
        if self._model is None:
            device = self._ensure_device()
            self.load_tokenizer()
            dtype_arg = {_dtype_kwarg(): self._dtype}
            if self.gguf:
                from engine.models.hf_loading import offline, quiet_transformers

                offline()
                from transformers import AutoModelForCausalLM

                try:
                    with quiet_transformers():
                        model = AutoModelForCausalLM.from_pretrained(str(self.path.parent), **self._gguf_kwargs(),
                                                                     **dtype_arg)
                except ModelError:
                    raise
                except Exception as exc:
                    raise ModelError(str(self.path), f"cannot load this GGUF model "
                                     f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]})",
                                     fix="transformers reads GGUF files of common architectures only "
                                         "(llama, mistral, qwen2, gemma, phi3, …); use the Hugging Face folder") from None
                model.eval()
            else:
                from engine.models.hf_loading import load_model

                model = load_model(self.path, "AutoModelForCausalLM", allow_pickle=self.allow_pickle, **dtype_arg)
            self._model = model.to(device.torch_device)
            params = inspect.signature(self._model.forward).parameters
            self._keep_logits = next((k for k in ("logits_to_keep", "num_logits_to_keep") if k in params), None)
        return self

    # --- prompts → token ids -------------------------------------------------------------------
    def _encode(self, text: str) -> list[int]:
        return list(self._tok(text, add_special_tokens=False)["input_ids"])

    def _render(self, prompt: Prompt) -> tuple[str, str, str]:
        """(mode, text before the sentence, text after it) for this tokenizer."""
        tok = self.load_tokenizer()
        user = prompt.user.replace(PLACEHOLDER, _MARKER)
        use_chat = bool(getattr(tok, "chat_template", None)) if self.chat is None else self.chat
        if use_chat and not getattr(tok, "chat_template", None):
            raise ModelError(str(self.path), "chat=1 was asked but the tokenizer has no chat template", field="chat",
                             fix="drop chat=1 (a plain prompt is then used)")
        if use_chat:
            variants = []
            if prompt.system:
                variants.append([{"role": "system", "content": prompt.system}, {"role": "user", "content": user}])
                variants.append([{"role": "user", "content": f"{prompt.system}\n\n{user}"}])  # no system role
            else:
                variants.append([{"role": "user", "content": user}])
            rendered, last_exc = None, None
            for messages in variants:
                try:
                    rendered = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                                       date_string=FIXED_DATE)
                    break
                except Exception as exc:  # noqa: BLE001 - e.g. a template that rejects the system role
                    last_exc = exc
            if rendered is None:
                raise ModelError(str(self.path), f"the chat template failed ({type(last_exc).__name__}: {last_exc})",
                                 fix="use chat=0 for a plain prompt")
            mode = "chat"
        else:
            head = f"{prompt.system}\n\n" if prompt.system else ""
            rendered = f"{head}{user}\n\n{prompt.answer}"
            mode = "plain"
        if rendered.count(_MARKER) != 1:
            raise ModelError(prompt.source or prompt.id, "the chat template dropped or repeated the sentence",
                             field="user", line=prompt.line, fix="use chat=0 for a plain prompt")
        before, after = rendered.split(_MARKER)
        return mode, before, after

    def _prepare(self, prompt: Prompt) -> PreparedPrompt:
        tok = self.load_tokenizer()
        mode, before, after = self._render(prompt)
        prefix = self._encode(before)
        if mode == "plain":  # the tokenizer's own leading specials (BOS); the chat template writes its own
            with_specials = list(tok(before or "x", add_special_tokens=True)["input_ids"])
            plain = self._encode(before or "x")
            lead = next((k for k in range(len(with_specials) - len(plain) + 1)
                         if with_specials[k:k + len(plain)] == plain), 0)
            prefix = with_specials[:lead] + prefix
        suffix = self._encode(after)
        sep = ""
        if mode == "plain" and prompt.answer and not prompt.answer[-1].isspace() and ord(prompt.answer[-1]) < 0x2E80:
            sep = " "
        seqs: list[list[int]] = []
        for label in prompt.labels:
            full = self._encode(after + sep + label)
            seq = full[len(suffix):] if full[:len(suffix)] == suffix else self._encode(sep + label)
            if not seq:
                raise ModelError(prompt.source or prompt.id, f"label {label!r} gives no tokens", field="labels",
                                 line=prompt.line)
            seqs.append(seq)
        # tokens every label starts with (e.g. a lone space piece) belong to the context
        shared = _common_prefix(seqs)[: min(len(s) for s in seqs) - 1]
        suffix = suffix + shared
        seqs = [s[len(shared):] for s in seqs]
        firsts = [s[0] for s in seqs]
        repeated = sorted({t for t in firsts if firsts.count(t) > 1})
        group = repeated[0] if repeated else None

        def clash(a: int, b: int) -> ModelError:
            return ModelError(prompt.source or prompt.id, f"labels {prompt.labels[a]!r} and {prompt.labels[b]!r} "
                              "cannot be told apart by their first two tokens in this model's vocabulary",
                              field="labels", line=prompt.line,
                              fix="use labels that differ in their first or second token for this model")

        if len(repeated) > 1:
            a = firsts.index(repeated[1])
            raise clash(a, firsts.index(repeated[1], a + 1))
        in_group = [group is not None and t == group for t in firsts]
        seconds: list[int | None] = [(s[1] if len(s) > 1 else None) if g else None for s, g in zip(seqs, in_group)]
        members = [j for j, g in enumerate(in_group) if g]
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                if seconds[members[x]] == seconds[members[y]]:
                    raise clash(members[x], members[y])
        if group is not None:
            suffix = suffix + [group]
        names = [tok.convert_ids_to_tokens(s[:2] if g else s[:1]) for s, g in zip(seqs, in_group)]
        return PreparedPrompt(prompt, mode, prefix, suffix, firsts, seconds, in_group, group, names)

    def rendered(self, text: str, prompt_index: int = 0) -> str:
        """The exact text the model reads for `text` (chat template applied), up to the answer position."""
        mode, before, after = self._render(self.prompts[prompt_index])
        return before + text + after

    def prepared(self) -> list[PreparedPrompt]:
        if self._prepared is None:
            self._prepared = [self._prepare(p) for p in self.prompts]
        return self._prepared

    def _sentence_ids(self, texts: list[str]) -> list[list[int]]:
        self.load_tokenizer()
        enc = self._tok(list(texts), add_special_tokens=False)["input_ids"]
        return [list(ids[: self.max_length]) for ids in enc]

    def lengths(self, texts: list[str]) -> list[int]:
        return [len(s) for s in self._sentence_ids(texts)]

    # --- the forward pass ----------------------------------------------------------------------
    def _prefix_cache(self, pp: PreparedPrompt) -> Any:
        import torch

        if pp.prefix_cache is None:
            ids = torch.tensor([pp.prefix_ids], dtype=torch.long, device=self.device.torch_device)
            with torch.inference_mode():
                out = self._model(input_ids=ids, use_cache=True)
            pp.prefix_cache = out.past_key_values
        return pp.prefix_cache

    def _expanded_cache(self, pp: PreparedPrompt, batch: int) -> Any:
        """The prefix cache repeated over a batch (a view where the cache allows it, else a copy)."""
        import copy

        cache = self._prefix_cache(pp)
        layers = getattr(cache, "layers", None)
        if layers and all(getattr(layer, "keys", None) is not None for layer in layers):
            from transformers import DynamicCache

            data = [(layer.keys.expand(batch, *layer.keys.shape[1:]),
                     layer.values.expand(batch, *layer.values.shape[1:])) for layer in layers]
            try:
                return DynamicCache(ddp_cache_data=data, config=self._model.config)
            except TypeError:  # an older transformers: copy instead
                pass
        fresh = copy.deepcopy(cache)
        fresh.batch_repeat_interleave(batch)
        return fresh

    def _forward(self, pp: PreparedPrompt, sentences: list[list[int]], use_cache: bool) -> Any:
        """Next-token log-probabilities at the last `reads` positions, shape (batch, reads, vocab)."""
        import torch

        reads = 2 if pp.group_token is not None else 1
        dev = self.device.torch_device
        pad = self._tok.pad_token_id if self._tok.pad_token_id is not None else (self._tok.eos_token_id or 0)
        cached = use_cache and len(pp.prefix_ids) > 0
        rows = [s + pp.suffix_ids for s in sentences] if cached else [pp.prefix_ids + s + pp.suffix_ids for s in sentences]
        batch = pad_batch(rows, pad, with_token_types=False, side="left")
        ids, mask = batch["input_ids"].to(dev), batch["attention_mask"].to(dev)
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        kwargs: dict[str, Any] = {}
        if self._keep_logits:
            kwargs[self._keep_logits] = reads
        with torch.inference_mode():
            if cached:
                start = len(pp.prefix_ids)
                kwargs["past_key_values"] = self._expanded_cache(pp, len(rows))
                mask = torch.cat([torch.ones((len(rows), start), dtype=mask.dtype, device=dev), mask], dim=1)
                positions = positions + start
            try:
                logits = self._model(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=cached,
                                     **kwargs).logits
            except Exception as exc:
                if not cached or is_oom(exc):
                    raise
                raise ModelError(str(self.path), f"this model's cache cannot be shared over a batch "
                                 f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]})", field="prefix_cache",
                                 fix="add prefix_cache=0 to the spec (same scores, slower)") from None
        return torch.log_softmax(logits[:, -reads:].float(), dim=-1)

    def _label_probs(self, pp: PreparedPrompt, sentences: list[list[int]], use_cache: bool) -> Any:
        """Per row: the label probabilities renormalised over the labels, then their raw total."""
        import torch

        logp = self._forward(pp, sentences, use_cache)
        first = logp[:, 0].exp()
        cols = []
        if pp.group_token is not None:
            after = logp[:, 1].exp()
            seconds = [s for s in pp.second_ids if s is not None]
            rest = (1.0 - after[:, seconds].sum(dim=1)).clamp(min=0.0) if seconds else torch.ones_like(first[:, 0])
        for j, tok in enumerate(pp.first_ids):
            if pp.in_group[j]:
                cont = after[:, pp.second_ids[j]] if pp.second_ids[j] is not None else rest
                cols.append(first[:, tok] * cont)
            else:
                cols.append(first[:, tok])
        probs = torch.stack(cols, dim=1).double()
        mass = probs.sum(dim=1, keepdim=True)
        norm = probs / mass.clamp(min=1e-300)
        return torch.cat([norm, mass], dim=1).cpu().numpy()

    def probabilities(self, texts: list[str], *, prompt_index: int = 0, progress: Any = None, cancel: Any = None,
                      prefix_cache: bool | None = None) -> Any:
        """(n, labels + 1): renormalised label probabilities of one prompt, and their raw total."""
        self.load()
        pp = self.prepared()[prompt_index]
        use_cache = self.use_prefix_cache if prefix_cache is None else prefix_cache
        seqs = self._sentence_ids(texts)
        return run_in_batches([len(s) for s in seqs],
                              lambda idx: self._label_probs(pp, [seqs[i] for i in idx], use_cache),
                              batch_size=self.batch_size, progress=progress, cancel=cancel, device=self.device,
                              on_resize=self._resized)

    def _resized(self, size: int) -> None:
        self.batch_size = size

    def score(self, texts: list[str], *, progress: Any = None, cancel: Any = None,
              prefix_cache: bool | None = None) -> Any:
        import numpy as np

        if not texts:
            return make_frame([], self.dimensions)
        n, k = len(texts), len(self.prompts)
        columns = []
        for j, pp in enumerate(self.prepared()):
            def part(done: int, total: int, eta: Any, j: int = j) -> None:
                if progress is not None:
                    progress(j * n + done, k * n, None if eta is None else eta + (k - j - 1) * n * eta / max(total - done, 1))

            out = self.probabilities(list(texts), prompt_index=j, progress=part, cancel=cancel, prefix_cache=prefix_cache)
            values = np.asarray(pp.prompt.values)
            low, high = values.min(), values.max()
            columns.append(((out[:, :-1] @ values) - low) / (high - low))
            self._add_mass(pp.prompt.task, out[:, -1])
        return make_frame(np.column_stack(columns), self.dimensions)

    def _add_mass(self, task: str, mass: Any) -> None:
        """Running summary of the label mass over every text this scorer computed (score() runs per chunk)."""
        prev = self.label_mass.get(task)
        n, total = len(mass), float(mass.sum())
        if prev:
            n, total = n + prev["n"], total + prev["mean"] * prev["n"]
        self.label_mass[task] = {"mean": total / n, "min": float(min(mass.min(), prev["min"] if prev else 1.0)),
                                 "max": float(max(mass.max(), prev["max"] if prev else 0.0)), "n": int(n)}

    #: below this mean label mass the model is not answering in the prompt's format
    LOW_LABEL_MASS = 0.5

    @property
    def warnings(self) -> list[str]:
        """What the audit should say about these scores (engine.audit.pipeline logs them and lists
        them among the manifest's problems): a task whose answers mostly fell outside the labels."""
        out = []
        for task, m in sorted(self.label_mass.items()):
            if m["mean"] < self.LOW_LABEL_MASS:
                out.append(f"{self.name}: on average only {m['mean']:.0%} of the next-token probability went to the "
                           f"answer labels of '{task}' (lowest {m['min']:.0%}, {m['n']:,} texts), so the model is "
                           f"mostly not answering in the prompt's format and its '{task}' scores say little — "
                           f"check the prompt (main.py prompts show), use an instruction-tuned model or its chat "
                           f"template (chat=1)")
        return out

    # --- identity ------------------------------------------------------------------------------
    def fingerprint(self) -> str:
        """Model file(s), prompts (id, version, wording) and weights dtype; no weights are loaded."""
        if self._fp is None:
            self._ensure_device()
            model_fp = file_sha256(self.path) if self.gguf else folder_fingerprint(self.path)
            self._fp = stable_hash(SCORER_VERSION, model_fp, self.max_length, self.chat,
                                   [(p.id, p.version, p.digest()) for p in self.prompts], self.precision_check.used)
        return self._fp

    def describe(self) -> dict[str, Any]:
        self._ensure_device()
        return {"kind": "llm", "name": self.name, "path": str(self.path), "format": "gguf" if self.gguf else "hf",
                "fingerprint": self.fingerprint(), "languages": self.languages, "scale": list(self.scale),
                "prompts": [pp.describe() for pp in self.prepared()], "prefix_cache": self.use_prefix_cache,
                "max_length": self.max_length, "device": self.device.as_dict(),
                "precision": {**self.precision_check.as_dict(), "weights_dtype": dtype_name(self._dtype_or_none()),
                              "note": "weights loaded in this dtype; no fp32 comparison is run for LLMs"},
                "label_mass": self.label_mass}
