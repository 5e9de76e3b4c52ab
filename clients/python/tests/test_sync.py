"""When a worker may start a clock (SyncPolicy.mayStart) and which records its model view keeps (ModelView)."""

import unittest

from support import REPOSITORY  # noqa: F401

import numpy as np

from paramhub_worker.model import ModelView
from paramhub_worker.sync import SyncPolicy


def shard(index, version, min_clock, values, first, clocks=None, job="j", **plan):
    record = {"job": job, "shard": index, "version": version, "minClock": min_clock, "firstParameter": first,
              "values": np.asarray(values, dtype="<f4").tobytes(), "clocks": clocks or {}}
    record.update(plan)
    return record


class SyncPolicyTest(unittest.TestCase):

    def test_should_start_a_bsp_clock_only_when_every_shard_applied_the_one_before(self):
        bsp = SyncPolicy("BSP")
        self.assertTrue(bsp.may_start(5, 0, 5, 0))
        self.assertFalse(bsp.may_start(5, 0, 4, 5))
        self.assertIsNone(bsp.pinned_version(5))

    def test_should_run_d_clocks_ahead_on_the_pinned_version_when_pipelined(self):
        pipelined = SyncPolicy("BSP", pipeline_depth=2)
        self.assertTrue(pipelined.may_start(5, 0, 3, 0))
        self.assertFalse(pipelined.may_start(5, 0, 2, 0))
        self.assertEqual((pipelined.pinned_version(5), pipelined.pinned_version(1)), (3, 0))

    def test_should_bound_ssp_by_staleness_and_its_own_writes_except_at_the_joining_clock(self):
        ssp = SyncPolicy("SSP", staleness=2)
        self.assertTrue(ssp.may_start(5, 0, 3, 5))
        self.assertFalse(ssp.may_start(5, 0, 2, 5))
        self.assertFalse(ssp.may_start(5, 0, 3, 4))
        self.assertTrue(ssp.may_start(5, 5, 3, 0))

    def test_should_wait_only_for_its_own_writes_under_asp(self):
        asp = SyncPolicy("ASP")
        self.assertTrue(asp.may_start(50, 0, 0, 50))
        self.assertFalse(asp.may_start(50, 0, 0, 49))
        self.assertTrue(asp.may_start(50, 50, -1, 0))

    def test_should_follow_planned_shares_only_under_bsp(self):
        self.assertTrue(SyncPolicy("BSP").follows_planned_shares)
        self.assertFalse(SyncPolicy("SSP").follows_planned_shares)


class ModelViewTest(unittest.TestCase):

    def test_should_keep_the_newest_by_version_then_min_clock(self):
        # given
        view = ModelView("j", 1)

        # when / then
        self.assertTrue(view.offer(shard(0, 3, 3, [1], 0)))
        self.assertFalse(view.offer(shard(0, 2, 9, [2], 0)))
        self.assertFalse(view.offer(shard(0, 3, 3, [3], 0)))
        self.assertTrue(view.offer(shard(0, 3, 4, [4], 0)))
        self.assertEqual((view.versions(), view.min_clock()), ([3], 4))

    def test_should_pass_over_other_jobs_and_shards_out_of_range(self):
        # given
        view = ModelView("j", 2)

        # then
        self.assertFalse(view.offer(shard(0, 1, 1, [1], 0, job="other")))
        self.assertFalse(view.offer(shard(2, 1, 1, [1], 0)))
        self.assertFalse(view.complete())
        self.assertEqual(view.min_clock(), -1)

    def test_should_assemble_the_shards_and_read_own_clocks(self):
        # given
        view = ModelView("j", 2)
        view.offer(shard(1, 4, 4, [3, 4], 2, {"worker-000": 4, "worker-001": 3}))
        view.offer(shard(0, 4, 5, [1, 2], 0, {"worker-000": 4}, shares={"worker-000": 1.0}, planEpoch=7))

        # then
        np.testing.assert_array_equal(view.assemble(4), [1, 2, 3, 4])
        self.assertEqual((view.min_clock(), view.applied_clocks("worker-000"), view.applied_clocks("worker-001")),
                         (4, 4, 0))
        self.assertEqual((view.plan_shares(), view.plan_version()), ({"worker-000": 1.0}, 7))

    def test_should_pin_a_version_it_keeps_or_else_the_oldest_it_holds(self):
        # given: pipelined depth 1 keeps two versions
        view = ModelView("j", 2, kept=2)
        for version in (3, 4, 5):
            view.offer(shard(0, version, version, [version], 0))
        view.offer(shard(1, 5, 5, [50], 1))

        # when
        pinned = view.at(4)

        # then
        np.testing.assert_array_equal(pinned.assemble(2), [4, 50])
        self.assertEqual(pinned.versions(), [4, 5])


if __name__ == "__main__":
    unittest.main()
