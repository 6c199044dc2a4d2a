"""Corpus packages (.eecpkg): export, verify and import a corpus with its datasheet.

    from engine.package import export_package, verify_package, import_package
    export_package("es-camara2022", "es.eecpkg")
    print(verify_package("es.eecpkg").summary())
    import_package("es.eecpkg")            # into the user's corpus folder; refuses to overwrite

No Qt here; the CLI lives in engine.package.cli.
"""
from .datasheet import build_datasheet
from .errors import PackageError
from .export import ExportResult, build_package, export_package
from .importer import ImportResult, import_package
from .layout import SUFFIX, Layout
from .limits import DEFAULT_LIMITS, Limits
from .manifest import Manifest, parse_manifest
from .verify import VerifiedPackage, verify_package

__all__ = ["DEFAULT_LIMITS", "ExportResult", "ImportResult", "Layout", "Limits", "Manifest", "PackageError", "SUFFIX",
           "VerifiedPackage", "build_datasheet", "build_package", "export_package", "import_package",
           "parse_manifest", "verify_package"]
