"""Reads a model exported by `paramhub model export` as NumPy and PyTorch users do, and prints what it read.

Usage: read_export.py NPZ SAFETENSORS
Prints one JSON object: {"npz": {name: {"shape": [...], "values": [...]}}, "safetensors": {...}, "metadata": {...},
"torch": [name, ...]} where "torch" lists the state_dict keys a torch.nn.Linear loaded from the npz arrays.
"""
import json
import struct
import sys

import numpy


def read_npz(path):
    with numpy.load(path) as arrays:
        return {name: arrays[name] for name in arrays.files}


def read_safetensors(path):
    with open(path, "rb") as file:
        (length,) = struct.unpack("<Q", file.read(8))
        header = json.loads(file.read(length))
        data = file.read()
    metadata = header.pop("__metadata__", {})
    tensors = {}
    for name, entry in header.items():
        assert entry["dtype"] == "F32", entry
        begin, end = entry["data_offsets"]
        tensors[name] = numpy.frombuffer(data[begin:end], dtype="<f4").reshape(entry["shape"])
    return tensors, metadata


def described(tensors):
    return {name: {"shape": list(array.shape), "dtype": str(array.dtype), "values": array.ravel().tolist()}
            for name, array in tensors.items()}


def main():
    npz = read_npz(sys.argv[1])
    safetensors, metadata = read_safetensors(sys.argv[2])
    loaded = []
    try:
        import torch
        weight = npz["weight"]
        module = torch.nn.Linear(weight.shape[1], weight.shape[0])
        module.load_state_dict({name: torch.from_numpy(array) for name, array in npz.items()})
        loaded = sorted(module.state_dict().keys())
    except ImportError:
        loaded = ["torch missing"]
    print(json.dumps({"npz": described(npz), "safetensors": described(safetensors), "metadata": metadata,
                      "torch": loaded}))


if __name__ == "__main__":
    main()
