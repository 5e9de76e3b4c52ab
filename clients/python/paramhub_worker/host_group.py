"""Summing the gradients of a host's workers before they leave the host (docs/protocol.md, "Host sums (version 2)").

The worker processes of one host that form a group send one ``GradientShard`` a shard and clock for all of them
instead of one each. The group's leader, its lowest index, listens on a Unix-domain stream socket in Linux's
abstract namespace (``host_address``: no file on disk, so no file permissions either: the leader takes, and a member
talks to, only a process of its own user id, ``peer_uid``); each other member connects once and, every clock, hands
its gradient over (``HostMember.hand_over``) instead of publishing it. The leader gathers the clock's
contributions (``HostLeader.gather``), adds them to its own (``HostLeader.add_up``: in double, in worker order,
rounded once to float32), publishes the sum with ``contributors`` naming every worker in it and, once that is
flushed, answers each member summed "included" (``HostLeader.confirm``). A "solo" answer, or a connection that
ends, means the member publishes its own gradient records, as in protocol 1. No gradient is lost and none counted
twice: the leader answers "solo" only to contributions it left out of its sum, and a member stops waiting for an
answer only when the leader's process is gone (its connection ended), so that its own record and a sum holding it
can both reach the aggregator only when the leader died between publishing and answering, and then the
aggregator refuses the second of them as ``DUPLICATE``.

While a member's connection is open its leader also shares each clock's model with it (module ``host_model``): the
member reads no ``model`` itself (``HostMember.await_model``), and reads it again, from where the leader had
reached, when the leader is gone or does not share a clock within a session timeout.

The messages on the socket: module ``host_wire``; the leader: module ``host_leader``.

Timing (T: the job's ``sessionTimeoutMs``): the leader waits for the members still connected up to T from the
start of ``gather``; a member still computing then is not waited for, and its contribution, which arrives for a
clock already gathered, is answered "solo" at once by the thread that reads it. A connection that breaks is
dropped at once. A member goes solo for the rest of the run when its connection breaks (the leader is gone); while
it is open it waits for its answer up to the worker's model timeout and then fails (``ModelTimeoutError``), as it
would waiting for a model version: publishing its own gradient while a live leader may still publish a sum
holding it could get the sum refused as ``DUPLICATE``, and with it the other members' gradients.
"""


import logging
import os
import socket
import time

import numpy as np

from .errors import ModelTimeoutError, ParamHubError
from .host_leader import HostLeader
from .host_model import ModelSlots, shared_model
from .host_wire import ANSWER, HELLO, MAGIC, MODEL, SHARED, TAG, contribution_header, host_address, peer_uid, \
    receive_exactly
from .plan import worker_id

log = logging.getLogger(__name__)

_CONNECT_RETRY_S = 0.05
_LE_F32 = np.dtype("<f4")


class HostMember:
    """A worker of the group other than its leader: hands each clock's gradient to the leader."""

    def __init__(self, address, index, parameters, shards, join_timeout_s, answer_timeout_s):
        """Connects to the leader at ``address``, retrying for up to ``join_timeout_s``; without a leader by
        then it is solo for the whole run. ``answer_timeout_s``: how long ``hand_over`` waits for an answer before
        it fails."""
        self.index = index
        self.parameters = parameters
        self.answer_timeout_s = answer_timeout_s
        self._header = contribution_header(shards)
        self._slots = None
        self._announced = None  # a MODEL message read while waiting for an answer
        self._sock = self._connect(address, join_timeout_s)
        if self._sock is not None:
            try:
                self._sock.sendall(HELLO.pack(MAGIC, index, parameters, shards))
                self._sock.settimeout(join_timeout_s)
                self._slots = self._receive_shared()
            except (OSError, EOFError, ValueError) as e:
                self._go_solo("was not welcomed by its host group's leader (%s)" % (str(e) or type(e).__name__))

    @property
    def solo(self):
        """Whether this member publishes its own gradients from now on."""
        return self._sock is None

    @property
    def shares_model(self):
        """Whether this member takes the model from its leader (``await_model``) rather than reading it."""
        return self._sock is not None and self._slots is not None

    def _receive_shared(self):
        """The leader's first message: the shared model buffer, mapped read-only."""
        data, fds, _, _ = socket.recv_fds(self._sock, SHARED.size, 1)
        try:
            if not data:
                raise EOFError("the connection was closed")
            rest = bytearray(SHARED.size - len(data))
            receive_exactly(self._sock, memoryview(rest))
            tag, size = SHARED.unpack(data + rest)
            if tag != b"S" or len(fds) != 1:
                raise ValueError("its first message is not the shared model buffer")
            return ModelSlots(fds[0], self.parameters, False)
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise

    def _receive(self, deadline):
        """The leader's next message, waiting until ``deadline`` for it to start: ("A", clock, included) or
        ("M", clock, generation, description). socket.timeout when none starts in time."""
        self._sock.settimeout(max(0.001, deadline - time.monotonic()))
        tag = bytearray(TAG.size)
        receive_exactly(self._sock, memoryview(tag))
        self._sock.settimeout(self.answer_timeout_s)  # the rest follows at once
        body = ANSWER if tag == b"A" else MODEL if tag == b"M" else None
        if body is None:
            raise EOFError("the leader sent a message of unknown tag %r" % bytes(tag))
        try:
            fields = bytearray(body.size - TAG.size)
            receive_exactly(self._sock, memoryview(fields))
            _, *values = body.unpack(bytes(tag) + bytes(fields))
            if body is ANSWER:
                return ("A", *values)
            description = bytearray(values[2])
            receive_exactly(self._sock, memoryview(description))
            return ("M", values[0], values[1], bytes(description))
        except socket.timeout:
            raise EOFError("the leader's message stopped half-way")

    def await_model(self, clock, timeout_s):
        """The SharedModel of ``clock`` once the leader shares it, or None when this member must read ``model``
        itself, from now on: it does not share the model, the leader is gone, the leader shared a later clock, its
        slot was overwritten, or nothing came within ``timeout_s``."""
        if not self.shares_model:
            return None
        deadline = time.monotonic() + timeout_s
        try:
            while True:
                message, self._announced = self._announced, None
                if message is None:
                    message = self._receive(deadline)
                if message[0] != "M" or message[1] < clock:
                    continue
                _, announced, generation, description = message
                if announced > clock:
                    return self._stop_sharing("was told of clock %d while it waited for clock %d" % (announced, clock))
                values = self._slots.read(clock, generation)
                if values is None:
                    return self._stop_sharing("found the shared model of clock %d overwritten" % clock)
                return shared_model(description, values)
        except socket.timeout:
            return self._stop_sharing("had no model of clock %d from its leader within %.1f s" % (clock, timeout_s))
        except (OSError, EOFError, ValueError) as e:
            self._go_solo("lost its host group's leader while waiting for the model of clock %d (%s)"
                          % (clock, str(e) or type(e).__name__))
            return None

    def _stop_sharing(self, why):
        """Reads ``model`` itself from now on (still handing its gradients over), saying ``why``; returns None."""
        log.warning("host sum: %s %s: it reads the model itself from now on", worker_id(self.index), why)
        if self._slots is not None:
            self._slots.close()
            self._slots = None
        return None

    def _connect(self, address, join_timeout_s):
        """A socket connected to the leader, or None when none listens at ``address`` within ``join_timeout_s``."""
        deadline = time.monotonic() + join_timeout_s
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(address)
                owner = peer_uid(sock)
                if owner != os.getuid():
                    sock.close()
                    log.warning("host sum: %s found a process of user id %d, not its own, listening at %r: it "
                                "publishes its own gradients", worker_id(self.index), owner, address)
                    return None
                return sock
            except OSError as e:
                sock.close()
                if time.monotonic() + _CONNECT_RETRY_S > deadline:
                    log.warning("host sum: %s found no leader of its host group at %r within %.1f s (%s): it "
                                "publishes its own gradients", worker_id(self.index), address, join_timeout_s, e)
                    return None
            time.sleep(_CONNECT_RETRY_S)

    def hand_over(self, clock, base_versions, sample_count, loss, gradient):
        """Sends the clock's gradient (float32, P values) to the leader and waits for its answer: True when a
        published sum holds it (publish no gradient of the clock), False when this member must publish its own.
        ModelTimeoutError when the leader's connection stays open but no answer comes within the timeout."""
        gradient = np.ascontiguousarray(gradient, dtype=_LE_F32)
        if gradient.size != self.parameters:
            raise ValueError("the gradient has %d values, the model %d" % (gradient.size, self.parameters))
        if self._sock is None:
            return False
        try:
            self._sock.settimeout(self.answer_timeout_s)
            deadline = time.monotonic() + self.answer_timeout_s
            self._sock.sendall(self._header.pack(clock, sample_count, loss, *base_versions))
            self._sock.sendall(gradient.view(np.uint8))
            while True:
                message = self._receive(deadline)
                if message[0] == "A":
                    break
                self._announced = message  # a clock's model, for await_model
        except socket.timeout:
            raise ModelTimeoutError("%s: its host group's leader did not answer its gradient of clock %d within %.0f s "
                                    "(is the leader stuck?)" % (worker_id(self.index), clock, self.answer_timeout_s))
        except (OSError, EOFError) as e:
            self._go_solo("had no answer from its host group's leader for clock %d (%s)"
                          % (clock, str(e) or type(e).__name__))
            return False
        _, answered, included = message
        if answered != clock:
            self._go_solo("got the answer for clock %d to its gradient of clock %d" % (answered, clock))
            return False
        return included

    def _go_solo(self, why):
        """Leaves the group for the rest of the run, saying ``why``."""
        log.warning("host sum: %s %s: it publishes its own gradients from now on", worker_id(self.index), why)
        self.close()

    def close(self):
        """Leaves the group: the leader no longer waits for this member."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._slots is not None:
            self._slots.close()
            self._slots = None


def join_host_group(group, index, workers, spec, address=None, join_timeout_s=60.0, sums_accepted=True,
                    answer_timeout_s=60.0):
    """This worker's part in its host group: a HostLeader (the group's lowest index), a HostMember, or None when it
    publishes its own gradients as in protocol 1: no group, a group of one, or a sum nobody may take (a sync
    mode other than BSP, or ``sums_accepted`` False: the registry's GradientShard has no ``contributors``).

    ``group``: the indices of the workers of this host that sum together, ``index`` among them, all below
    ``workers``; ``spec``: the JobSpec dict; ``address``: the leader's socket (default ``host_address``);
    ``answer_timeout_s``: how long a member waits for the leader's answer (the worker's model timeout)."""
    if group is None:
        return None
    members = sorted(set(group))
    if len(members) != len(group) or index not in members or members[0] < 0 or members[-1] >= workers:
        raise ParamHubError("host group %s must hold distinct worker indices below %d, %d among them"
                            % (list(group), workers, index))
    if len(members) == 1:
        return None
    me = worker_id(index)
    if spec["syncMode"] != "BSP":
        log.warning("%s: job %s is %s; host sums are for BSP: it publishes its own gradients", me, spec["job"],
                    spec["syncMode"])
        return None
    if not sums_accepted:
        log.warning("%s: the registry's GradientShard has no contributors (an aggregator before protocol 2): it "
                    "publishes its own gradients", me)
        return None
    address = host_address(spec["job"], members[0]) if address is None else address
    if index != members[0]:
        return HostMember(address, index, spec["parameters"], spec["shards"], join_timeout_s, answer_timeout_s)
    try:
        return HostLeader(address, index, members, spec["parameters"], spec["shards"], join_timeout_s)
    except OSError as e:
        log.warning("%s cannot listen at %r for its host group (%s): it publishes its own gradients", me, address, e)
        return None
