"""Association tests over word vectors and language models (WEAT family, CrowS-Pairs, FISE).

Public API (see docs/assoc.md):

* ``library.resolve(name_or_file, lang=None, attr_lang=None) -> TestSpec`` and ``library.list_tests()``;
* ``providers.spec.open_vectors(spec) -> provider`` (GloVe default, fastText, text, .npy, ``hf:FOLDER``);
* ``runner.run_test(spec, RunConfig(...))`` for any test kind, or the specific runners
  ``weat.run_weat``, ``seat.run_seat``, ``lpbs.run_lpbs``, ``crows.run_crows``, ``fise.run_fise``;
* ``permutation.permutation_test`` and ``weat.weat_from_scores`` for scores computed elsewhere;
* ``cli.add_parser(subparsers)`` — the ``assoc`` subcommand.

Every result has ``.to_frame()`` (tidy pandas) and ``.summary()`` (text). torch and transformers are
imported only when a Hugging Face model is opened; nothing here imports Qt.
"""
from .errors import AssocError, CoverageError, MissingHeadError
from .stimuli import SentenceItem, SentenceSet, Term, TestSpec, WordSet

__all__ = ["AssocError", "CoverageError", "MissingHeadError", "SentenceItem", "SentenceSet", "Term", "TestSpec",
           "WordSet"]
