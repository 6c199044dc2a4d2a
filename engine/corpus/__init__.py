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
