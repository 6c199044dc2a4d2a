"""Masked-LM probabilities for LPBS and CrowS-Pairs, refusing checkpoints without an MLM head.

Why the refusal: ``AutoModelForMaskedLM.from_pretrained`` on an encoder saved without
its MLM head (sentence-transformers MiniLM, a plain ``BertModel``) only logs a warning
and initialises ``cls.predictions.*`` at random — every probability would be noise
that looks like a result. The loader asks transformers which weights were missing and
refuses if any belong to the head.
"""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import AssocError, MissingHeadError
from .hf import check_folder, load_tokenizer, offline, pick_device, quiet


class MaskedLM:
    def __init__(self, path: str | Path, *, batch_size: int = 64, device: str | None = None) -> None:
        p = check_folder(path)
        offline()
        import torch  # noqa: F401
        from transformers import AutoModelForMaskedLM

        self.tokenizer = load_tokenizer(p)
        if self.tokenizer.mask_token is None:
            raise AssocError("the tokenizer has no mask token: not a masked language model", file=str(p),
                             fix="LPBS and CrowS-Pairs need a BERT-style masked LM")
        try:
            with quiet():  # we report a missing head ourselves
                model, info = AutoModelForMaskedLM.from_pretrained(str(p), local_files_only=True, trust_remote_code=False,
                                                                   output_loading_info=True)
        except ValueError as exc:
            raise AssocError(f"not a masked language model ({str(exc).splitlines()[0][:160]})", file=str(p),
                             fix="LPBS and CrowS-Pairs need a checkpoint with a masked-LM head (e.g. BertForMaskedLM)") from None
        except Exception as exc:  # noqa: BLE001
            raise AssocError(f"cannot load the model ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})",
                             file=str(p)) from None
        prefix = getattr(model, "base_model_prefix", "") + "."
        missing = [k for k in info.get("missing_keys", []) if not k.startswith(prefix) and "position_ids" not in k]
        if missing:
            shown = ", ".join(sorted(missing)[:4]) + (" …" if len(missing) > 4 else "")
            raise MissingHeadError(
                f"checkpoint has no masked-LM head: {len(missing)} head weight(s) missing ({shown}); "
                "transformers would initialise them at random and every probability would be noise",
                file=str(p), fix="use a checkpoint saved with its MLM head (e.g. BertForMaskedLM), "
                                 "not a sentence-encoder export")
        self.model = model
        self.device = pick_device(device)
        self.model.to(self.device).eval()
        self.name = p.name if p.name not in ("model", "models") else f"{p.parent.name}/{p.name}"
        self.path = str(p)
        self.batch_size = batch_size
        self.mask_id = int(self.tokenizer.mask_token_id)

    # --- core: log-probabilities of given tokens at masked positions ---
    def _batches(self, sequences: Sequence[list[int]], groups: Sequence[int] | None) -> list[list[int]]:
        """Indices of the sequences per forward pass.

        Sequences of one group (the masked copies of one sentence) always share a
        batch: groups are packed whole, shortest first, up to ``batch_size`` rows; a
        group larger than ``batch_size`` is a batch of its own.
        """
        gids = list(range(len(sequences))) if groups is None else list(groups)
        members: dict[int, list[int]] = {}
        for i, g in enumerate(gids):
            members.setdefault(g, []).append(i)
        order = sorted(members, key=lambda g: (max(len(sequences[i]) for i in members[g]), g))
        batches: list[list[int]] = []
        cur: list[int] = []
        for g in order:
            rows = members[g]
            if cur and len(cur) + len(rows) > self.batch_size:
                batches.append(cur)
                cur = []
            cur = cur + rows
        if cur:
            batches.append(cur)
        return batches

    def _score(self, sequences: Sequence[list[int]], positions: Sequence[list[int]],
               targets: Sequence[list[int]], groups: Sequence[int] | None = None) -> np.ndarray:
        """Sum over each sequence's positions of log p(target token | masked sequence)."""
        import torch

        out = np.zeros(len(sequences), dtype=np.float64)
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        for idx in self._batches(sequences, groups):
            width = max(len(sequences[i]) for i in idx)
            ids = torch.full((len(idx), width), pad, dtype=torch.long)
            att = torch.zeros((len(idx), width), dtype=torch.long)
            for r, i in enumerate(idx):
                ids[r, :len(sequences[i])] = torch.tensor(sequences[i])
                att[r, :len(sequences[i])] = 1
            # only the scored positions are normalised (not batch × width × vocabulary)
            rows = [r for r, i in enumerate(idx) for _ in positions[i]]
            cols = [p for i in idx for p in positions[i]]
            toks = [t for i in idx for t in targets[i]]
            with torch.no_grad():
                logits = self.model(input_ids=ids.to(self.device), attention_mask=att.to(self.device)).logits
                dev = logits.device
                picked = logits[torch.tensor(rows, dtype=torch.long, device=dev),
                                torch.tensor(cols, dtype=torch.long, device=dev)]
                logp = torch.log_softmax(picked.float(), dim=-1)
                lp = logp[torch.arange(len(toks), device=dev), torch.tensor(toks, dtype=torch.long, device=dev)]
            lp = lp.double().cpu().numpy()
            np.add.at(out, np.asarray([i for i in idx for _ in positions[i]], dtype=np.int64), lp)
        return out

    def unknown(self, words: Sequence[str]) -> list[bool]:
        """Per word: does the tokenizer need its unknown token ([UNK]) for it? Such a word has no
        probability of its own, so LPBS treats it as out of vocabulary."""
        unk = self.tokenizer.unk_token_id
        if unk is None or unk in (self.tokenizer.eos_token_id, self.tokenizer.pad_token_id):
            return [False] * len(words)
        return [unk in self._pieces(w) or not self._pieces(w) for w in words]

    def _encode(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=True)["input_ids"])

    def _pieces(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    # --- LPBS (Kurita et al. 2019) ---
    def increased_log_prob(self, targets: Sequence[str], attributes: Sequence[str], template: str) -> np.ndarray:
        """asc(x, a) = log p_tgt(x | a) − log p_prior(x), a len(targets) × len(attributes) matrix.

        The target's sub-tokens are all masked and their log-probabilities summed (one
        forward pass); for the prior the attribute is masked too, with as many masks as
        it has sub-tokens.
        """
        seqs: list[list[int]] = []
        poss: list[list[int]] = []
        tgts: list[list[int]] = []
        cells: list[tuple[int, int, bool]] = []
        mask = self.tokenizer.mask_token
        for ti, t in enumerate(targets):
            t_ids = self._pieces(t)
            if not t_ids:
                raise AssocError(f"target {t!r} tokenises to nothing", field="targets")
            for ai, a in enumerate(attributes):
                a_n = max(1, len(self._pieces(a)))
                for prior in (False, True):
                    a_text = " ".join([mask] * a_n) if prior else a
                    text = _fill(template, " ".join([mask] * len(t_ids)), a_text)
                    ids = self._encode(text)
                    mpos = [k for k, v in enumerate(ids) if v == self.mask_id]
                    t_pos = _target_positions(template, mpos, len(t_ids), a_n if prior else 0)
                    seqs.append(ids)
                    poss.append(t_pos)
                    tgts.append(t_ids)
                    cells.append((ti, ai, prior))
        scores = self._score(seqs, poss, tgts)
        tgt = np.zeros((len(targets), len(attributes)))
        pri = np.zeros_like(tgt)
        for (ti, ai, prior), s in zip(cells, scores):
            (pri if prior else tgt)[ti, ai] = s
        return tgt - pri

    # --- CrowS-Pairs pseudo-log-likelihood (Nangia et al. 2020) ---
    def pll_pair(self, sent1: str, sent2: str) -> tuple[float, float]:
        scores = self.pll_pairs([(sent1, sent2)])
        return float(scores[0, 0]), float(scores[0, 1])

    def pll_pairs(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """PLL over the tokens shared by each pair (difflib alignment of token ids), n × 2.

        One copy of each sentence per shared token, with that token masked; all copies of
        a sentence go through the model in the same batch (several short sentences may
        share a batch of ``batch_size`` rows; a longer sentence gets a batch of its own).
        """
        seqs: list[list[int]] = []
        poss: list[list[int]] = []
        tgts: list[list[int]] = []
        owner: list[tuple[int, int]] = []
        group: list[int] = []  # one group per sentence: its masked copies go through the model together
        for pi, (s1, s2) in enumerate(pairs):
            ids1, ids2 = self._encode(s1), self._encode(s2)
            shared1, shared2 = _shared_positions(ids1, ids2, set(self.tokenizer.all_special_ids))
            for side, ids, shared in ((0, ids1, shared1), (1, ids2, shared2)):
                for k in shared:
                    masked = list(ids)
                    masked[k] = self.mask_id
                    seqs.append(masked)
                    poss.append([k])
                    tgts.append([ids[k]])
                    owner.append((pi, side))
                    group.append(2 * pi + side)
        scores = self._score(seqs, poss, tgts, group)
        out = np.zeros((len(pairs), 2))
        for (pi, side), s in zip(owner, scores):
            out[pi, side] += s
        return out

    def describe(self) -> dict[str, Any]:
        return {"model": self.path, "device": str(self.device)}


def _fill(template: str, target: str, attribute: str) -> str:
    return template.replace("TARGET", target).replace("ATTRIBUTE", attribute)


def _target_positions(template: str, mask_pos: list[int], n_t: int, n_a: int) -> list[int]:
    """Which of the mask positions are the target's (templates give TARGET before or after ATTRIBUTE)."""
    if n_a == 0:
        return mask_pos[:n_t]
    if template.index("TARGET") < template.index("ATTRIBUTE"):
        return mask_pos[:n_t]
    return mask_pos[n_a:n_a + n_t]


def _shared_positions(ids1: list[int], ids2: list[int], special: set[int]) -> tuple[list[int], list[int]]:
    sm = difflib.SequenceMatcher(None, ids1, ids2, autojunk=False)
    s1: list[int] = []
    s2: list[int] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for a, b in zip(range(i1, i2), range(j1, j2)):
                if ids1[a] not in special:
                    s1.append(a)
                    s2.append(b)
    return s1, s2

