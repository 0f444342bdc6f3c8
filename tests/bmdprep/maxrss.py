"""maxrss.py STATS PROGRAM ARGS... - run PROGRAM on this process's stdin,
stdout and stderr, then write to the file STATS one line: its exit status,
its peak resident memory in KiB (getrusage's ru_maxrss of the child, the
kernel's high-water mark VmHWM), its CPU seconds (user + system) and the
wall seconds.  The streaming tests of bmdprep measure one process of a
pipeline with it."""
import resource
import subprocess
import sys
import time

start = time.monotonic()
rc = subprocess.call(sys.argv[2:])
wall = time.monotonic() - start
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as f:
    f.write("%d %d %.2f %.2f\n" % (rc, ru.ru_maxrss,
                                   ru.ru_utime + ru.ru_stime, wall))
