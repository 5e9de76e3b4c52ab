"""Which job specs a worker passes over (a subset of JobSpecs.problems, and an external model's layout)."""

import unittest

from support import REPOSITORY  # noqa: F401

from paramhub_worker.jobs import problems


def spec(**changes):
    base = {"job": "j", "model": "external", "parameters": 6, "shards": 2, "syncMode": "BSP", "staleness": 0,
            "learningRate": 0.1, "globalBatch": 8, "expectedWorkers": 2, "epochs": 1, "sessionTimeoutMs": 10000,
            "pipelineDepth": 0, "tensors": [{"name": "w", "shape": [2, 2]}, {"name": "b", "shape": [2]}],
            "initialParameters": b"\x00" * 24}
    base.update(changes)
    return base


class JobProblemsTest(unittest.TestCase):

    def test_should_accept_a_valid_external_job(self):
        self.assertEqual(problems(spec()), [])

    def test_should_refuse_what_the_aggregator_refuses(self):
        cases = {
            "shards": spec(shards=7), "batch below workers": spec(globalBatch=1), "name": spec(job="a b"),
            "rate": spec(learningRate=0.0), "depth without bsp": spec(syncMode="SSP", pipelineDepth=1),
            "tensors": spec(tensors=[{"name": "w", "shape": [5]}]), "initial": spec(initialParameters=b"\x00"),
            "session": spec(sessionTimeoutMs=0),
        }
        for name, wrong in cases.items():
            with self.subTest(name):
                self.assertNotEqual(problems(wrong), [])


if __name__ == "__main__":
    unittest.main()
