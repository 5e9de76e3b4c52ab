"""One reader of ``model`` a host: the model a host group's leader shares with its members (module ``host_group``).

The leader reads ``model`` as every worker does. For each clock it writes the parameters it computes on into a
shared-memory buffer (an anonymous ``memfd``, handed to each member over the group's socket when it joins) and tells
the members the clock, the shard versions and the plan's shares and threads (``HostLeader.share_model``). A member
then reads no ``model`` of its own while its leader lives: N workers of a host fetch and decode one copy of each
version instead of N. Nothing changes on the wire to Kafka.

The buffer holds two slots, one for even clocks and one for odd, each behind a generation: 2c + 1 while clock c is
being written, 2c + 2 once it is. A member copies its clock's parameters out and checks the generation again after
the copy (``ModelSlots.read``). Under BSP the leader cannot write clock c + 2 before every live member has sent its
gradient of clock c + 1, so a copy is never overwritten; the check makes sure of it, and a member that finds its slot
changed reads ``model`` itself from then on, as it does when its leader is gone.
"""

import json
import mmap
import os

import numpy as np

_LE_F32 = np.dtype("<f4")
_LE_U64 = np.dtype("<u8")
_HEADER_BYTES = 64  # the two generations, then padding to a cache line


def slots_size(parameters):
    """The shared buffer's size in bytes for a model of ``parameters`` values."""
    return _HEADER_BYTES + 2 * 4 * parameters


class ModelSlots:
    """The leader's (writable) or a member's (read-only) mapping of the shared buffer."""

    def __init__(self, fd, parameters, writable):
        self.fd = fd
        size = slots_size(parameters)
        if os.fstat(fd).st_size != size:
            raise ValueError("the shared model buffer has %d bytes, a model of %d values needs %d"
                             % (os.fstat(fd).st_size, parameters, size))
        self._map = mmap.mmap(fd, size, prot=mmap.PROT_READ | (mmap.PROT_WRITE if writable else 0))
        self._generations = np.frombuffer(self._map, dtype=_LE_U64, count=2, offset=0)
        self._slots = [np.frombuffer(self._map, dtype=_LE_F32, count=parameters,
                                     offset=_HEADER_BYTES + 4 * parameters * slot) for slot in range(2)]

    @classmethod
    def create(cls, parameters):
        """A new buffer (the leader's), zero generations."""
        fd = os.memfd_create("paramhub-host-model", os.MFD_CLOEXEC)
        try:
            os.ftruncate(fd, slots_size(parameters))
            return cls(fd, parameters, True)
        except BaseException:
            os.close(fd)
            raise

    def write(self, clock, values):
        """Writes ``values`` (float32, P) as clock ``clock``'s parameters; returns the generation that marks them."""
        slot = clock % 2
        self._generations[slot] = 2 * clock + 1
        np.copyto(self._slots[slot], values, casting="same_kind")
        self._generations[slot] = 2 * clock + 2
        return 2 * clock + 2

    def read(self, clock, generation):
        """A new float32 array with clock ``clock``'s parameters, or None when the slot does not hold the
        ``generation`` the leader announced, before or after the copy."""
        slot = clock % 2
        if int(self._generations[slot]) != generation:
            return None
        values = self._slots[slot].copy()
        return values if int(self._generations[slot]) == generation else None

    def close(self):
        """Unmaps the buffer and closes its descriptor; again, nothing."""
        if self._map is None:
            return
        self._generations = self._slots = None
        self._map.close()
        self._map = None
        os.close(self.fd)


class SharedModel:
    """A clock's model as the leader announced it: what ``Worker.clocks`` takes from a ModelView, and the
    ``offsets`` the leader's reader of ``model`` had reached (where a member starts reading when it must)."""

    def __init__(self, versions, shares, threads, plan_epoch, offsets, parameters):
        self._versions = list(versions)
        self._shares = shares
        self._threads = threads
        self._plan_epoch = plan_epoch
        self.offsets = offsets
        self._parameters = parameters

    def versions(self):
        return list(self._versions)

    def plan_shares(self):
        return self._shares

    def plan_threads(self):
        return self._threads

    def plan_version(self):
        return self._plan_epoch

    def assemble(self, parameters):
        """The parameters (this object's own array, copied out of the shared buffer)."""
        if self._parameters.size != parameters:
            raise RuntimeError("the shared model has %d values, the job %d" % (self._parameters.size, parameters))
        return self._parameters


def describe(model, offsets):
    """The JSON the leader sends with a clock: ``model``'s (a ModelView's) versions and plan, and its reader's
    ``offsets`` ({partition: next offset})."""
    return json.dumps({"versions": model.versions(), "shares": model.plan_shares(), "threads": model.plan_threads(),
                       "planEpoch": model.plan_version(),
                       "offsets": {str(p): o for p, o in offsets.items()}}).encode("utf-8")


def shared_model(description, parameters):
    """The SharedModel of the JSON ``description`` and the ``parameters`` copied out."""
    fields = json.loads(description.decode("utf-8"))
    return SharedModel(fields["versions"], fields["shares"], fields["threads"], fields["planEpoch"],
                       {int(p): o for p, o in fields["offsets"].items()}, parameters)
