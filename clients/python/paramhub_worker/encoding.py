"""How vectors and keys look on the wire (docs/protocol.md, "Records and encodings").

- float32 vectors: packed little-endian IEEE-754, 4 bytes a value (schemas/.../FloatPacking.java);
- bfloat16 gradients: the upper 16 bits of each float32, little-endian, after rounding to nearest (ties to even)
  with error feedback (ml/.../Bfloat16ErrorFeedback.java);
- partitions: Kafka's default partitioner, murmur2 of the key's UTF-8 bytes, (hash & 0x7fffffff) mod partitions.
"""

import math

import numpy as np

_LE_F32 = np.dtype("<f4")
_LE_U16 = np.dtype("<u2")


def first_non_finite(values):
    """The index of the first NaN or infinity in the float array ``values``, or None. The sum is looked at first:
    a NaN or an infinity anywhere makes it one, so each value is looked at only when the sum is not finite (it
    also is when finite values overflow it)."""
    if math.isfinite(float(values.sum())):
        return None
    bad = np.flatnonzero(~np.isfinite(values))
    return int(bad[0]) if bad.size else None


def pack_float32(values):
    """``values`` (any float array) rounded to float32 and packed little-endian."""
    return np.ascontiguousarray(values, dtype=_LE_F32).tobytes()


def unpack_float32(packed):
    """A read-only float32 view of packed little-endian bytes."""
    if len(packed) % 4:
        raise ValueError("packed float32 vector has %d bytes, not a multiple of 4" % len(packed))
    return np.frombuffer(packed, dtype=_LE_F32)


def to_bfloat16(values):
    """float32 ``values`` rounded to the nearest bfloat16 (ties to even), as float32 holding exactly that value.

    The Java bit trick: (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000 in wrapping 32-bit arithmetic, so an
    infinity stays, a float beyond bfloat16's range becomes infinity, and a NaN stays non-finite.
    """
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    with np.errstate(over="ignore"):
        rounded = (bits + (np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))) & np.uint32(0xFFFF0000)
    return rounded.view(np.float32)


def pack_bfloat16(values):
    """float32 ``values`` (already bfloat16: round them first) packed as their upper 16 bits, little-endian."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    return (bits >> np.uint32(16)).astype(_LE_U16).tobytes()


def unpack_bfloat16(packed):
    """Packed bfloat16 values widened, exactly, to float32."""
    if len(packed) % 2:
        raise ValueError("packed bfloat16 vector has %d bytes, not a multiple of 2" % len(packed))
    halves = np.frombuffer(packed, dtype=_LE_U16).astype(np.uint32)
    return (halves << np.uint32(16)).view(np.float32)


class Bfloat16ErrorFeedback:
    """A worker's bfloat16 rounding with error feedback: ships round(g + carried), carries (g + carried) - shipped."""

    def __init__(self, length):
        self.carried = np.zeros(length, dtype=np.float32)

    def round(self, values):
        """The bfloat16 values to ship for float32 ``values``; updates what is carried (all in float32)."""
        values = np.asarray(values, dtype=np.float32)
        if values.shape != self.carried.shape:
            raise ValueError("expected %d values, got %d" % (self.carried.size, values.size))
        wanted = values + self.carried
        shipped = to_bfloat16(wanted)
        self.carried = wanted - shipped
        return shipped


def murmur2(data):
    """Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2) of ``data`` bytes, as a signed 32-bit int."""
    m = 0x5BD1E995
    mask = 0xFFFFFFFF
    length = len(data)
    h = (0x9747B28C ^ length) & mask
    whole = length - length % 4
    for i in range(0, whole, 4):
        k = data[i] | data[i + 1] << 8 | data[i + 2] << 16 | data[i + 3] << 24
        k = (k * m) & mask
        k ^= k >> 24
        k = (k * m) & mask
        h = ((h * m) & mask) ^ k
    rest = length % 4
    if rest == 3:
        h ^= data[whole + 2] << 16
    if rest >= 2:
        h ^= data[whole + 1] << 8
    if rest >= 1:
        h ^= data[whole]
        h = (h * m) & mask
    h ^= h >> 13
    h = (h * m) & mask
    h ^= h >> 15
    return h - (1 << 32) if h & 0x80000000 else h


def partition_for(key, partitions):
    """The partition Kafka's default partitioner gives the string ``key`` among ``partitions``."""
    return (murmur2(key.encode("utf-8")) & 0x7FFFFFFF) % partitions
