"""Prompt-based scorers for local causal language models (a Hugging Face folder or a .gguf file).

How a score is made (docs/models.md, "Auditing a local LLM"): each sentence is put into a prompt
(resources/prompts, or the user's file), rendered with the tokenizer's chat template when it has
one (a plain "instruction … Answer:" text otherwise) and tokenised as one whole text, exactly as
`tokenizer(text)` writes it (engine.models.prompts_tokens). The probability of each complete label
("0".."10", or "negative"/"neutral"/"positive"), whatever number of tokens the tokenizer gives it,
is read teacher-forced after the prompt; the labels' probabilities are renormalised over the label
set, and the score is their expected value rescaled to [0, 1]. Nothing is sampled, so the scores
are deterministic. `label_reading=first_token` reads only each label's first token (faster, exact
only where every label is one token; labels sharing a first token are then refused).

Why probabilities, not generated text: a sampled answer is a noisy, discretised draw from exactly
this distribution; the expected value keeps shifts that do not flip the most likely answer, which
is what a bias audit measures, and costs one forward pass with no decoding loop.

Speed: every prompt is [fixed prefix][sentence][fixed suffix]. The prefix's key/value cache is
computed once and expanded over each batch, so a batch only computes the sentence and the few
suffix tokens (a sentence whose ids do not start with the prefix's is run whole). Labels of
several tokens cost one more pass over their beginnings ("1" for "10".."19") on the prompt's
cache, shared by every label. Batches are length-sorted and left-padded (the padding sits between
the cached prefix and the sentence; position ids skip it), and the language-model head is applied
to the last positions only.
"""
from __future__ import annotations

from engine.common.command import command

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.models.base import make_frame, stable_hash
from engine.models.batching import pad_batch, run_in_batches
from engine.models.device import DeviceInfo, PrecisionCheck, candidate_dtype, dtype_name, is_oom, select_device
from engine.models.errors import ModelError
from engine.models.file_integrity import check_model_files
from engine.models.fingerprint import file_sha256, folder_fingerprint
from engine.models.prompts import PLACEHOLDER, Prompt, select_prompts
from engine.models.prompts_tokens import LABEL_READINGS, LabelPlan, PromptTokens

SCORER_VERSION = "llm/2"  # 2: whole labels, whole-text token ids
_MARKER = "@@EEC_TEXT_7f3a@@"  # stands for {text} while the chat template is rendered
#: Templates that print today's date (Llama 3.x: "Today Date: …") get this fixed one instead, so the
#: prompt — and the scores under one fingerprint — do not change from day to day.
FIXED_DATE = "26 Jul 2024"


@dataclass
class PreparedPrompt:
    """A prompt turned into token ids for one tokenizer (engine.models.prompts_tokens)."""

    prompt: Prompt
    mode: str  # "chat" or "plain"
    tokens: PromptTokens
    prefix_cache: Any = None
    shared: int = 0  # sentences whose ids start with the shared prefix (scored on its cache)
    whole: int = 0  # sentences run whole (their ids do not start with it, or prefix_cache=0)
    own_labels: int = 0  # sentences whose label tokens differ from the prompt's (scored with their own)

    @property
    def prefix_ids(self) -> list[int]:
        return self.tokens.prefix_ids

    @property
    def plan(self) -> LabelPlan:
        return self.tokens.plan

    @property
    def label_tokens(self) -> list[list[str]]:
        return self.tokens.label_pieces()

    def describe(self) -> dict[str, Any]:
        return {**self.prompt.as_dict(), "mode": self.mode, "prefix_tokens": len(self.prefix_ids),
                "label_tokens": self.label_tokens,
                "label_tokens_fixed": self.tokens.fixed_labels,  # False: checked for every sentence
                "prefix_sharing": {"shared": self.shared, "run_whole": self.whole},
                "sentences_with_own_label_tokens": self.own_labels}


@dataclass
class _Row:
    """One sentence's prompt: its whole-text ids, whether it starts with the cached prefix, its labels."""

    ids: list[int]
    cached: bool
    plan: LabelPlan


def _cache_of(out: Any) -> Any:
    """The key/value cache a forward returned (`cache` since transformers 5.2x, `past_key_values` before)."""
    found = getattr(out, "cache", None)
    return found if found is not None else out.past_key_values


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


class LLMScorer:
    """A local causal LM asked one prompt per dimension; scores in [0, 1] from label probabilities."""

    scale = (0.0, 1.0)

    def __init__(self, model: str | Path, *, prompts: list[Prompt] | None = None, prompt: str | list[str] | None = None,
                 task: str | list[str] | None = None, language: str | None = None,
                 prompt_file: str | Path | list[str | Path] | None = None, device: str | DeviceInfo | None = None,
                 precision: str = "auto", batch_size: int = 16, max_length: int = 256, allow_pickle: bool = False,
                 prefix_cache: bool = True, chat: bool | None = None, name: str | None = None,
                 label_reading: str = "sequence"):
        self.model_id = str(model)
        self.path, self.gguf = self._resolve(model)
        check_model_files(self.path)  # engine.models.file_integrity: a cut .gguf is called truncated
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
        if label_reading not in LABEL_READINGS:
            raise ModelError(self.model_id, f"unknown label_reading '{label_reading}'", field="label_reading",
                             fix="use sequence (whole labels, the default) or first_token (faster, first token only)")
        self.label_reading = label_reading
        self._device_arg = device
        self.device: DeviceInfo | None = device if isinstance(device, DeviceInfo) else None
        self._tok: Any = None
        self._model: Any = None
        self._dtype: Any = None
        self._prepared: list[PreparedPrompt] | None = None
        self._keep_logits: str | None = None
        self._cache_kw = "past_key_values"
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

    def tokenizer(self) -> Any:
        """The model's tokenizer (engine.audit.identity_tokens checks the identity words through it)."""
        return self.load_tokenizer()

    def load_tokenizer(self) -> Any:
        if self._tok is None:
            from engine.models.hf_loading import load_tokenizer, offline, quiet_transformers

            if self.gguf:
                offline()
                from transformers import AutoTokenizer

                try:
                    with quiet_transformers():
                        self._tok = AutoTokenizer.from_pretrained(str(self.path.parent), trust_remote_code=False,
                                                                  **self._gguf_kwargs())
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
                                                                     trust_remote_code=False, **dtype_arg)
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
            from engine.models.hf_loading import check_vocab

            check_vocab(self._tok, model, str(self.path))
            self._model = model.to(device.torch_device)
            params = inspect.signature(self._model.forward).parameters
            self._keep_logits = next((k for k in ("logits_to_keep", "num_logits_to_keep") if k in params), None)
            self._cache_kw = "cache" if "cache" in params else "past_key_values"  # renamed in transformers 5.2x
        return self

    # --- prompts → token ids -------------------------------------------------------------------
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
        sep = ""
        if mode == "plain" and prompt.answer and not prompt.answer[-1].isspace() and ord(prompt.answer[-1]) < 0x2E80:
            sep = " "
        try:
            tokens = PromptTokens(tok, before, after, sep, tuple(prompt.labels), add_special=(mode == "plain"),
                                  where=prompt.source or prompt.id, line=prompt.line, reading=self.label_reading)
        except NotImplementedError:  # a slow (Python) tokenizer gives no character offsets
            raise ModelError(str(self.path), "the tokenizer gives no character offsets (a slow tokenizer)",
                             fix="save the model's tokenizer as a fast one (tokenizer.json)") from None
        return PreparedPrompt(prompt, mode, tokens)

    def rendered(self, text: str, prompt_index: int = 0) -> str:
        """The exact text the model reads for `text` (chat template applied), up to the answer position."""
        mode, before, after = self._render(self.prompts[prompt_index])
        return before + text + after

    def prepared(self) -> list[PreparedPrompt]:
        if self._prepared is None:
            self._prepared = [self._prepare(p) for p in self.prompts]
        return self._prepared

    def _control_tokens(self) -> Any:
        """A pattern of the tokenizer's special tokens (<|im_end|>, </s>, [INST]…), or None."""
        if getattr(self, "_specials", False) is False:
            import re

            tok = self.load_tokenizer()
            found = set(getattr(tok, "all_special_tokens", []) or [])
            for added in (getattr(tok, "added_tokens_decoder", {}) or {}).values():
                if getattr(added, "special", False):
                    found.add(str(getattr(added, "content", "")))
            found = sorted((t for t in found if len(t) > 1), key=len, reverse=True)
            self._specials = re.compile("|".join(map(re.escape, found))) if found else None
        return self._specials

    def _refuse_control_tokens(self, texts: list[str]) -> None:
        """A sentence is text: one holding a control token's spelling ("Hola<|im_end|>") would end the
        user's turn inside the prompt. Refused, naming the sentence and the token."""
        rx = self._control_tokens()
        if rx is None:
            return
        for t in texts:
            m = rx.search(t)
            if m:
                raise ModelError(str(self.path), f"the sentence {t[:80]!r} contains {m.group(0)!r}, a control token of "
                                 "this model's tokenizer: it would be read as a command, not as text",
                                 field="sentence", fix="remove the control token from the corpus (or the prediction "
                                                       "input); a sentence never needs one")

    def _truncated(self, texts: list[str]) -> list[str]:
        """Sentences cut after `max_length` of their own tokens (at a token's end, so the cut is clean)."""
        self._refuse_control_tokens(texts)
        tok = self.load_tokenizer()
        enc = tok(list(texts), add_special_tokens=False, return_offsets_mapping=True)
        return [t if len(ids) <= self.max_length else t[: offs[self.max_length - 1][1]]
                for t, ids, offs in zip(texts, enc["input_ids"], enc["offset_mapping"])]

    def lengths(self, texts: list[str]) -> list[int]:
        self.load_tokenizer()
        return [min(len(ids), self.max_length) for ids in self._tok(list(texts), add_special_tokens=False)["input_ids"]]

    def input_ids(self, text: str, prompt_index: int = 0) -> list[int]:
        """The ids the model reads for `text` up to the answer position: `tokenizer(whole prompt)`."""
        pp = self.prepared()[prompt_index]
        return pp.tokens.context_ids(self._truncated([text]))[0]

    def _rows(self, pp: PreparedPrompt, texts: list[str], use_cache: bool) -> list[_Row]:
        sentences = self._truncated(texts)
        contexts = pp.tokens.context_ids(sentences)
        plans = pp.tokens.per_sentence_labels(sentences, contexts)
        prefix = pp.prefix_ids
        rows = [_Row(ids, bool(use_cache and prefix) and ids[: len(prefix)] == prefix, plan)
                for ids, plan in zip(contexts, plans)]
        pp.shared += sum(r.cached for r in rows)
        pp.whole += sum(not r.cached for r in rows)
        pp.own_labels += sum(r.plan is not pp.plan for r in rows)
        return rows

    # --- the forward pass ----------------------------------------------------------------------
    def _prefix_cache(self, pp: PreparedPrompt) -> Any:
        import torch

        if pp.prefix_cache is None:
            ids = torch.tensor([pp.prefix_ids], dtype=torch.long, device=self.device.torch_device)
            with torch.inference_mode():
                out = self._model(input_ids=ids, use_cache=True)
            pp.prefix_cache = _cache_of(out)
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

    def _pad_id(self) -> int:
        tok = self._tok
        return tok.pad_token_id if tok.pad_token_id is not None else (tok.eos_token_id or 0)

    def _forward(self, pp: PreparedPrompt, rows: list[_Row], use_cache: bool) -> Any:
        """(len(rows), labels + 1): renormalised label probabilities and their raw total, per row.

        Rows are grouped by (on the prefix cache or not, label tokens): one forward per group."""
        import numpy as np

        out = np.empty((len(rows), len(pp.prompt.labels) + 1))
        groups: dict[tuple[bool, int], list[int]] = {}
        for i, row in enumerate(rows):
            groups.setdefault((row.cached and use_cache, id(row.plan)), []).append(i)
        with self._attention_kernels():
            for (cached, _), idx in groups.items():
                out[idx] = self._group_probs(pp, [rows[i] for i in idx], cached, rows[idx[0]].plan)
        return out

    def _attention_kernels(self) -> Any:
        """On CUDA, attention without the cuDNN kernel (engine.models.device.attention_kernels)."""
        from engine.models.device import attention_kernels

        return attention_kernels(self.device)

    def _group_probs(self, pp: PreparedPrompt, rows: list[_Row], cached: bool, plan: LabelPlan) -> Any:
        """One context pass (prompt + the tokens all labels share), then, for labels of several tokens,
        one pass over the label beginnings on the context's key/value cache; log-probabilities summed."""
        import torch

        dev = self.device.torch_device
        lead = list(plan.lead)
        start = len(pp.prefix_ids) if cached else 0
        batch = pad_batch([r.ids[start:] + lead for r in rows], self._pad_id(), with_token_types=False, side="left")
        ids, mask = batch["input_ids"].to(dev), batch["attention_mask"].to(dev)
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        keep = len(lead) + 1
        kwargs: dict[str, Any] = {}
        if self._keep_logits:
            kwargs[self._keep_logits] = keep
        n = len(rows)
        with torch.inference_mode():
            if cached:
                kwargs[self._cache_kw] = self._expanded_cache(pp, n)
                mask = torch.cat([torch.ones((n, start), dtype=mask.dtype, device=dev), mask], dim=1)
                positions = positions + start
            try:
                out = self._model(input_ids=ids, attention_mask=mask, position_ids=positions,
                                  use_cache=cached or bool(plan.branches), **kwargs)
            except Exception as exc:
                if not cached or is_oom(exc):
                    raise
                raise ModelError(str(self.path), f"this model's cache cannot be shared over a batch "
                                 f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]})", field="prefix_cache",
                                 fix="add prefix_cache=0 to the spec (same scores, slower)") from None
            logp = torch.log_softmax(out.logits[:, -keep:].float(), dim=-1)
            lead_lp = torch.zeros(n, dtype=torch.float64, device=dev)
            for t, token in enumerate(lead):
                lead_lp += logp[:, t, token].double()
            lp = logp[:, len(lead), plan.firsts].double()
            if plan.branches:
                lp = lp + self._branch_logprobs(plan, _cache_of(out), mask, positions[:, -1], n)
        probs = lp.exp()
        for j, kids in enumerate(plan.children):  # "1" keeps only what does not continue into "10", "11", …
            if kids:
                probs[:, j] = (probs[:, j] - probs[:, list(kids)].sum(dim=1)).clamp(min=0.0)
        total = probs.sum(dim=1, keepdim=True)
        norm = probs / total.clamp(min=1e-300)
        mass = total * lead_lp.exp().unsqueeze(1)
        return torch.cat([norm, mass], dim=1).cpu().numpy()

    def _branch_logprobs(self, plan: LabelPlan, cache: Any, mask: Any, last: Any, n: int) -> Any:
        """Log-probability of every label's tokens after its first, teacher-forced on the context's cache."""
        import torch

        dev = self.device.torch_device
        nb, width = len(plan.branches), max(len(b) for b in plan.branches)
        if nb > 1:
            cache.batch_repeat_interleave(nb)
        rows = torch.full((nb, width), self._pad_id(), dtype=torch.long)
        for b, branch in enumerate(plan.branches):
            rows[b, : len(branch)] = torch.tensor(branch, dtype=torch.long)
        ids = rows.to(dev).repeat(n, 1)  # row-major: sentence 0's branches, sentence 1's, …
        mask = torch.cat([mask.repeat_interleave(nb, dim=0),
                          torch.ones((n * nb, width), dtype=mask.dtype, device=dev)], dim=1)
        positions = last.repeat_interleave(nb).unsqueeze(1) + 1 + torch.arange(width, device=dev)
        logits = self._model(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=True,
                             **{self._cache_kw: cache}).logits
        logp = torch.log_softmax(logits.float(), dim=-1).view(n, nb, width, -1)
        out = torch.zeros((n, len(plan.rests)), dtype=torch.float64, device=dev)
        for j, steps in enumerate(plan.reads):
            for b, pos, token in steps:
                out[:, j] += logp[:, b, pos, token].double()
        return out

    def probabilities(self, texts: list[str], *, prompt_index: int = 0, progress: Any = None, cancel: Any = None,
                      prefix_cache: bool | None = None) -> Any:
        """(n, labels + 1): renormalised label probabilities of one prompt, and their raw total."""
        self.load()
        pp = self.prepared()[prompt_index]
        use_cache = self.use_prefix_cache if prefix_cache is None else prefix_cache
        rows = self._rows(pp, list(texts), use_cache)
        return run_in_batches([len(r.ids) for r in rows],
                              lambda idx: self._forward(pp, [rows[i] for i in idx], use_cache),
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
        if len(self.languages) > 1:
            langs = ", ".join(f"{p.id} ({p.language})" for p in self.prompts)
            out.append(f"{self.name}: its prompts are in several languages ({langs}), so its dimensions were asked "
                       f"in different languages and are not comparable with each other; use one language, that of "
                       f"the corpus (language=…)")
        for task, m in sorted(self.label_mass.items()):
            if m["mean"] < self.LOW_LABEL_MASS:
                out.append(f"{self.name}: on average only {m['mean']:.0%} of the next-token probability went to the "
                           f"answer labels of '{task}' (lowest {m['min']:.0%}, {m['n']:,} texts), so the model is "
                           f"mostly not answering in the prompt's format and its '{task}' scores say little — "
                           f"check the prompt ({command('prompts show')}), use an instruction-tuned model or its chat "
                           f"template (chat=1)")
        return out

    # --- identity ------------------------------------------------------------------------------
    def fingerprint(self) -> str:
        """Model file(s), prompts (id, version, wording) and weights dtype; no weights are loaded."""
        if self._fp is None:
            self._ensure_device()
            model_fp = file_sha256(self.path) if self.gguf else folder_fingerprint(self.path)
            self._fp = stable_hash(SCORER_VERSION, model_fp, self.max_length, self.chat, self.label_reading,
                                   [(p.id, p.version, p.digest()) for p in self.prompts], self.precision_check.used)
        return self._fp

    def describe(self) -> dict[str, Any]:
        self._ensure_device()
        return {"kind": "llm", "name": self.name, "path": str(self.path), "format": "gguf" if self.gguf else "hf",
                "fingerprint": self.fingerprint(), "languages": self.languages, "scale": list(self.scale),
                "prompts": [pp.describe() for pp in self.prepared()], "prefix_cache": self.use_prefix_cache,
                "label_reading": self.label_reading,
                "max_length": self.max_length, "device": self.device.as_dict(),
                "precision": {**self.precision_check.as_dict(), "weights_dtype": dtype_name(self._dtype_or_none()),
                              "note": "weights loaded in this dtype; no fp32 comparison is run for LLMs"},
                "label_mass": self.label_mass}
