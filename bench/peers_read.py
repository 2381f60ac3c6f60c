# The Python peers of bench/peers.ts, run by Debian's /usr/bin/python3
# (h5py, fsspec with aiohttp, numpy; pyarrow where it is there). Prints
# {"pyarrow": whether it has it} when ready, then answers each JSON command
# line on stdin with one JSON line: {"check": number, "ms": its time} or
# {"error": text}. A command: {"url", "how": "fsspec" | "download",
# "block": bytes or null (fsspec's default), "cache": fsspec cache_type or
# null, "work": one of WORKS, "args": {...}}. Every command starts cold: a
# new HTTPFileSystem (its own aiohttp session and connections). The time is
# taken here and the garbage collected after it: closing an old session
# from the collector can stall fsspec's next call by a second or more.
import gc
import io
import json
import sys
import time
import urllib.request
import zipfile

import fsspec
import h5py
import numpy as np


def nc(select):
    def work(file, args):
        with h5py.File(file, "r") as f:
            data = f["temperature"][select(args)]
        return float(np.sum(data, dtype=np.float64))
    return work


def parquet_read(file, args):
    import pyarrow.compute
    import pyarrow.parquet
    parquet = pyarrow.parquet.ParquetFile(file)
    if args["group"] is None:
        table = parquet.read(columns=["x"])
    else:
        table = parquet.read_row_group(args["group"], columns=["x"])
    return pyarrow.compute.sum(table["x"]).as_py()


def zip_read(file, args):
    with zipfile.ZipFile(file) as z:
        return sum(len(z.read(name)) for name in args["names"])


WORKS = {
    "nc_step": nc(lambda a: a["step"]),
    "nc_whole": nc(lambda a: slice(None)),
    "nc_point": nc(lambda a: (slice(None), a["lat"], a["lon"])),
    "zip": zip_read,
    "parquet": parquet_read,
}


def opened(command):
    if command["how"] == "download":
        with urllib.request.urlopen(command["url"]) as response:
            return io.BytesIO(response.read())
    fs = fsspec.filesystem("http", skip_instance_cache=True)
    options = {}
    if command["block"] is not None:
        options["block_size"] = command["block"]
    if command["cache"] is not None:
        options["cache_type"] = command["cache"]
    return fs.open(command["url"], "rb", **options)


try:
    import pyarrow.parquet  # noqa: F401
    print(json.dumps({"pyarrow": True}), flush=True)
except ImportError:
    print(json.dumps({"pyarrow": False}), flush=True)
for line in sys.stdin:
    command = json.loads(line)
    try:
        start = time.perf_counter()
        with opened(command) as file:
            check = WORKS[command["work"]](file, command["args"])
        answer = {"check": check, "ms": 1000 * (time.perf_counter() - start)}
    except Exception as error:  # the parent reports it and stops
        answer = {"error": f"{type(error).__name__}: {error}"}
    gc.collect()
    print(json.dumps(answer), flush=True)
