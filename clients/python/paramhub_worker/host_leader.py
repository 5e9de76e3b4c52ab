"""A host group's leader (module ``host_group``): shares each clock's model with the members, gathers their
gradients and adds them up.

It listens on the group's Unix socket (``host_wire``); an accept thread and one thread a member read what the
members send, and the worker's own thread shares the model, gathers, adds up and answers (``share_model``,
``gather``, ``add_up``, ``confirm``).
"""

import dataclasses
import logging
import os
import socket
import struct
import threading
import time

import numpy as np

from .errors import ParamHubError
from .host_model import ModelSlots, describe
from .host_wire import ANSWER, HELLO, MAGIC, MODEL, SHARED, contribution_header, peer_uid, receive_exactly
from .plan import worker_id

log = logging.getLogger(__name__)

_LE_F32 = np.dtype("<f4")


@dataclasses.dataclass(eq=False)
class Contribution:
    """One member's gradient of one clock, as the leader received it. ``gradient`` is the buffer of the connection
    it came on: valid until the contribution is answered."""

    index: int
    clock: int
    base_versions: tuple
    sample_count: int
    loss: float
    gradient: np.ndarray
    connection: "_Connection" = dataclasses.field(repr=False)

    def answer(self, included):
        """Tells the member whether a published sum holds this gradient."""
        self.connection.answer(self.clock, included)


@dataclasses.dataclass(eq=False)
class HostSum:
    """What a worker publishes as one clock's gradient: ``contributors`` (worker indices, ascending) summed into
    ``gradient`` (float32), ``sample_count`` and ``loss``; ``members`` the contributions to confirm once it is
    published. A worker's own gradient is the sum of one."""

    contributors: list
    sample_count: int
    loss: float
    gradient: np.ndarray
    members: list = dataclasses.field(default_factory=list)

    def contributor_ids(self):
        """The record's ``contributors``: the workers' ids, or empty for a worker's own gradient (protocol 1)."""
        return [worker_id(index) for index in self.contributors] if len(self.contributors) > 1 else []


class _Connection:
    """The leader's end of one member's socket, with the buffers its contributions are received into."""

    def __init__(self, sock, parameters, shards):
        self.sock = sock
        self.index = None
        self.header = contribution_header(shards)
        self._header_bytes = bytearray(self.header.size)
        self.gradient = np.empty(parameters, dtype=_LE_F32)
        self.unanswered = False
        self._send_lock = threading.Lock()

    def read_hello(self):
        """(magic, index, parameters, shards) of the member's hello."""
        hello = bytearray(HELLO.size)
        receive_exactly(self.sock, memoryview(hello))
        return HELLO.unpack(hello)

    def receive(self):
        """The member's next contribution, its gradient in this connection's buffer."""
        receive_exactly(self.sock, memoryview(self._header_bytes))
        if self.unanswered:
            raise ParamHubError("it sent a gradient before its last was answered")
        clock, sample_count, loss, *base_versions = self.header.unpack(self._header_bytes)
        receive_exactly(self.sock, memoryview(self.gradient.view(np.uint8)))
        return Contribution(self.index, clock, tuple(base_versions), sample_count, loss, self.gradient, self)

    def answer(self, clock, included):
        """Sends the answer to the member's contribution of ``clock``."""
        self.unanswered = False
        self.send(ANSWER.pack(b"A", clock, included))

    def send(self, message, fds=()):
        """Sends one message (with ``fds`` attached); a broken connection is left to the thread that reads it,
        which drops it."""
        try:
            with self._send_lock:
                if fds:
                    sent = socket.send_fds(self.sock, [message], list(fds))
                    message = message[sent:]
                self.sock.sendall(message)
        except OSError as e:
            log.debug("host sum: could not send to worker %s: %s", self.index, e)

    def close(self):
        """Ends the connection, also for the thread blocked reading it."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class HostLeader:
    """The group's lowest index: listens for the members, gathers their contributions each clock, sums them."""

    def __init__(self, address, index, members, parameters, shards, join_timeout_s):
        """Listens on ``address`` for the other ``members`` (sorted indices, ``index`` the smallest), which may
        connect until ``join_timeout_s`` from now; until then ``gather`` waits for those not connected yet."""
        self.index = index
        self.parameters = parameters
        self.shards = shards
        #: Only processes of this user id may join: an abstract socket has no file permissions to keep others out.
        self.uid = os.getuid()
        self._expected = set(members) - {index}
        self._join_deadline = time.monotonic() + join_timeout_s
        self._connected = {}
        self._gone = set()
        self._held = {}
        self._gathered_through = -1
        self._closed = False
        self._changed = threading.Condition()
        self._total = np.empty(parameters, dtype=np.float64)
        self._rounded = np.empty(parameters, dtype=np.float32)
        self._slots = ModelSlots.create(parameters)
        self._last_model = None
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._listener.bind(address)
            self._listener.listen(max(1, len(self._expected)))
        except OSError:
            self._listener.close()
            self._slots.close()
            raise
        self._acceptor = threading.Thread(target=self._accept, name="host-sum-%d-accept" % index, daemon=True)
        self._acceptor.start()

    # ------------------------------------------------------------------------------------- the main thread

    def share_model(self, clock, model, parameters, offsets):
        """Writes ``parameters`` (float32, P), what the leader computes clock ``clock`` on, to the shared buffer
        and tells every member, with ``model``'s versions and plan (a ModelView) and ``offsets``, its reader's
        position in ``model``. A member that joins later is told the last clock shared."""
        generation = self._slots.write(clock, parameters)
        description = describe(model, offsets)
        message = MODEL.pack(b"M", clock, generation, len(description)) + description
        with self._changed:
            self._last_model = message
            connections = list(self._connected.values())
        for connection in connections:
            connection.send(message)

    def gather(self, clock, base_versions, timeout_s):
        """The members' contributions of ``clock`` computed on ``base_versions`` (one int a shard), in index
        order, once every connected member's is in or ``timeout_s`` is over. Every other contribution held is
        answered "solo": an older clock's, one on other versions."""
        with self._changed:
            self._gathered_through = clock - 1
            stale = self._take(lambda held: held.clock < clock)
        self._decline(stale, "was not gathered in time")
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while True:
                now = time.monotonic()
                until = self._wait_until(now, deadline)
                if until is None or now >= until:
                    break
                self._changed.wait(until - now)
            self._gathered_through = clock
            current = self._take(lambda held: held.clock == clock)
        summed, other_versions = [], []
        for contribution in current:
            (summed if contribution.base_versions == tuple(base_versions) else other_versions).append(contribution)
        self._decline(other_versions, "was computed on other versions than %s" % list(base_versions))
        return summed

    def _take(self, which):
        """Removes the held contributions ``which`` selects and returns them in index order. Call with the lock
        held."""
        taken = [self._held[index] for index in sorted(self._held) if which(self._held[index])]
        for contribution in taken:
            del self._held[contribution.index]
        return taken

    def _wait_until(self, now, deadline):
        """When ``gather`` stops waiting for the members that owe the clock, or None when none does: a member
        connected without a contribution held, or, until the join deadline, one that has not connected yet.
        Call with the lock held."""
        owing = [index for index in self._connected if index not in self._held]
        if now < self._join_deadline:
            owing += [index for index in self._expected if index not in self._connected and index not in self._gone]
        if not owing:
            return None
        return deadline if self._connected.keys() & set(owing) else min(deadline, self._join_deadline)

    def _decline(self, contributions, why):
        """Answers "solo" to each of ``contributions``, which no sum holds."""
        for contribution in contributions:
            log.info("host sum: worker %d's gradient of clock %d %s: it publishes its own", contribution.index,
                     contribution.clock, why)
            contribution.answer(False)

    def add_up(self, own, contributions, ranges=None, on_range=None):
        """The HostSum of the leader's ``own`` (a HostSum of one) and the members' ``contributions``: the
        gradients added in double in worker order and rounded once to float32, sample counts and losses summed.
        Its gradient is a buffer of this leader, valid until the next ``add_up``.

        ``ranges``: [(first, end)] in order, covering the model (the job's shards): the sum is added range by
        range, each while its double accumulator is in the cache, and ``on_range(host_sum, i)`` is called once
        range i is in ``gradient``, so that a shard can leave while the next is added."""
        if not contributions:
            return own
        parts = sorted([(own.contributors[0], own.sample_count, own.loss, own.gradient)]
                       + [(c.index, c.sample_count, c.loss, c.gradient) for c in contributions],
                       key=lambda part: part[0])
        loss = parts[0][2]
        for part in parts[1:]:
            loss += part[2]
        host_sum = HostSum([part[0] for part in parts], sum(part[1] for part in parts), loss, self._rounded,
                           list(contributions))
        gradients = [part[3] for part in parts]
        for i, (first, end) in enumerate([(0, self.parameters)] if ranges is None else ranges):
            total = self._total[first:end]
            np.copyto(total, gradients[0][first:end])
            for gradient in gradients[1:]:
                np.add(total, gradient[first:end], out=total)
            np.copyto(self._rounded[first:end], total, casting="same_kind")
            if on_range is not None:
                on_range(host_sum, i)
        return host_sum

    def confirm(self, host_sum):
        """Answers "included" to each member summed into ``host_sum``, once it is published and flushed."""
        for contribution in host_sum.members:
            contribution.answer(True)

    def close(self):
        """Stops listening and closes every member's connection (a member waiting for an answer goes solo)."""
        with self._changed:
            self._closed = True
            connections = list(self._connected.values())
        try:
            self._listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._listener.close()
        for connection in connections:
            connection.close()
        self._acceptor.join(1.0)
        self._slots.close()

    # ------------------------------------------------------------------------------- the members' threads

    def _accept(self):
        """Takes connections until closed, each served on a thread of its own."""
        while True:
            try:
                sock, _ = self._listener.accept()
            except OSError:
                return
            connection = _Connection(sock, self.parameters, self.shards)
            threading.Thread(target=self._serve, args=(connection,), name="host-sum-%d-member" % self.index,
                             daemon=True).start()

    def _serve(self, connection):
        """Reads one member's hello, then its contributions, until its connection ends; then drops it."""
        reason = "it was refused"
        try:
            if self._welcome(connection):
                while True:
                    self._offer(connection.receive())
        except (OSError, EOFError, struct.error, ParamHubError) as e:
            reason = str(e) or type(e).__name__
        self._drop(connection, reason)

    def _welcome(self, connection):
        """Whether the member's hello is one this leader takes: a member of its group that is not connected,
        with the same model layout, run by this leader's user. A member refused is not waited for, unless it
        connects again; a connection of another user is closed before it is heard."""
        uid = peer_uid(connection.sock)
        if uid != self.uid:
            log.warning("host sum: %s refuses a connection of user id %d (it runs as %d)", worker_id(self.index), uid,
                        self.uid)
            return False
        magic, index, parameters, shards = connection.read_hello()
        with self._changed:
            problem = ("is not a hello" if magic != MAGIC else
                       "is not a member of the group" if index not in self._expected else
                       "is connected already" if index in self._connected else
                       "has another model layout (%d parameters, %d shards)" % (parameters, shards)
                       if (parameters, shards) != (self.parameters, self.shards) else
                       "came after the leader closed" if self._closed else None)
            if problem is None:
                # first the shared buffer, then the last clock shared, before share_model can send to it
                connection.send(SHARED.pack(b"S", os.fstat(self._slots.fd).st_size), [self._slots.fd])
                if self._last_model is not None:
                    connection.send(self._last_model)
                connection.index = index
                self._connected[index] = connection
                self._gone.discard(index)
            elif index in self._expected and index not in self._connected:
                self._gone.add(index)  # refused, it publishes its own gradients: not waited for
            self._changed.notify_all()
        if problem is not None:
            log.warning("host sum: %s refuses a connection that %s", worker_id(self.index), problem)
        return problem is None

    def _offer(self, contribution):
        """Holds ``contribution`` for the gather of its clock, or answers "solo" at once when that is over."""
        with self._changed:
            late = contribution.clock <= self._gathered_through
            if not late:
                contribution.connection.unanswered = True
                self._held[contribution.index] = contribution
                self._changed.notify_all()
        if late:
            self._decline([contribution], "came after that clock was gathered")

    def _drop(self, connection, reason):
        """Forgets a member whose connection ended: it is not waited for again, unless it connects again."""
        with self._changed:
            member = self._connected.get(connection.index) is connection
            if member:
                del self._connected[connection.index]
                self._held.pop(connection.index, None)
                self._gone.add(connection.index)
                self._changed.notify_all()
            closed = self._closed
        if member and not closed:
            # info: every member closes after its last clock; a member that died shows as the aggregator's warning
            # that it left the live set
            log.info("host sum: worker %d left %s's group (%s); it is not waited for again", connection.index,
                     worker_id(self.index), reason)
        connection.close()
