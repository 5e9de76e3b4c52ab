"""The registry's wire format and the Avro codec, with the repository's own schemas served over HTTP."""

import datetime
import unittest

from support import RegistryServer

import numpy as np

from paramhub_worker.codec import AvroCodec
from paramhub_worker.errors import RegistryError, SubjectNotFoundError
from paramhub_worker.registry import RegistryClient, frame, unframe

SUBJECTS = {
    "paramhub.gradients-value": "GradientShard",
    "paramhub.model-value": "ModelShard",
    "paramhub.telemetry-value": "IterationTelemetry",
    "paramhub.membership-value": "WorkerStatus",
    "paramhub.jobs-value": "JobSpec",
}


class WireFormatTest(unittest.TestCase):

    def test_should_put_magic_zero_and_a_big_endian_id_before_the_body(self):
        # when
        value = frame(258, b"body")

        # then
        self.assertEqual(value, b"\x00\x00\x00\x01\x02body")
        self.assertEqual(unframe(value), (258, 5))

    def test_should_refuse_a_value_without_the_magic_byte(self):
        with self.assertRaises(ValueError):
            unframe(b"\x01\x00\x00\x00\x01x")
        with self.assertRaises(ValueError):
            unframe(b"\x00\x00")


class CodecTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.server = RegistryServer(SUBJECTS, auth=("alice", "s3cret"))

    @classmethod
    def tearDownClass(cls):
        cls.server.close()

    def codec(self):
        return AvroCodec(RegistryClient(self.server.url, auth=("alice", "s3cret")))

    def test_should_decode_what_it_encoded_when_writing_a_gradient(self):
        # given
        codec = self.codec()
        values = np.arange(10, dtype="<f4").tobytes()

        # when
        value = codec.encode("paramhub.gradients", {
            "job": "j", "shard": 1, "worker": "worker-000", "clock": 7, "baseVersion": 7, "sampleCount": 3,
            "loss": 1.5, "values": values})
        decoded = codec.decode(value)

        # then: the default fills the field left out
        self.assertEqual(value[0], 0)
        self.assertEqual(decoded["encoding"], "FLOAT32")
        self.assertEqual((decoded["clock"], decoded["values"]), (7, values))

    def test_should_write_no_contributors_when_a_gradient_leaves_them_out(self):
        # given
        codec = self.codec()

        # when
        decoded = codec.decode(codec.encode("paramhub.gradients", {
            "job": "j", "shard": 0, "worker": "worker-002", "clock": 7, "baseVersion": 7, "sampleCount": 3,
            "loss": 1.5, "values": b"\0\0\0\0"}))

        # then: protocol 1, the worker's own gradient
        self.assertIn("contributors", codec.field_names("paramhub.gradients"))
        self.assertEqual(decoded["contributors"], [])

    def test_should_write_the_contributors_of_a_host_sum(self):
        # given
        codec = self.codec()
        contributors = ["worker-000", "worker-001", "worker-003"]

        # when
        decoded = codec.decode(codec.encode("paramhub.gradients", {
            "job": "j", "shard": 0, "worker": "worker-000", "clock": 7, "baseVersion": 7, "sampleCount": 9,
            "loss": 4.5, "values": b"\0\0\0\0", "contributors": contributors}))

        # then
        self.assertEqual(decoded["contributors"], contributors)
        self.assertEqual((decoded["worker"], decoded["sampleCount"]), ("worker-000", 9))

    def test_should_fill_defaults_and_keep_timestamps_when_writing_telemetry(self):
        # given
        codec = self.codec()
        now = datetime.datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.timezone.utc)

        # when
        decoded = codec.decode(codec.encode("paramhub.telemetry", {
            "job": "j", "worker": "worker-001", "clock": 3, "samples": 8, "computeMs": 1.0, "waitMs": 2.0,
            "threads": 1, "batchShare": 0.5, "timestamp": now,
            "evaluation": {"version": 3, "samples": 100, "accuracy": 0.9, "loss": 0.3}}))

        # then
        self.assertEqual(decoded["timestamp"], now)
        self.assertEqual((decoded["commandEpoch"], decoded["stage"]), (-1, 0))
        self.assertEqual(decoded["evaluation"]["accuracy"], 0.9)

    def test_should_name_the_subject_when_the_registry_lacks_it(self):
        # given
        codec = self.codec()

        # when / then
        with self.assertRaises(SubjectNotFoundError) as caught:
            codec.encode("other.gradients", {})
        self.assertIn("other.gradients-value", str(caught.exception))

    def test_should_be_refused_without_credentials(self):
        # given
        codec = AvroCodec(RegistryClient(self.server.url))

        # when / then
        with self.assertRaises(RegistryError) as caught:
            codec.encode("paramhub.gradients", {})
        self.assertEqual(caught.exception.status, 401)

    def test_should_ask_the_registry_once_per_id_when_decoding_many_records(self):
        # given
        codec = self.codec()
        value = codec.encode("paramhub.membership", {
            "job": "j", "worker": "worker-000", "state": "HEARTBEAT", "clock": 1,
            "timestamp": datetime.datetime.now(datetime.timezone.utc)})
        decoder = self.codec()
        asked = len(self.server.requests)

        # when
        for _ in range(5):
            decoder.decode(value)

        # then
        self.assertEqual(len(self.server.requests) - asked, 1)


if __name__ == "__main__":
    unittest.main()
