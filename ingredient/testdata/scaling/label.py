#!/usr/bin/env python3
"""Fills in the expected fields of vectors.json from the hand-written marks of each vector.

A vector's "marked" field is its line with every number that scales in brackets, "[1 1/2]", and
every English unit or counted noun that agrees with the number before it as "{singular|plural}".
The marks are written by hand from the issue's rules ("What scales", "What never scales"); this
tool only does the arithmetic of "How results read", exactly (with fractions), so the expected
text never comes from the code under test. It writes, for each vector:

  numbers  the marked numbers: UTF-16 start and end in the line, and value;
  scaled   the expected line for each factor.

Run it after editing marks: python3 label.py vectors.json
"""
import html
import json
import re
import sys
from fractions import Fraction

FACTORS = ["1", "1/3", "1/2", "2/3", "3/4", "4/3", "3/2", "2", "3"]
VULGAR = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "¼": Fraction(1, 4),
          "¾": Fraction(3, 4), "⅛": Fraction(1, 8), "⅜": Fraction(3, 8), "⅝": Fraction(5, 8), "⅞": Fraction(7, 8)}
GLYPH = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾", (1, 8): "⅛"}
PARTS = [(0, 1), (1, 2), (1, 3), (2, 3), (1, 4), (3, 4), (1, 8)]  # simplest first: ties go to it
MARK = re.compile(r"\[([^\]]+)\]|\{([^}|]+)\|([^}]+)\}")
VG = "".join(VULGAR)
# The word for "and" that joins a whole number to its fraction in a mixed number: "1 and 1/2"
# (English), "2 e 1/2" (Portuguese, Italian), "1 y 1/2" (Spanish), "1 i 1/2" (Polish), "1 et 1/2".
JOIN = r"(?:and|e|y|et|und|en|i|och|og)"


def parse_number(text):
    """Returns (value, style) of a number as written. A character reference left from a web page
    reads as the character it stands for ("1&frac12;" is "1½"), as the issue says."""
    text = html.unescape(text)
    m = re.fullmatch(rf"(\d+)(\s+{JOIN}\s+|\s+|-)(\d+)([/⁄])(\d+)", text)
    if m:
        style = "fraction-slash" if m[4] == "⁄" else "hyphen-fraction" if m[2] == "-" else "ascii-fraction"
        return int(m[1]) + Fraction(int(m[3]), int(m[5])), style
    m = re.fullmatch(rf"(\d+)(\s?)([{VG}])", text)
    if m:
        return int(m[1]) + VULGAR[m[3]], "unicode-spaced" if m[2] else "unicode"
    m = re.fullmatch(r"(\d+)([/⁄])(\d+)", text)
    if m:
        return Fraction(int(m[1]), int(m[3])), "fraction-slash" if m[2] == "⁄" else "ascii-fraction"
    if text in VULGAR:
        return VULGAR[text], "unicode"
    if re.fullmatch(r"\d*\.\d+", text):
        return Fraction(text), "decimal"
    if re.fullmatch(r"\d+,\d{1,2}", text):
        return Fraction(text.replace(",", ".")), "decimal-comma"
    if re.fullmatch(r"\d+", text):
        return Fraction(int(text)), "integer"
    raise ValueError(f"not a number: {text!r}")


def readable(x):
    """The readable fraction (whole, num, den) nearest x within 2%, or None."""
    best, best_diff = None, None
    whole = x.numerator // x.denominator
    for w in (whole, whole + 1):
        for n, d in PARTS:
            c = w + Fraction(n, d)
            if c <= 0:
                continue
            diff = abs(c - x)
            if diff / x <= Fraction(2, 100) and (best_diff is None or diff < best_diff):
                best, best_diff = (w, n, d), diff
    return best


def decimal(x, comma):
    """Half up to two places, trailing zeros dropped."""
    cents = (x * 100 + Fraction(1, 2)).numerator // (x * 100 + Fraction(1, 2)).denominator
    shown = Fraction(cents, 100)
    whole, rest = divmod(cents, 100)
    text = str(whole) if rest == 0 else f"{whole}.{rest:02d}".rstrip("0")
    return (text.replace(".", ",") if comma else text), shown


def fmt(x, style, sep=" "):
    """Writes x in the style of the input number; returns (text, the value the text stands for).
    sep joins the whole number and the fraction, as the input's mixed number did ("1 and 1/2")."""
    comma = style == "decimal-comma"
    if style in ("decimal", "decimal-comma") and (x * 100).denominator == 1:
        return decimal(x, comma)
    r = readable(x)
    if r is None:
        return decimal(x, comma)
    w, n, d = r
    shown = w + Fraction(n, d)
    if n == 0:
        return str(w), shown
    ws = str(w) if w else ""
    if style == "unicode":
        return ws + GLYPH[(n, d)], shown
    if style == "unicode-spaced":
        return (ws + sep if ws else "") + GLYPH[(n, d)], shown
    if style == "hyphen-fraction":
        return (ws + "-" if ws else "") + f"{n}/{d}", shown
    if style == "fraction-slash":
        return (ws + sep if ws else "") + f"{n}\u2044{d}", shown
    return (ws + sep if ws else "") + f"{n}/{d}", shown


def segments(marked):
    out, pos = [], 0
    for m in MARK.finditer(marked):
        if m.start() > pos:
            out.append(("text", marked[pos:m.start()]))
        out.append(("num", m[1]) if m[1] is not None else ("word", m[2], m[3]))
        pos = m.end()
    if pos < len(marked):
        out.append(("text", marked[pos:]))
    return out


RANGE_SEP = re.compile(r"\s*(?:-|–|—|to|or|à|bis|a)\s*")
BORROWS = ("unicode", "unicode-spaced", "fraction-slash")


def range_styles(segs):
    """Styles of the numbers, where a whole number at one end of a range ("[½]-[1]") takes the
    fraction style of the other end, so "½-1" × 1.5 reads "¾-1½"."""
    nums = [i for i, s in enumerate(segs) if s[0] == "num"]
    styles = {i: parse_number(segs[i][1])[1] for i in nums}
    for a, b in zip(nums, nums[1:]):
        if b == a + 2 and segs[a + 1][0] == "text" and RANGE_SEP.fullmatch(html.unescape(segs[a + 1][1])):
            sa, sb = styles[a], styles[b]
            if sa == "integer" and sb in BORROWS:
                styles[a] = sb
            elif sb == "integer" and sa in BORROWS:
                styles[b] = sa
    return styles


def render(segs, line, factor, forms):
    """The line at factor; with factor None, the line as written, choosing each word's written form
    (appended to forms) by the line, or by the number before it when there is no line."""
    text, last_value, last_shown, numbers, k = "", None, None, [], 0
    styles = range_styles(segs)
    for idx, s in enumerate(segs):
        if s[0] == "text":
            text += s[1]
        elif s[0] == "num":
            value, style = parse_number(s[1])[0], styles[idx]
            start = len(text.encode("utf-16-le")) // 2
            if factor is None:
                out, shown = s[1], value
            else:
                m = re.match(rf"\d+(\s+(?:{JOIN}\s+)?)\S", s[1])
                out, shown = fmt(value * factor, style, m[1] if m else " ")
            text += out
            numbers.append({"start": start, "end": len(text.encode("utf-16-le")) // 2, "value": float(value)})
            last_value, last_shown = value, shown
        else:
            sing, plur = s[1], s[2]
            if factor is None:
                if line is not None:
                    written = plur if line[len(text):].startswith(plur) else sing
                else:
                    written = plur if last_value > 1 else sing
                forms.append(written)
            else:
                written = forms[k]
            k += 1
            if factor is not None and (last_value > 1) != (last_shown > 1):
                written = plur if last_shown > 1 else sing
            text += written
    return text, numbers


def label(v):
    segs = segments(v["marked"])
    forms = []
    plain, numbers = render(segs, v.get("line"), None, forms)
    if "line" in v and plain != v["line"]:
        raise SystemExit(f"marks do not match the line:\n  {v['line']!r}\n  {plain!r}")
    v["line"] = plain
    v["numbers"] = numbers
    v["scaled"] = {}
    for f in FACTORS:
        fac = Fraction(f)
        v["scaled"][f] = plain if fac == 1 else render(segs, plain, fac, forms)[0]
    return v


def main(path):
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["factors"] = FACTORS
    doc["vectors"] = [label(v) for v in doc["vectors"]]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
