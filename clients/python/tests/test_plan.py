"""The sample plan and the shard layout against values computed by the Java classes (ml/.../SplitMix64.java,
BatchPlan.java, ShardLayout.java) with jshell."""

import time
import unittest

from support import REPOSITORY  # noqa: F401  (puts the library on the path)

import numpy as np

from paramhub_worker.plan import (BatchPlan, ShardLayout, SplitMix64, contiguous_bounds, contiguous_share,
                                  java_round, planned_shares, round_robin_share, worker_id)

# (shares, batch size, per worker (first position or -1 when empty, length)), from BatchPlan.contiguousShare
JAVA_CONTIGUOUS = [
    ([1.0, 1.0, 1.0], 10, [(0, 3), (3, 4), (7, 3)]),
    ([1.0, 1.0, 1.0], 37, [(0, 12), (12, 13), (25, 12)]),
    ([1.0, 1.0, 1.0], 64, [(0, 21), (21, 22), (43, 21)]),
    ([1.0, 1.0, 1.0], 7, [(0, 2), (2, 3), (5, 2)]),
    ([0.5, 0.3, 0.2], 10, [(0, 5), (5, 3), (8, 2)]),
    ([0.5, 0.3, 0.2], 37, [(0, 19), (19, 11), (30, 7)]),
    ([0.5, 0.3, 0.2], 64, [(0, 32), (32, 19), (51, 13)]),
    ([0.5, 0.3, 0.2], 7, [(0, 4), (4, 2), (6, 1)]),
    ([2.5, 1.0, 1.0, 0.5], 10, [(0, 5), (5, 2), (7, 2), (9, 1)]),
    ([2.5, 1.0, 1.0, 0.5], 37, [(0, 19), (19, 7), (26, 7), (33, 4)]),
    ([2.5, 1.0, 1.0, 0.5], 64, [(0, 32), (32, 13), (45, 13), (58, 6)]),
    ([2.5, 1.0, 1.0, 0.5], 7, [(0, 4), (4, 1), (5, 1), (6, 1)]),
    ([1.0, 3.0], 10, [(0, 3), (3, 7)]),
    ([1.0, 3.0], 37, [(0, 9), (9, 28)]),
    ([1.0, 3.0], 64, [(0, 16), (16, 48)]),
    ([1.0, 3.0], 7, [(0, 2), (2, 5)]),
    ([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.4], 10, [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 4)]),
    ([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.4], 37, [(0, 4), (4, 3), (7, 4), (11, 4), (15, 4), (19, 3), (22, 15)]),
    ([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.4], 64, [(0, 6), (6, 7), (13, 6), (19, 7), (26, 6), (32, 6), (38, 26)]),
    ([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.4], 7, [(0, 1), (-1, 0), (1, 1), (2, 1), (3, 1), (-1, 0), (4, 3)]),
    ([0.001, 1.0, 1.0], 10, [(-1, 0), (0, 5), (5, 5)]),
    ([0.001, 1.0, 1.0], 37, [(-1, 0), (0, 19), (19, 18)]),
    ([0.001, 1.0, 1.0], 64, [(-1, 0), (0, 32), (32, 32)]),
    ([0.001, 1.0, 1.0], 7, [(-1, 0), (0, 4), (4, 3)]),
]

# (parameters, shards, per shard (first, length)), from ShardLayout.of
JAVA_LAYOUTS = [
    (287, 3, [(0, 96), (96, 96), (192, 95)]),
    (10, 10, [(i, 1) for i in range(10)]),
    (1199882, 6, [(0, 199981), (199981, 199981), (399962, 199980), (599942, 199980), (799922, 199980),
                  (999902, 199980)]),
    (7, 2, [(0, 4), (4, 3)]),
    (100, 8, [(0, 13), (13, 13), (26, 13), (39, 13), (52, 12), (64, 12), (76, 12), (88, 12)]),
]


class SplitMix64Test(unittest.TestCase):

    def test_should_draw_the_pinned_vector_when_seeded_with_1234567(self):
        # given
        random = SplitMix64(1234567)

        # when
        draws = [random.next_long() for _ in range(5)]

        # then
        self.assertEqual(draws, [6457827717110365317, 3203168211198807973, 9817491932198370423,
                                 4593380528125082431, 16408922859458223821])

    def test_should_draw_the_same_whether_one_by_one_or_vectorised(self):
        # given
        one, many = SplitMix64(-5), SplitMix64(-5)

        # when
        singles = [one.next_long() for _ in range(7)]
        batch = many.next_longs(4).tolist() + many.next_longs(3).tolist()

        # then
        self.assertEqual(singles, batch)


class BatchPlanTest(unittest.TestCase):

    def test_should_give_the_pinned_batches_when_n_is_10_b_5_seed_42(self):
        # given
        plan = BatchPlan(10, 5, 42)

        # when
        batches = [plan.batch(clock).tolist() for clock in range(4)]

        # then
        self.assertEqual(batches, [[6, 7, 4, 3, 9], [5, 0, 8, 2, 1], [9, 7, 8, 5, 4], [1, 6, 0, 3, 2]])

    def test_should_match_java_when_the_data_set_is_fashion_mnist_sized_and_the_seed_negative(self):
        # given: BatchPlan(60000, 64, -7) in Java
        plan = BatchPlan(60000, 64, -7)

        # when
        started = time.perf_counter()
        first = plan.batch(0)[:8].tolist()
        later = plan.batch(937 * 3 + 5)[:8].tolist()
        seconds = time.perf_counter() - started

        # then
        self.assertEqual(first, [46385, 34304, 31912, 13384, 59840, 1143, 44413, 54121])
        self.assertEqual(later, [40899, 16027, 11444, 15719, 13777, 18403, 32806, 59699])
        self.assertLess(seconds, 1.0, "two epochs of 60,000 samples should shuffle in well under a second")

    def test_should_permute_every_sample_once_when_shuffling_an_epoch(self):
        # given
        plan = BatchPlan(1001, 10, 3)

        # when
        permutation = plan.permutation(2)

        # then
        self.assertEqual(sorted(permutation.tolist()), list(range(1001)))
        self.assertEqual(plan.clocks_per_epoch, 100)

    def test_should_refuse_a_batch_larger_than_the_data_set(self):
        with self.assertRaises(ValueError):
            BatchPlan(5, 6, 0)


class SharesTest(unittest.TestCase):

    def test_should_cut_the_batch_as_java_when_following_planned_shares(self):
        for shares, size, expected in JAVA_CONTIGUOUS:
            batch = np.arange(size)
            for worker, (first, length) in enumerate(expected):
                with self.subTest(shares=shares, size=size, worker=worker):
                    # when
                    chunk = contiguous_share(batch, shares, worker)

                    # then
                    self.assertEqual(len(chunk), length)
                    if length:
                        self.assertEqual(chunk[0], first)

    def test_should_partition_the_batch_exactly_when_following_planned_shares(self):
        # given
        shares = [0.37, 1.9, 0.004, 2.2]

        # when
        chunks = [contiguous_bounds(101, shares, worker) for worker in range(4)]

        # then
        self.assertEqual(chunks[0][0], 0)
        self.assertEqual(chunks[-1][1], 101)
        for (_, hi), (lo, _) in zip(chunks, chunks[1:]):
            self.assertEqual(hi, lo)

    def test_should_follow_a_plan_only_when_it_names_exactly_the_jobs_workers(self):
        # given
        full = {"worker-000": 2.0, "worker-001": 1.0}

        # then
        self.assertEqual(planned_shares(full, 2), [2.0, 1.0])
        self.assertIsNone(planned_shares({}, 2))
        self.assertIsNone(planned_shares({"worker-000": 2.0}, 2))
        self.assertIsNone(planned_shares({"worker-000": 2.0, "worker-007": 1.0}, 2))
        self.assertIsNone(planned_shares(full, 3))

    def test_should_round_as_java_math_round(self):
        self.assertEqual([java_round(x) for x in (0.5, 1.5, 2.5, -0.5, -1.5, 2.4999999)], [1, 2, 3, 0, -1, 2])
        # Math.round(0.49999999999999994) and Math.round(2^52 + 1) in Java: exact, where floor(x + 0.5) is not
        self.assertEqual(java_round(0.49999999999999994), 0)
        self.assertEqual(java_round(float(2 ** 52 + 1)), 2 ** 52 + 1)

    def test_should_take_every_nth_position_when_sharing_round_robin(self):
        # given
        batch = np.array([10, 11, 12, 13, 14, 15, 16])

        # then
        self.assertEqual(round_robin_share(batch, 0, 3).tolist(), [10, 13, 16])
        self.assertEqual(round_robin_share(batch, 2, 3).tolist(), [12, 15])
        self.assertEqual(round_robin_share(batch[:2], 2, 3).tolist(), [])


class ShardLayoutTest(unittest.TestCase):

    def test_should_cut_the_model_as_java_when_laying_out_shards(self):
        for parameters, shards, expected in JAVA_LAYOUTS:
            layout = ShardLayout(parameters, shards)
            with self.subTest(parameters=parameters, shards=shards):
                self.assertEqual([(layout.first(s), layout.length(s)) for s in range(shards)], expected)

    def test_should_refuse_more_shards_than_parameters(self):
        with self.assertRaises(ValueError):
            ShardLayout(3, 4)


class WorkerIdTest(unittest.TestCase):

    def test_should_pad_to_three_digits(self):
        self.assertEqual([worker_id(i) for i in (0, 7, 42, 999, 1000)],
                         ["worker-000", "worker-007", "worker-042", "worker-999", "worker-1000"])


if __name__ == "__main__":
    unittest.main()
