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
from .host_wire import ANSWER, HELLO, MAGIC, contribution_header, host_address, peer_uid, receive_exactly
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
        self._answer = bytearray(ANSWER.size)
        self._sock = self._connect(address, join_timeout_s)
        if self._sock is not None:
            try:
                self._sock.sendall(HELLO.pack(MAGIC, index, parameters, shards))
            except OSError as e:
                self._go_solo("could not greet its host group's leader (%s)" % e)

    @property
    def solo(self):
        """Whether this member publishes its own gradients from now on."""
        return self._sock is None

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
            self._sock.settimeout(max(0.001, deadline - time.monotonic()))
            receive_exactly(self._sock, memoryview(self._answer))
        except socket.timeout:
            raise ModelTimeoutError("%s: its host group's leader did not answer its gradient of clock %d within %.0f s "
                                    "(is the leader stuck?)" % (worker_id(self.index), clock, self.answer_timeout_s))
        except (OSError, EOFError) as e:
            self._go_solo("had no answer from its host group's leader for clock %d (%s)"
                          % (clock, str(e) or type(e).__name__))
            return False
        answered, included = ANSWER.unpack(self._answer)
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
