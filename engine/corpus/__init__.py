"""Corpus model, agreement checker and generator (no Qt, no heavy imports)."""
from engine.corpus.check.checker import CheckReport, check_corpus
from engine.corpus.generate.compiled import CompiledCorpus
from engine.corpus.definition.errors import DefinitionError
from engine.corpus.check.findings import CODES, Finding
from engine.corpus.generate.generator import COLUMNS, PUBLISHED_COLUMNS, generate
from engine.corpus.definition.loader import load_definition, parse_definition
from engine.corpus.definition.model import Axis, CorpusDefinition, EmotionWord, Form, PersonTerm, Review, Template, Variant, Word

__all__ = [
    "Axis", "CODES", "COLUMNS", "CheckReport", "CompiledCorpus", "CorpusDefinition", "DefinitionError",
    "EmotionWord", "Finding", "Form", "PUBLISHED_COLUMNS", "PersonTerm", "Review", "Template", "Variant",
    "Word", "check_corpus", "generate", "load_definition", "parse_definition",
]
from engine.corpus.generate.export import FORMATS, export_table  # noqa: E402
from engine.common.user_dirs import user_corpus_dir  # noqa: E402
from engine.corpus.definition.registry import builtin_names, list_corpora, load_corpus  # noqa: E402

__all__ += ["FORMATS", "builtin_names", "export_table", "list_corpora", "load_corpus",
            "user_corpus_dir"]
from engine.corpus.definition.model import Pair  # noqa: E402
from engine.corpus.pairs.tables import PAIR_COLUMNS, generate_group_comparisons, generate_pairs  # noqa: E402

__all__ += ["PAIR_COLUMNS", "Pair", "generate_group_comparisons", "generate_pairs"]
