"""A ``torch.nn.Module`` as an external model: its parameters flattened into the job's layout and back.

The layout is the module's ``named_parameters()`` in order, each tensor row-major (C order), one after the
other: what JobSpec.tensors describes. ``export`` writes the file ``paramhub-submit --external-model`` reads.
torch is imported only when a TorchModel is made.
"""

import json
import os
import warnings

import numpy as np

FORMAT = "paramhub-external-model/1"


class TorchModel:
    """Flattens and loads a module's parameters and gradients as one float32 vector."""

    def __init__(self, module):
        import torch  # noqa: F401  (fails here, clearly, without python3-torch)

        self.module = module
        self._named = list(module.named_parameters())

    def tensors(self):
        """[{"name", "shape"}] in named_parameters() order."""
        return [{"name": name, "shape": [int(d) for d in p.shape]} for name, p in self._named]

    @property
    def parameter_count(self):
        return sum(p.numel() for _, p in self._named)

    def flat_parameters(self):
        """The parameters as one new float32 vector."""
        return np.concatenate([p.detach().cpu().reshape(-1).numpy().astype(np.float32, copy=False)
                               for _, p in self._named]) if self._named else np.zeros(0, np.float32)

    def load(self, flat):
        """Copies the flat vector ``flat`` into the module's parameters."""
        import torch

        flat = np.asarray(flat, dtype=np.float32).reshape(-1)
        if flat.size != self.parameter_count:
            raise ValueError("expected %d values, got %d" % (self.parameter_count, flat.size))
        with warnings.catch_warnings():  # a read-only array (Step.parameters) is only read from here
            warnings.simplefilter("ignore", UserWarning)
            source = torch.from_numpy(flat)
        offset = 0
        with torch.no_grad():
            for _, p in self._named:
                n = p.numel()
                p.copy_(source[offset:offset + n].view_as(p))
                offset += n

    def flat_gradient(self):
        """The parameters' ``.grad`` as one new float32 vector, zeros where a gradient is None."""
        parts = []
        for _, p in self._named:
            if p.grad is None:
                parts.append(np.zeros(p.numel(), dtype=np.float32))
            else:
                parts.append(p.grad.detach().cpu().reshape(-1).numpy().astype(np.float32, copy=False))
        return np.concatenate(parts) if parts else np.zeros(0, np.float32)

    def export(self, path_json):
        """Writes the external-model file (JSON) and, beside it, its version 0 as raw float32 little-endian."""
        base = os.path.splitext(os.path.basename(path_json))[0]
        values_name = base + ".f32"
        directory = os.path.dirname(os.path.abspath(path_json))
        self.flat_parameters().astype("<f4").tofile(os.path.join(directory, values_name))
        with open(path_json, "w") as f:
            json.dump({"format": FORMAT, "tensors": self.tensors(), "initialParametersFile": values_name}, f, indent=2)
            f.write("\n")
        return path_json
