#!/usr/bin/env python3
"""What a first build spent its time on, from cargo's --timings report (BENCHMARKS.md, "A
user's first build"): the compile time of every unit added up, the groups of crates that
mcp-assured's default build adds beside rmcp's, and the units that took longest.

Usage: tests/first-build/shares.py OUT/user/target/cargo-timings/cargo-timing.html
       (written by `TIMINGS=1 OUT=OUT tests/first-build/measure.sh`)
"""
import json
import re
import sys

GROUPS = {
    "insta's redactions (pest, and pest 2.9's stack guard: psm, stacker, cc, object)": [
        "pest", "pest_derive", "pest_generator", "pest_meta", "pest_stack_guard", "psm",
        "stacker", "cc", "find-msvc-tools", "shlex", "ar_archive_writer", "object", "ucd-trie",
    ],
    "regex": ["regex", "regex-automata", "regex-syntax", "aho-corasick"],
    "insta itself (console, similar)": ["insta", "console", "similar"],
    "JUnit (quick-junit, quick-xml, uuid)": ["quick-junit", "quick-xml", "newtype-uuid", "uuid"],
    "file locks and temporary files (fs4, rustix, tempfile)": [
        "fs4", "rustix", "linux-raw-sys", "tempfile", "fastrand",
    ],
    "mcp-assured and its macros": ["mcp-assured", "mcp-assured-macros"],
    "rmcp": ["rmcp"],
}


def main(path: str) -> None:
    html = open(path, encoding="utf-8").read()
    units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S).group(1))
    total = sum(unit["duration"] for unit in units)
    print(f"{len(units)} units, {total:.1f} s of compile time added up")
    for group, names in GROUPS.items():
        seconds = sum(unit["duration"] for unit in units if unit["name"] in names)
        print(f"  {seconds:5.1f} s  {100 * seconds / total:4.1f} %  {group}")
    print("longest units (seconds, crate, started at):")
    for unit in sorted(units, key=lambda unit: -unit["duration"])[:10]:
        print(f"  {unit['duration']:5.1f} s  {unit['name']}  {unit['start']:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
