#!/usr/bin/env python3
"""Render the application icon's PNG sizes from its SVG (resources/desktop/icons/).

    python tools/make_icons.py          # rewrite resources/desktop/icons/eec-studio-<N>.png
    python tools/make_icons.py --check  # exit 1 when a PNG is missing or differs from a fresh render

Why PNGs beside the SVG: desktop menus, task bars and Windows/macOS bundles ask for fixed
sizes (hicolor NxN), and some icon themes ignore scalable icons. Rendered by Qt's own SVG
renderer, so no extra tool is needed.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.common.io import atomic_write_bytes  # noqa: E402
from gui.desktop_entry import ICON_DIR, ICON_NAME, ICON_SIZES  # noqa: E402


def render(size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(ICON_DIR / f"{ICON_NAME}.svg"))
    if not renderer.isValid():
        raise SystemExit(f"{ICON_DIR / (ICON_NAME + '.svg')}: not a valid SVG")
    image = QImage(size, size, QImage.Format_ARGB32)
    image.fill(Qt.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.WriteOnly)
    image.save(buf, "PNG")
    return bytes(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if a PNG is stale")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication([])
    stale = []
    for size in ICON_SIZES:
        path = ICON_DIR / f"{ICON_NAME}-{size}.png"
        png = render(size)
        if args.check:
            if not path.exists() or path.read_bytes() != png:
                stale.append(path.name)
        else:
            atomic_write_bytes(path, png)
            print(f"{path.relative_to(ROOT)}: {size}x{size}, {len(png)} bytes")
    if stale:
        print("stale icons (run python tools/make_icons.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
