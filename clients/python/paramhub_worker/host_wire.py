"""The wire of a host group (module ``host_group``): its Unix socket's address and the messages on it.

One connection a member, the member speaking first, little-endian:

- hello, once: ``HELLO`` (magic, the member's index, the model's parameter count and shard count); a leader that
  does not take the member closes the connection;
- a contribution a clock: ``contribution_header(shards)`` (clock, sample count, loss, each shard's base version),
  then the gradient's P float32 values, sent from and received into NumPy buffers without copies.

The leader's messages each start with a tag byte:

- ``SHARED`` once, first, with the shared model buffer's file descriptor attached (``SCM_RIGHTS``): b"S" and the
  buffer's size in bytes (module ``host_model``);
- ``MODEL`` for each clock the leader computes: b"M", the clock, the generation of its slot in the buffer and the
  length of the JSON that follows (``host_model.describe``);
- ``ANSWER`` to each contribution: b"A", its clock, whether it is included.
"""

import hashlib
import socket
import struct

HELLO = struct.Struct("<4siqi")
MAGIC = b"PHS2"
SHARED = struct.Struct("<cQ")
MODEL = struct.Struct("<cqqI")
ANSWER = struct.Struct("<cq?")
TAG = struct.Struct("<c")
_MAX_ABSTRACT_NAME = 107  # sun_path is 108 bytes, the first of them the abstract namespace's NUL


def host_address(job, leader_index):
    """The abstract-namespace address of the group of job ``job`` led by ``leader_index``:
    b"\\0paramhub-host-sum/<job>/<leader index>", the job's name hashed when that is too long for a socket."""
    address = ("\0paramhub-host-sum/%s/%d" % (job, leader_index)).encode("utf-8")
    if len(address) > _MAX_ABSTRACT_NAME + 1:
        digest = hashlib.sha256(job.encode("utf-8")).hexdigest()[:32]
        address = ("\0paramhub-host-sum/%s/%d" % (digest, leader_index)).encode("utf-8")
    return address


def peer_uid(sock):
    """The user id of the process at the other end of the Unix socket ``sock`` (``SO_PEERCRED``)."""
    credentials = struct.Struct("3i")
    _, uid, _ = credentials.unpack(sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, credentials.size))
    return uid


def contribution_header(shards):
    """The fixed part of a contribution: clock (int64), sample count (int32), loss (float64), then each of the
    ``shards`` shards' base version (int64)."""
    return struct.Struct("<qid%dq" % shards)


def receive_exactly(sock, view):
    """Fills the writable memoryview ``view`` from ``sock``; EOFError when the peer closes first."""
    while view.nbytes:
        received = sock.recv_into(view)
        if received == 0:
            raise EOFError("the connection was closed")
        view = view[received:]
