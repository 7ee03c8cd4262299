"""examples/dask_batch.py on a LocalCluster of two workers gives, line for line, what one
`shoutan batch` gives for the same folder (issue 14); skipped where no Python has Dask's
distributed (Debian's python3-distributed, which .ci/install-deps installs).

usage: batch_dask_test.py SHOUTAN SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile
import zipfile

from harness import Checks, random_game_sgf

SHOUTAN, SOURCE = (os.path.abspath(a) for a in sys.argv[1:3])
check = Checks()

# The interpreter running this test may be another than the one Debian's package serves.
python = None
for candidate in (sys.executable, "/usr/bin/python3"):
    if os.path.exists(candidate) and subprocess.run(
            [candidate, "-c", "import dask.distributed"], capture_output=True).returncode == 0:
        python = candidate
        break
if python is None:
    print("SKIP: no Python here has dask.distributed (Debian: python3-distributed)")
    sys.exit(77)

with tempfile.TemporaryDirectory() as tmp:
    games = os.path.join(tmp, "games")
    os.makedirs(os.path.join(games, "sub"))
    # 33 games: 29 files, a file of two, a zip of two (one in a folder of it).
    for i in range(29):
        with open(os.path.join(games, "sub" if i % 3 == 0 else "", "g%02d.sgf" % i), "w") as f:
            f.write(random_game_sgf(i, size=9 + 2 * (i % 3), length=30 + i))
    with open(os.path.join(games, "two.sgf"), "w") as f:
        f.write(random_game_sgf(40) + random_game_sgf(41, result="W+R"))
    with zipfile.ZipFile(os.path.join(games, "more.zip"), "w") as z:
        z.writestr("inside/a.sgf", random_game_sgf(42))
        z.writestr("b.sgf", random_game_sgf(43, size=13))
    options = ["-r", "chinese,japanese,ancient", "--dead", "auto"]
    single = subprocess.run([SHOUTAN, "batch", "games"] + options, capture_output=True, cwd=tmp,
                            timeout=300)
    dask = subprocess.run([python, os.path.join(SOURCE, "examples", "dask_batch.py"),
                           "--shoutan", SHOUTAN, "--workers", "2", "--partitions", "7", "games",
                           "--"] + options, capture_output=True, cwd=tmp, timeout=300)
    lines = single.stdout.decode().splitlines()
    check("the single-process batch scores every game", single.returncode == 0 and
          len(lines) == 3 * 33, (single.returncode, len(lines), single.stderr.decode()[-500:]))
    check("dask_batch.py on two workers gives the same lines in the same order",
          dask.returncode == 0 and dask.stdout.decode().splitlines() == lines,
          (dask.returncode, dask.stderr.decode()[-2000:]))

sys.exit(check.summary())
