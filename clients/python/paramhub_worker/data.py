"""Reading IDX files (gzipped or not), such as Debian's Fashion-MNIST in /usr/share/datasets/fashion-mnist."""

import gzip
import os
import struct

import numpy as np

FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"

_TYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"),
          0x0E: np.dtype(">f8")}


def read_idx(path):
    """The array an IDX file holds (magic 0, 0, type, rank; big-endian dimensions; the values)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    zero, kind, rank = struct.unpack_from(">HBB", data, 0)
    if zero != 0 or kind not in _TYPES:
        raise ValueError("%s is not an IDX file" % path)
    shape = struct.unpack_from(">%dI" % rank, data, 4)
    return np.frombuffer(data, dtype=_TYPES[kind], offset=4 + 4 * rank).reshape(shape)


def _find(directory, stem):
    for name in (stem + ".gz", stem):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError("no %s(.gz) in %s" % (stem, directory))


def fashion_mnist(directory=FASHION_MNIST_DIR):
    """((train images, train labels), (test images, test labels)): images float32 N x 28 x 28 in [0, 1], labels int64."""
    def pair(prefix):
        images = read_idx(_find(directory, prefix + "-images-idx3-ubyte")).astype(np.float32) / np.float32(255)
        labels = read_idx(_find(directory, prefix + "-labels-idx1-ubyte")).astype(np.int64)
        return images, labels
    return pair("train"), pair("t10k")
