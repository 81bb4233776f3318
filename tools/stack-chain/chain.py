#!/usr/bin/env python3
"""The deepest static stack chain under the functions whose demangled name
matches ROOT (a regular expression), in a release binary BIN.

A frame is what its prologue reserves (pushed registers, `sub rsp` and
stack-probe sizes) plus 8 bytes of return address; the chain follows every
direct call and tail jump found in `objdump -d`, without cycles. Demangled
names whose text contains one of SKIP (comma-separated) are not followed,
e.g. the error constructors, to see the chain a well-formed file takes.

    python3 tools/stack-chain/chain.py BIN 'MeshWriter::mesh(::h[0-9a-f]+)?$' [SKIP]
"""
import re
import subprocess
import sys

binary, root = sys.argv[1], sys.argv[2]
skip = [s for s in (sys.argv[3] if len(sys.argv) > 3 else "").split(",") if s]
listing = subprocess.run(
    ["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True
).stdout
size, calls = {}, {}
fn, in_prologue, probe = None, False, 0
for line in listing.splitlines():
    m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
    if m:
        fn, in_prologue, probe = m.group(1), True, 0
        size[fn], calls[fn] = 8, set()
        continue
    if fn is None:
        continue
    m = re.search(r"\bcall\s+[0-9a-f]+ <([^>+]*)(\+0x[0-9a-f]+)?>", line)
    if m:
        calls[fn].add(m.group(1))
    m = re.search(r"\bjmp\s+[0-9a-f]+ <([^>+]*)>", line)
    if m and m.group(1) != fn:
        calls[fn].add(m.group(1))
    if not in_prologue:
        continue
    if re.search(r"\bcall|\bret|\bjmp ", line):
        in_prologue = False
        continue
    if re.search(r"\bpush\s+%r", line):
        size[fn] += 8
        continue
    m = re.search(r"sub\s+\$0x([0-9a-f]+),%r11", line)
    if m:
        probe = int(m.group(1), 16)
        size[fn] += probe
        continue
    m = re.search(r"sub\s+\$0x([0-9a-f]+),%rsp", line)
    if m:
        v = int(m.group(1), 16)
        if not (v == 0x1000 and probe):
            size[fn] += v
names = list(size)
demangled = dict(
    zip(
        names,
        subprocess.run(
            ["c++filt"], input="\n".join(names), capture_output=True, text=True
        ).stdout.splitlines(),
    )
)
sys.setrecursionlimit(100000)
deepest = {}


def chain(f, seen):
    if f in deepest:
        return deepest[f]
    if f in seen or f not in size:
        return (0, [])
    best = (0, [])
    for g in calls.get(f, ()):
        if any(s in demangled.get(g, g) for s in skip):
            continue
        below = chain(g, seen | {f})
        if below[0] > best[0]:
            best = below
    deepest[f] = (size[f] + best[0], [f] + best[1])
    return deepest[f]


for f in names:
    if re.search(root, demangled[f]):
        total, path = chain(f, frozenset())
        print(total, demangled[f])
        for p in path:
            print("   ", size[p], demangled[p])
