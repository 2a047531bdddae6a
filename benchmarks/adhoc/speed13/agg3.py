"""Direct children of a frame (by function) within samples containing it, % of that frame."""
import sys, re, collections
path, parent = sys.argv[1], sys.argv[2]
depth = int(sys.argv[3]) if len(sys.argv) > 3 else 1
kids = collections.Counter(); total = 0
for line in open(path):
    stack, n = line.rsplit(" ", 1); n = int(n)
    frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")]
    idx = [i for i, f in enumerate(frames) if f.startswith(parent + " ")]
    if not idx: continue
    i = idx[0]
    total += n
    kid = ";".join(frames[i + 1:i + 1 + depth]) or "<self>"
    kids[kid] += n
print(parent, "samples", total)
for k, v in kids.most_common(40):
    print(f"{100*v/total:6.1f}%  {k}")
