"""Which samples a clock trains on and how the model is cut into shards (docs/protocol.md, "A worker's life").

Pure functions of a job's spec; no Kafka here. Each mirrors a Java class bit for bit:

- ``SplitMix64`` and ``BatchPlan`` (ml/.../SplitMix64.java, BatchPlan.java): the per-epoch permutation, the
  clock's global batch, a worker's round-robin or planned contiguous share of it;
- ``ShardLayout`` (ml/.../ShardLayout.java, the plain layout): shard k's first index and length;
- ``worker_id`` (topology/.../WorkerIds.java).
"""

import math

import numpy as np

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def worker_id(index):
    """``worker-`` and the index, zero-padded to three digits: ``worker-000``, ..., ``worker-1000``."""
    return "worker-%03d" % index


def _mix(states):
    """SplitMix64's output function (Stafford's variant 13) on an array of uint64 states."""
    z = states
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


class SplitMix64:
    """SplitMix64: the state goes up by GOLDEN_GAMMA a draw (mod 2^64) and a draw is the mixed state."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next_longs(self, count):
        """The next ``count`` draws as a uint64 array, vectorised: draw k mixes state + (k + 1) x GOLDEN_GAMMA."""
        steps = np.arange(1, count + 1, dtype=np.uint64)
        with np.errstate(over="ignore"):
            states = np.uint64(self.state) + steps * np.uint64(GOLDEN_GAMMA)
            draws = _mix(states)
        self.state = (self.state + count * GOLDEN_GAMMA) & MASK64
        return draws

    def next_long(self):
        """The next draw, an unsigned int below 2^64."""
        return int(self.next_longs(1)[0])


def multiply_high(draws, bounds):
    """The high 64 bits of the unsigned 128-bit products draws x bounds (bounds below 2^31), as int64."""
    draws = draws.astype(np.uint64)
    bounds = bounds.astype(np.uint64)
    high = draws >> np.uint64(32)
    low = draws & np.uint64(0xFFFFFFFF)
    # draw x bound = (high x bound) x 2^32 + low x bound; each partial product is below 2^63
    carry = (low * bounds) >> np.uint64(32)
    return ((high * bounds + carry) >> np.uint64(32)).astype(np.int64)


class BatchPlan:
    """Clock c trains on positions (c mod I) x B .. + B - 1 of epoch floor(c / I)'s permutation, I = floor(n / B)."""

    def __init__(self, dataset_size, global_batch, seed):
        if not 1 <= global_batch <= dataset_size:
            raise ValueError("need 1 <= global batch <= data set size, got batch %d of %d samples"
                             % (global_batch, dataset_size))
        self.dataset_size = dataset_size
        self.global_batch = global_batch
        self.seed = seed
        self._cached = (None, None)

    @property
    def clocks_per_epoch(self):
        return self.dataset_size // self.global_batch

    def permutation(self, epoch):
        """Epoch ``epoch``'s permutation of 0..n-1 (int64): Fisher-Yates from the last position down."""
        if self._cached[0] == epoch:
            return self._cached[1]
        n = self.dataset_size
        random = SplitMix64(self.seed + GOLDEN_GAMMA * (epoch + 1))
        # position i (n - 1 down to 1) swaps with the draw's multiply-high index in [0, i]
        bounds = np.arange(n, 1, -1, dtype=np.int64)
        targets = multiply_high(random.next_longs(n - 1), bounds).tolist()
        indices = list(range(n))
        for i, j in zip(range(n - 1, 0, -1), targets):
            indices[i], indices[j] = indices[j], indices[i]
        permutation = np.array(indices, dtype=np.int64)
        permutation.flags.writeable = False
        self._cached = (epoch, permutation)
        return permutation

    def batch(self, clock):
        """The ``global_batch`` sample indices of ``clock`` (from 0), int64."""
        if clock < 0:
            raise ValueError("clock must be >= 0, got %d" % clock)
        per_epoch = self.clocks_per_epoch
        start = (clock % per_epoch) * self.global_batch
        return self.permutation(clock // per_epoch)[start:start + self.global_batch].copy()


def round_robin_share(batch, worker, workers):
    """Positions j of ``batch`` with j mod workers = worker, in order."""
    if not 0 <= worker < workers:
        raise ValueError("worker %d out of range [0, %d)" % (worker, workers))
    return np.asarray(batch)[worker::workers].copy()


def java_round(value):
    """Java's Math.round of a double: floor(value + 0.5) of the exact value (so 0.49999999999999994 rounds to 0,
    where adding 0.5 in double would round the sum up to 1 first)."""
    whole = math.floor(value)
    return whole + 1 if value - whole >= 0.5 else whole


def contiguous_bounds(batch_size, shares, worker):
    """Worker ``worker``'s chunk [lo, hi) of a batch cut by ``shares`` (worker order), as BatchPlan rounds it."""
    if not 0 <= worker < len(shares):
        raise ValueError("worker %d out of range [0, %d)" % (worker, len(shares)))
    total = 0.0
    for share in shares:
        if not share >= 0:
            raise ValueError("shares must be >= 0: %r" % (shares,))
        total += share
    if not total > 0:
        raise ValueError("shares must not all be 0")
    before = 0.0
    for share in shares[:worker]:
        before += share
    lo = java_round(batch_size * before / total)
    if worker == len(shares) - 1:
        hi = batch_size
    else:
        hi = java_round(batch_size * (before + shares[worker]) / total)
    return lo, max(lo, hi)


def planned_shares(shares, workers):
    """A plan's shares (worker id -> share) in worker order, when it names exactly the job's ``workers``; else None."""
    if len(shares) != workers:
        return None
    ordered = [shares.get(worker_id(index)) for index in range(workers)]
    return None if None in ordered else ordered


def contiguous_share(batch, shares, worker):
    """Worker ``worker``'s contiguous chunk of ``batch`` when the workers' shares are ``shares``."""
    lo, hi = contiguous_bounds(len(batch), shares, worker)
    return np.asarray(batch)[lo:hi].copy()


class ShardLayout:
    """The plain layout: the first P mod S shards are one value longer; shard k starts at k floor(P/S) + min(k, P mod S)."""

    def __init__(self, parameters, shards):
        if not 1 <= shards <= parameters:
            raise ValueError("need 1 <= shards <= parameters, got %d shards of %d parameters" % (shards, parameters))
        self.parameters = parameters
        self.shards = shards

    def first(self, shard):
        self._require(shard)
        return shard * (self.parameters // self.shards) + min(shard, self.parameters % self.shards)

    def length(self, shard):
        self._require(shard)
        return self.parameters // self.shards + (1 if shard < self.parameters % self.shards else 0)

    def bounds(self, shard):
        """[first, end) of ``shard``."""
        first = self.first(shard)
        return first, first + self.length(shard)

    def _require(self, shard):
        if not 0 <= shard < self.shards:
            raise ValueError("shard %d out of range [0, %d)" % (shard, self.shards))
