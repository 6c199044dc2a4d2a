"""Exchange with translators' tools: gettext PO and XLIFF 2.0, out and back.

    from engine.exchange import export_exchange, import_exchange
    export_exchange("es-camara2022", "es.po", source="en-camara2022-latino")
    import_exchange("es.po", into="es-camara2022", out="my/es-camara2022.toml")

One unit per form; keys carry entry id + grammatical features; notes and review status
survive the round trip (see status_rules.py and docs/packages.md). No Qt here.
"""
from .api import (ExchangeExport, ExchangeImport, exchange_bytes, export_exchange, format_of, import_exchange,
                  merge_exchange, read_exchange)
from .apply import Change, apply_returned
from .errors import ExchangeError
from .keys import Key, make_key, parse_key
from .returned import FORMATS, PO, XLIFF, Returned, ReturnedFile
from .units import Unit, extract_units

__all__ = ["Change", "ExchangeError", "ExchangeExport", "ExchangeImport", "FORMATS", "Key", "PO", "Returned",
           "ReturnedFile", "Unit", "XLIFF", "apply_returned", "exchange_bytes", "export_exchange", "extract_units",
           "format_of", "import_exchange", "make_key", "merge_exchange", "parse_key", "read_exchange"]
