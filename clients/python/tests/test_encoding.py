"""Vectors and keys on the wire: murmur2 against org.apache.kafka.common.utils.Utils.murmur2 (values computed
with jshell and kafka-clients 4.3.1), bfloat16 rounding and error feedback against ml/.../Bfloat16ErrorFeedback.java."""

import unittest

from support import REPOSITORY  # noqa: F401

import numpy as np

from paramhub_worker.encoding import (Bfloat16ErrorFeedback, first_non_finite, murmur2, pack_bfloat16, pack_float32,
                                      partition_for, to_bfloat16, unpack_bfloat16, unpack_float32)

# (key, Utils.murmur2 of its UTF-8 bytes, Utils.toPositive(hash) % 8)
JAVA_MURMUR2 = [
    ("", 275646681, 1), ("a", -1563381124, 4), ("ab", 316155434, 2), ("abc", 479470107, 3),
    ("abcd", -1323649548, 4), ("job/0", 15395598, 6), ("job/1", 1399970872, 0), ("j/2", -1796549640, 0),
    ("demo-mlp/17", 1916233139, 3), ("python-it/0", -40581605, 3), ("python-it/1", 760792792, 0),
    ("python-it/2", -1494901336, 0), ("pytorch-lenet/worker-003", -1418414075, 5),
    ("\u00fcn\u00efc\u00f8d\u00e9/5", -1740222418, 6), ("a-much-longer-key-of-some-length/123456", 891073162, 2),
]

# three clocks of Bfloat16ErrorFeedback(8).round: (input float32 bits, shipped float32 bits)
JAVA_BFLOAT16_CLOCKS = [
    ([0x3F808000, 0x3F818000, 0xBDCCCCCD, 0x40490FD0, 0x0DA24260, 0xC77FE0B3, 0x00000000, 0x3F802000],
     [0x3F800000, 0x3F820000, 0xBDCD0000, 0x40490000, 0x0DA20000, 0xC7800000, 0x00000000, 0x3F800000]),
    ([0x3F808000, 0x3EAAAAAA, 0xBDCCCCCD, 0x402DF84D, 0x0DA24260, 0x42F6E979, 0x80000000, 0x3F802000],
     [0x3F810000, 0x3EA90000, 0xBDCD0000, 0x402E0000, 0x0DA30000, 0x431B0000, 0x00000000, 0x3F800000]),
    ([0x3F000000, 0xBEAAAAAA, 0x3E4CCCCD, 0xC02DF84D, 0x004C3927, 0x60AD78EC, 0x40A00000, 0x3F802000],
     [0x3F000000, 0xBEAB0000, 0x3E4D0000, 0xC02E0000, 0x89760000, 0x60AD0000, 0x40A00000, 0x3F800000]),
]


def floats(bits):
    return np.array(bits, dtype=np.uint32).view(np.float32)


class Murmur2Test(unittest.TestCase):

    def test_should_hash_and_partition_as_the_java_client(self):
        for key, expected_hash, expected_partition in JAVA_MURMUR2:
            with self.subTest(key=key):
                self.assertEqual(murmur2(key.encode("utf-8")), expected_hash)
                self.assertEqual(partition_for(key, 8), expected_partition)


class Bfloat16Test(unittest.TestCase):

    def test_should_round_to_nearest_with_ties_to_even(self):
        # given: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7; 1 + 3 x 2^-8 between 1 + 2^-7 (odd) and 1 + 2^-6
        values = np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -8 + 2 ** -20, -0.1], dtype=np.float32)

        # when
        rounded = to_bfloat16(values)

        # then
        self.assertEqual(rounded.tolist()[:3], [1.0, 1 + 2 ** -6, 1 + 2 ** -7])
        self.assertEqual(rounded[3:].view(np.uint32).tolist(), [0xBDCD0000])

    def test_should_keep_infinities_and_nan_non_finite(self):
        # given
        values = np.array([np.inf, np.nan, np.finfo(np.float32).max], dtype=np.float32)

        # when
        rounded = to_bfloat16(values)

        # then
        self.assertEqual(rounded[0], np.inf)
        self.assertFalse(np.isfinite(rounded[1]))
        self.assertEqual(rounded[2], np.inf)

    def test_should_ship_and_carry_as_java_over_three_clocks(self):
        # given
        feedback = Bfloat16ErrorFeedback(8)

        for clock, (given, expected) in enumerate(JAVA_BFLOAT16_CLOCKS):
            with self.subTest(clock=clock):
                # when
                shipped = feedback.round(floats(given))

                # then
                self.assertEqual(shipped.view(np.uint32).tolist(), expected)

    def test_should_round_trip_bfloat16_through_its_packing(self):
        # given
        shipped = to_bfloat16(np.random.default_rng(3).standard_normal(100).astype(np.float32))

        # when
        packed = pack_bfloat16(shipped)

        # then
        self.assertEqual(len(packed), 200)
        np.testing.assert_array_equal(unpack_bfloat16(packed), shipped)


class Float32PackingTest(unittest.TestCase):

    def test_should_pack_little_endian_and_round_doubles_to_float32(self):
        # given
        values = np.array([1.0, -2.5, 0.1], dtype=np.float64)

        # when
        packed = pack_float32(values)

        # then
        self.assertEqual(packed[:4], b"\x00\x00\x80\x3f")
        np.testing.assert_array_equal(unpack_float32(packed), values.astype(np.float32))

    def test_should_refuse_bytes_that_are_no_whole_number_of_values(self):
        with self.assertRaises(ValueError):
            unpack_float32(b"\x00" * 5)


class FiniteTest(unittest.TestCase):

    def test_should_find_the_first_nan_or_infinity_and_not_take_an_overflowing_sum_for_one(self):
        big = np.full(1000, np.finfo(np.float32).max / 4, dtype=np.float32)
        self.assertFalse(np.isfinite(big.sum()))  # the sum overflows, the values are finite
        self.assertIsNone(first_non_finite(big))
        self.assertIsNone(first_non_finite(np.arange(10, dtype=np.float32)))
        for bad in (np.nan, np.inf, -np.inf):
            values = np.ones(1000, dtype=np.float32)
            values[[700, 900]] = bad
            self.assertEqual(first_non_finite(values), 700, bad)


if __name__ == "__main__":
    unittest.main()
