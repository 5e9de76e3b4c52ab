"""IDX files, gzipped or not."""

import gzip
import os
import struct
import tempfile
import unittest

from support import REPOSITORY  # noqa: F401

import numpy as np

from paramhub_worker.data import fashion_mnist, read_idx


class IdxTest(unittest.TestCase):

    def test_should_read_images_and_labels_gzipped_or_not(self):
        with tempfile.TemporaryDirectory() as directory:
            # given: two 2 x 3 images (gzipped) and their labels (plain), for both train and test
            images = struct.pack(">HBBIII", 0, 0x08, 3, 2, 2, 3) + bytes(range(0, 240, 20))
            labels = struct.pack(">HBBI", 0, 0x08, 1, 2) + bytes([7, 1])
            for prefix in ("train", "t10k"):
                with gzip.open(os.path.join(directory, prefix + "-images-idx3-ubyte.gz"), "wb") as f:
                    f.write(images)
                with open(os.path.join(directory, prefix + "-labels-idx1-ubyte"), "wb") as f:
                    f.write(labels)

            # when
            (train_x, train_y), (test_x, _) = fashion_mnist(directory)

        # then
        self.assertEqual((train_x.shape, train_x.dtype, train_y.dtype), ((2, 2, 3), np.float32, np.int64))
        self.assertAlmostEqual(float(train_x[1, 1, 2]), 220 / 255, places=6)
        self.assertEqual(train_y.tolist(), [7, 1])
        self.assertEqual(test_x.shape, (2, 2, 3))

    def test_should_refuse_a_file_that_is_not_idx(self):
        with tempfile.NamedTemporaryFile(suffix=".idx") as f:
            f.write(b"\x01\x02\x03\x04")
            f.flush()
            with self.assertRaises(ValueError):
                read_idx(f.name)


if __name__ == "__main__":
    unittest.main()
