#!/usr/bin/env python3
"""Scores whole collections of Go records on a Dask cluster with `shoutan batch`.

The records are listed here as `shoutan batch` reads them (folders recursively in name order,
their .sgf files and archives, names starting with a dot skipped), split into partitions, and
each partition is scored by one task: `shoutan batch --stdin-jsonl` fed one {"path": P} line a
record, on whichever worker Dask gives it. The JSON lines come back in the records' order: the
same lines `shoutan batch PATH...` writes on one machine. Workers read the records by path, so
on a real cluster the collection must be where every worker sees it under the same name (a
shared or network file system).

usage:
  dask_batch.py [--scheduler ADDRESS | --workers N] [--partitions P] [--shoutan COMMAND]
                PATH... [-- BATCH_OPTIONS...] > results.jsonl

  --scheduler tcp://host:8786   a running cluster's scheduler (dask-scheduler, dask-worker)
  --workers N                   otherwise a LocalCluster of N worker processes (default 2)
  --partitions P                how many tasks (default: four a worker)
  --shoutan COMMAND             the command, with global options if any (default: shoutan)
  BATCH_OPTIONS                 passed to each `shoutan batch`: -r A,B --dead auto --komi X
                                (not --format csv or -o: the lines come back here)
"""
import json
import os
import shlex
import stat
import subprocess
import sys

ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".7z")


def is_archive(name):
    return name.lower().endswith(ARCHIVES)


def records(path, named=True):
    """The paths `shoutan batch` reads for PATH, in its order: a file or archive named on the
    command line as it is; a folder's .sgf files and archives sorted by name (as bytes), its
    folders' in turn, without names starting with a dot or links to folders."""
    try:
        st = os.stat(path) if named else os.lstat(path)
    except OSError:
        yield path  # batch says why in its error line
        return
    if not named and stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(path)
        except OSError:
            return
        if stat.S_ISDIR(st.st_mode):
            return
    if stat.S_ISDIR(st.st_mode):
        try:
            names = sorted(os.listdir(os.fsencode(path)))
        except OSError:
            yield path
            return
        for name in names:
            if not name.startswith(b"."):
                yield from records(os.path.join(path, os.fsdecode(name)), False)
    elif is_archive(path) or named or (stat.S_ISREG(st.st_mode) and
                                       path.lower().endswith(".sgf")):
        yield path


def score_partition(paths, shoutan, batch_options):
    """One task: the partition's records through `shoutan batch --stdin-jsonl`, its lines."""
    lines = "".join(json.dumps({"path": p}) + "\n" for p in paths)
    done = subprocess.run(shoutan + ["batch", "--stdin-jsonl", "-j", "1"] + batch_options,
                          input=lines.encode(), capture_output=True)
    if done.returncode != 0:
        raise RuntimeError("shoutan batch failed (status %d): %s" %
                           (done.returncode, done.stderr.decode(errors="replace")))
    return done.stdout.decode()


def main(argv):
    scheduler, workers, partitions, shoutan = None, 2, None, ["shoutan"]
    paths, options = [], []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--":
            options = args
            break
        if a in ("--scheduler", "--workers", "--partitions", "--shoutan") and not args:
            sys.exit("dask_batch.py: %s needs a value" % a)
        if a == "--scheduler":
            scheduler = args.pop(0)
        elif a == "--workers":
            workers = int(args.pop(0))
        elif a == "--partitions":
            partitions = int(args.pop(0))
        elif a == "--shoutan":
            shoutan = shlex.split(args.pop(0))
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            paths.append(a)
    if not paths:
        sys.exit("dask_batch.py: no PATH (see --help)")
    if any(o in ("csv", "-o") or o.endswith("=csv") or o.startswith("-o") for o in options):
        sys.exit("dask_batch.py: the partitions' JSON lines come back here, to standard output: "
                 "no --format csv, no -o")
    from dask.distributed import Client, LocalCluster

    todo = [r for p in paths for r in records(p)]
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        n = partitions or max(1, 4 * len(client.scheduler_info()["workers"]))
        n = min(n, len(todo)) or 1
        size = -(-len(todo) // n)
        chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
        futures = client.map(score_partition, chunks, shoutan=shoutan, batch_options=options,
                             pure=False)
        for text in client.gather(futures):
            sys.stdout.write(text)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
