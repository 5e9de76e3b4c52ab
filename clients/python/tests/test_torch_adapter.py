"""The PyTorch adapter: a module's parameters and gradients flattened in named_parameters() order, and back."""

import json
import os
import tempfile
import unittest
import warnings

from support import REPOSITORY  # noqa: F401

import numpy as np

try:
    import torch
except ImportError:  # pragma: no cover - CI installs python3-torch (scripts/install-deps)
    torch = None


@unittest.skipIf(torch is None, "python3-torch is not installed")
class TorchModelTest(unittest.TestCase):

    def module(self):
        torch.manual_seed(0)
        return torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.Flatten(), torch.nn.Linear(8, 3))

    def test_should_flatten_in_named_parameters_order(self):
        # given
        from paramhub_worker.torch_adapter import TorchModel
        module = self.module()

        # when
        model = TorchModel(module)
        flat = model.flat_parameters()

        # then
        self.assertEqual(model.tensors(), [{"name": "0.weight", "shape": [2, 1, 3, 3]}, {"name": "0.bias", "shape": [2]},
                                           {"name": "2.weight", "shape": [3, 8]}, {"name": "2.bias", "shape": [3]}])
        self.assertEqual((flat.dtype, flat.size), (np.float32, 18 + 2 + 24 + 3))
        np.testing.assert_array_equal(flat[:18], module[0].weight.detach().numpy().reshape(-1))
        np.testing.assert_array_equal(flat[-3:], module[2].bias.detach().numpy())

    def test_should_load_a_flat_vector_into_the_module(self):
        # given
        from paramhub_worker.torch_adapter import TorchModel
        model = TorchModel(self.module())
        wanted = np.arange(model.parameter_count, dtype=np.float32)
        wanted.flags.writeable = False  # as Step.parameters is

        # when
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            model.load(wanted)

        # then: the module holds copies, which training may change
        np.testing.assert_array_equal(model.flat_parameters(), wanted)
        self.assertEqual(model.module[2].weight[1, 0].item(), 20 + 8)
        with torch.no_grad():
            model.module[2].bias.add_(1.0)
        self.assertEqual(wanted[-1], model.parameter_count - 1)

    def test_should_flatten_gradients_with_zeros_where_there_are_none(self):
        # given: the conv's bias takes no part in the loss
        from paramhub_worker.torch_adapter import TorchModel
        module = self.module()
        model = TorchModel(module)
        module[0].bias.requires_grad_(False)
        module(torch.ones(1, 1, 4, 4)).sum().backward()

        # when
        gradient = model.flat_gradient()

        # then
        self.assertEqual(gradient.size, model.parameter_count)
        np.testing.assert_array_equal(gradient[18:20], [0, 0])
        np.testing.assert_array_equal(gradient[-3:], [1, 1, 1])
        np.testing.assert_array_equal(gradient[:18], module[0].weight.grad.numpy().reshape(-1))

    def test_should_export_the_external_model_file_with_its_values_beside_it(self):
        # given
        from paramhub_worker.torch_adapter import TorchModel
        model = TorchModel(self.module())

        with tempfile.TemporaryDirectory() as directory:
            # when
            model.export(os.path.join(directory, "lenet.json"))

            # then
            with open(os.path.join(directory, "lenet.json")) as f:
                described = json.load(f)
            values = np.fromfile(os.path.join(directory, described["initialParametersFile"]), dtype="<f4")
        self.assertEqual(described["format"], "paramhub-external-model/1")
        self.assertEqual(described["initialParametersFile"], "lenet.f32")
        self.assertEqual(described["tensors"], model.tensors())
        np.testing.assert_array_equal(values, model.flat_parameters())


if __name__ == "__main__":
    unittest.main()
