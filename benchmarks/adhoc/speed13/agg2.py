"""Within PLXClassifier.fit samples only: inclusive % of fit, and 'self' grouped by first plx_core frame from the leaf."""
import sys, re, collections
path = sys.argv[1]; top = int(sys.argv[2]) if len(sys.argv) > 2 else 50
incl = collections.Counter(); selfp = collections.Counter(); total = 0
for line in open(path):
    stack, n = line.rsplit(" ", 1); n = int(n)
    frames = stack.split(";")
    if not any(f.startswith("PLXClassifier.fit ") for f in frames):
        continue
    total += n
    seen = set()
    keys = []
    for f in frames:
        m = re.match(r"(.*) \((.*?):(\d+)\)", f)
        keys.append((f"{m.group(1)} ({m.group(2).split('/')[-1]})", m.group(2), m.group(3)) if m else (f, "", ""))
    for k, _, _ in keys:
        if k not in seen:
            incl[k] += n; seen.add(k)
    # leafmost plx_core frame, with line
    for k, file, ln in reversed(keys):
        if "plx_core" in file:
            selfp[f"{k}:{ln}"] += n; break
print("fit samples", total)
for k, v in incl.most_common(top):
    print(f"{100*v/total:6.1f}%  {k}")
print("--- leafmost plx_core line")
for k, v in selfp.most_common(top):
    print(f"{100*v/total:6.1f}%  {k}")
