#!/usr/bin/env python3
"""Writes a file's bytes as a C array, so the daemon serves its lab page without reading a file.

usage: embed.py INPUT OUTPUT.h NAME
"""
import sys

src, out, name = sys.argv[1:4]
with open(src, "rb") as f:
    data = f.read()
with open(out, "w") as f:
    f.write("/* %s, generated from %s by embed.py: do not edit. */\n" % (out.split("/")[-1],
                                                                       src.split("/")[-1]))
    f.write("#include <stddef.h>\n\nstatic const unsigned char %s[] = {\n" % name)
    for i in range(0, len(data), 16):
        f.write("\t" + ", ".join("0x%02x" % b for b in data[i:i + 16]) + ",\n")
    f.write("};\nstatic const size_t %s_len = %d;\n" % (name, len(data)))
