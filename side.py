import subprocess, statistics, sys, time, re
puzzles = ["soma","pentomino-3x20","pentomino-4x15","pentomino-5x12","pentomino-6x10","pentomino-2x3x10","pentomino-2x5x6","pentomino-3x4x5"]
reps = 3
def run(cmd):
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time","-f","%M"]+cmd, capture_output=True, text=True)
    dt = time.perf_counter()-t
    mem = int(p.stderr.strip().splitlines()[-1])
    return dt, mem, p.stdout
rows=[]
for name in puzzles:
    c_t=[]; b_t=[]; cm=bm=0; cout=bout=""
    for r in range(reps):
        dt,mem,out = run(["/work/main/build/cubenum","polycube","count",f"/work/main/data/polycubes/{name}.txt","--threads","2"]); c_t.append(dt); cm=max(cm,mem); cout=out
        dt,mem,out = run(["/tmp/burr-tools/burrTxt","-q","-o","all",f"/tmp/{name}.xmpuzzle"]); b_t.append(dt); bm=max(bm,mem); bout=out
    nums=cout.strip().splitlines()[-1].split()
    b=re.search(r"(\d+) assemblies", bout).group(1)
    ratios=[bb/cc for bb,cc in zip(b_t,c_t)]
    rows.append((name,nums[0],nums[1],nums[2],b,statistics.median(c_t),cm,statistics.median(b_t),bm,statistics.median(ratios)))
    print(rows[-1], flush=True)
print("| puzzle | raw | rotations | symmetries | burrTxt | cubenum s (2 threads) | cubenum MB | burrTxt s | burrTxt MB | ratio (median) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    print(f"| {r[0]} | {int(r[1]):,} | {int(r[2]):,} | {int(r[3]):,} | {int(r[4]):,} | {r[5]:.3f} | {r[6]/1024:.1f} | {r[7]:.3f} | {r[8]/1024:.1f} | {r[9]:.1f}x |")
