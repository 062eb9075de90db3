"""A one-page PDF writer for plain text and rules (no dependency; pure: returns bytes).

Enough for a printable sheet: Helvetica and Helvetica-Bold (the PDF base fonts every viewer has, so
nothing is embedded) in WinAnsi encoding, text at a point, right-aligned text, thin lines and filled
boxes, and word wrapping measured with Helvetica's own character widths (Adobe's AFM metrics; the bold
face is measured 6 % wider, which only makes a wrap a little early). The content stream is not
compressed, so a test can read the text back from the bytes (``page_text``).

Coordinates are PDF points from the bottom-left corner of a US Letter page (612 x 792).
"""

from __future__ import annotations

import re

PAGE_WIDTH, PAGE_HEIGHT = 612, 792
_WIDTHS = (  # Helvetica, characters 32..126, per 1000 units of the font size
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)
_PLAIN = str.maketrans({"\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'",
                        "\u201c": '"', "\u201d": '"', "\u2026": "...", "\u00a0": " "})


def plain(text: str) -> str:
    """``text`` in the characters the sheet's fonts print (typographic dashes and quotes made plain,
    anything outside Latin-1 as '?')."""
    return str(text).translate(_PLAIN).encode("latin-1", "replace").decode("latin-1")


def text_width(text: str, size: float, bold: bool = False) -> float:
    units = sum(_WIDTHS[ord(c) - 32] if 32 <= ord(c) <= 126 else 556 for c in plain(text))
    return units * size / 1000 * (1.06 if bold else 1.0)


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """``text`` in lines no wider than ``width`` (a word longer than a line is cut)."""
    lines: list[str] = []
    current = ""
    for word in plain(text).split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        while text_width(word, size, bold) > width and len(word) > 1:
            cut = len(word)
            while cut > 1 and text_width(word[:cut], size, bold) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    return lines or [""]


def _escape(text: str) -> str:
    return plain(text).replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").replace("\r", " ")


class Page:
    """One page's drawing operations, in order."""

    def __init__(self) -> None:
        self.ops: list[str] = []

    def text(self, x: float, y: float, text: str, size: float = 10, bold: bool = False,
             gray: float = 0.0) -> None:
        font = "F2" if bold else "F1"
        self.ops.append(f"BT /{font} {size:g} Tf {gray:g} g {x:.2f} {y:.2f} Td ({_escape(text)}) Tj ET")

    def text_right(self, right: float, y: float, text: str, size: float = 10, bold: bool = False,
                   gray: float = 0.0) -> None:
        self.text(right - text_width(text, size, bold), y, text, size, bold, gray)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.5, gray: float = 0.75) -> None:
        self.ops.append(f"{gray:g} G {width:g} w {x1:.2f} {y1:.2f} m {x2:.2f} {y2:.2f} l S")

    def box(self, x: float, y: float, w: float, h: float, gray: float = 0.95) -> None:
        self.ops.append(f"{gray:g} g {x:.2f} {y:.2f} {w:.2f} {h:.2f} re f")


def document(page: Page, title: str = "") -> bytes:
    """The one-page PDF file drawing ``page``."""
    content = "\n".join(page.ops).encode("latin-1")
    font = "<< /Type /Font /Subtype /Type1 /BaseFont /{} /Encoding /WinAnsiEncoding >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] "
         "/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>").encode(),
        font.format("Helvetica").encode(),
        font.format("Helvetica-Bold").encode(),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        f"<< /Title ({_escape(title)}) /Producer (LeadVault) >>".encode("latin-1"),
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 7 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


_SHOWN = re.compile(rb"\((?P<text>(?:\\.|[^\\)])*)\) Tj")


def page_text(pdf: bytes) -> list[str]:
    """Every string the page shows, in drawing order (for tests and checks of a ``document``)."""
    return [re.sub(rb"\\(.)", rb"\1", m.group("text")).decode("latin-1") for m in _SHOWN.finditer(pdf)]
