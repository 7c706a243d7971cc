#!/usr/bin/env python3
"""ansi2html.py: a terminal screen captured with tmux capture-pane -e
(SGR colour escapes) on stdin, as an HTML page on stdout (for
scripts/editor-screenshot.sh)."""
import html
import re
import sys

# xterm's 16 colours, then the 6x6x6 cube and the grey ramp
BASE = ["#1e1e1e", "#cd3131", "#0dbc79", "#c8a600", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
        "#666666", "#f14c4c", "#23d18b", "#d8c400", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]


def color(n):
    if n < 16:
        return BASE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


FG, BG = "#d4d4d4", "#1e1e1e"


def main():
    out = []
    state = {"fg": None, "bg": None, "bold": False, "rev": False, "ul": False}
    for line in sys.stdin.read().split("\n"):
        parts = re.split(r"\x1b\[([0-9;:]*)m", line)
        row = []
        for i, p in enumerate(parts):
            if i % 2 == 1:
                codes = [int(c) if c else 0 for c in re.split(r"[;:]", p)] if p else [0]
                j = 0
                while j < len(codes):
                    c = codes[j]
                    if c == 0:
                        state = {"fg": None, "bg": None, "bold": False, "rev": False, "ul": False}
                    elif c == 1:
                        state["bold"] = True
                    elif c == 4:
                        state["ul"] = True
                    elif c == 7:
                        state["rev"] = True
                    elif c == 22:
                        state["bold"] = False
                    elif c == 24:
                        state["ul"] = False
                    elif c == 27:
                        state["rev"] = False
                    elif 30 <= c <= 37:
                        state["fg"] = BASE[c - 30]
                    elif 90 <= c <= 97:
                        state["fg"] = BASE[c - 90 + 8]
                    elif 40 <= c <= 47:
                        state["bg"] = BASE[c - 40]
                    elif 100 <= c <= 107:
                        state["bg"] = BASE[c - 100 + 8]
                    elif c == 39:
                        state["fg"] = None
                    elif c == 49:
                        state["bg"] = None
                    elif c in (38, 48) and j + 2 < len(codes) and codes[j + 1] == 5:
                        state["fg" if c == 38 else "bg"] = color(codes[j + 2])
                        j += 2
                    elif c in (38, 48) and j + 4 < len(codes) and codes[j + 1] == 2:
                        state["fg" if c == 38 else "bg"] = "#%02x%02x%02x" % tuple(codes[j + 2:j + 5])
                        j += 4
                    j += 1
                continue
            if not p:
                continue
            fg, bg = state["fg"] or FG, state["bg"] or BG
            if state["rev"]:
                fg, bg = bg, fg
            style = "color:%s;background:%s" % (fg, bg)
            if state["bold"]:
                style += ";font-weight:bold"
            if state["ul"]:
                style += ";text-decoration:underline"
            row.append('<span style="%s">%s</span>' % (style, html.escape(p)))
        out.append("".join(row))
    print("""<!doctype html><meta charset="utf-8"><style>
body{margin:0;background:%s}
pre{margin:8px;font:14px/18px 'DejaVu Sans Mono',monospace;color:%s}
</style><pre>%s</pre>""" % (BG, FG, "\n".join(out)))


if __name__ == "__main__":
    main()
