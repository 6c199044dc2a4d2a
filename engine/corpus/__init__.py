"""Corpus model, agreement checker and generator (no Qt, no heavy imports)."""
from .checker import CheckReport, check_corpus
from .compiled import CompiledCorpus
from .errors import DefinitionError
from .findings import CODES, Finding
from .generator import COLUMNS, PUBLISHED_COLUMNS, generate
from .loader import load_definition, parse_definition
from .model import Axis, CorpusDefinition, EmotionWord, Form, PersonTerm, Review, Template, Variant, Word

__all__ = [
    "Axis", "CODES", "COLUMNS", "CheckReport", "CompiledCorpus", "CorpusDefinition", "DefinitionError",
    "EmotionWord", "Finding", "Form", "PUBLISHED_COLUMNS", "PersonTerm", "Review", "Template", "Variant",
    "Word", "check_corpus", "generate", "load_definition", "parse_definition",
]
from .export import FORMATS, export_table  # noqa: E402
from .registry import builtin_names, list_corpora, load_corpus, user_corpus_dir  # noqa: E402

__all__ += ["FORMATS", "builtin_names", "export_table", "list_corpora", "load_corpus",
            "user_corpus_dir"]
from .model import Pair  # noqa: E402
from .pairs import PAIR_COLUMNS, generate_group_comparisons, generate_pairs  # noqa: E402

__all__ += ["PAIR_COLUMNS", "Pair", "generate_group_comparisons", "generate_pairs"]
