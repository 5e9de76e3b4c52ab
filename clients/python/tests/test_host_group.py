"""A host group's leader and members on a Unix socket of the test's own, in threads: the sum, who is waited for,
and when a member publishes its own gradient."""

import logging
import os
import threading
import time
import unittest
import uuid

import support  # noqa: F401  (the library's import path)

import numpy as np

from paramhub_worker.errors import ModelTimeoutError, ParamHubError
from paramhub_worker.host_group import HostMember, join_host_group
from paramhub_worker.host_leader import HostLeader, HostSum
from paramhub_worker.host_wire import host_address
from paramhub_worker.model import ModelView

PARAMETERS = 1000
SHARDS = 2
VERSIONS = (5, 7)
PROMPT_S = 1.0  # an answer that does not wait for a timeout comes well within this


def gradient(seed):
    """float32 values of magnitudes 1e-3 to 1e3, so that the order and precision of a sum show in its bits."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(PARAMETERS) * 10.0 ** rng.uniform(-3, 3, PARAMETERS)).astype(np.float32)


def setUpModule():
    for module in ("host_group", "host_leader"):  # the drops the tests provoke
        logging.getLogger("paramhub_worker." + module).setLevel(logging.ERROR)


class HandOver:
    """A member's ``hand_over`` running on a thread; ``result`` once it returns, and how long it took."""

    def __init__(self, member, clock, base_versions, sample_count, loss, values):
        self.result = None
        self.seconds = None
        self._thread = threading.Thread(target=self._run, args=(member, clock, base_versions, sample_count, loss,
                                                                values), daemon=True)
        self._thread.start()

    def _run(self, member, *contribution):
        started = time.monotonic()
        self.result = member.hand_over(*contribution)
        self.seconds = time.monotonic() - started

    def join(self):
        self._thread.join(5.0)
        return self.result


def model_view(versions=VERSIONS, shares=None, threads=None, plan_epoch=-1):
    """A ModelView holding one ModelShard record a shard at ``versions``; shard 0 carries the plan."""
    view = ModelView("j", len(versions))
    for shard, version in enumerate(versions):
        record = {"job": "j", "shard": shard, "version": version, "minClock": version}
        if shard == 0:
            record.update(shares=shares or {}, threads=threads or {}, planEpoch=plan_epoch)
        view.offer(record)
    return view


class HostGroupTest(unittest.TestCase):

    def setUp(self):
        self.address = ("\0paramhub-test-host-sum/%d/%s" % (os.getpid(), uuid.uuid4().hex)).encode()
        self.opened = []

    def tearDown(self):
        for opened in reversed(self.opened):
            opened.close()

    def leader(self, members=(0, 1, 2), join_timeout_s=2.0):
        leader = HostLeader(self.address, members[0], list(members), PARAMETERS, SHARDS, join_timeout_s)
        self.opened.append(leader)
        return leader

    def member(self, index, answer_timeout_s=5.0, parameters=PARAMETERS):
        member = HostMember(self.address, index, parameters, SHARDS, 1.0, answer_timeout_s)
        self.opened.append(member)
        return member

    def test_should_add_the_gradients_in_double_in_worker_order_and_round_once(self):
        # given
        leader = self.leader()
        second, third = self.member(1), self.member(2)
        values = [gradient(seed) for seed in range(3)]
        third_hands_over = HandOver(third, 0, VERSIONS, 5, 0.75, values[2])
        second_hands_over = HandOver(second, 0, VERSIONS, 4, 0.5, values[1])

        # when
        contributions = leader.gather(0, VERSIONS, 5.0)
        host_sum = leader.add_up(HostSum([0], 3, 0.25, values[0]), contributions)
        expected = ((values[0].astype(np.float64) + values[1]) + values[2]).astype(np.float32)
        answered_before_confirming = (second_hands_over.result, third_hands_over.result)
        leader.confirm(host_sum)

        # then
        np.testing.assert_array_equal(host_sum.gradient, expected)
        self.assertFalse(np.array_equal(expected, (values[0] + values[1]) + values[2]))  # float32 sums differ
        self.assertEqual(host_sum.contributors, [0, 1, 2])
        self.assertEqual(host_sum.contributor_ids(), ["worker-000", "worker-001", "worker-002"])
        self.assertEqual((host_sum.sample_count, host_sum.loss), (12, 1.5))
        self.assertEqual(answered_before_confirming, (None, None))
        self.assertEqual((second_hands_over.join(), third_hands_over.join()), (True, True))

    def test_should_hand_each_range_of_the_sum_over_as_soon_as_it_is_added(self):
        # given: the same contributions summed whole, then in three ranges
        leader = self.leader(members=(0, 1))
        member = self.member(1)
        values = [gradient(seed) for seed in range(2)]
        whole = []
        for ranges in (None, [(0, 300), (300, 301), (301, PARAMETERS)]):
            hand_over = HandOver(member, len(whole), VERSIONS, 4, 0.5, values[1])
            contributions = leader.gather(len(whole), VERSIONS, 5.0)
            seen = []

            # when
            host_sum = leader.add_up(HostSum([0], 3, 0.25, values[0]), contributions, ranges,
                                     None if ranges is None else
                                     lambda summed, i: seen.append((i, summed.gradient[slice(*ranges[i])].copy())))
            leader.confirm(host_sum)
            hand_over.join()
            whole.append(host_sum.gradient.copy())

        # then: each range was complete when handed over, and the sums are the same to the bit
        np.testing.assert_array_equal(whole[1], whole[0])
        self.assertEqual([i for i, _ in seen], [0, 1, 2])
        np.testing.assert_array_equal(np.concatenate([part for _, part in seen]), whole[0])
        self.assertEqual((host_sum.sample_count, host_sum.loss), (7, 0.75))

    def test_should_publish_its_own_gradient_alone_when_no_member_hands_one_over_in_time(self):
        # given
        leader = self.leader(members=(0, 1))
        self.member(1)
        own = HostSum([0], 3, 0.25, gradient(0))

        # when
        host_sum = leader.add_up(own, leader.gather(0, VERSIONS, 0.2))

        # then
        self.assertIs(host_sum, own)
        self.assertEqual(host_sum.contributor_ids(), [])

    def test_should_not_wait_for_a_member_that_closed_its_connection(self):
        # given
        leader = self.leader(join_timeout_s=5.0)
        second, third = self.member(1), self.member(2)
        third.close()
        second_hands_over = HandOver(second, 0, VERSIONS, 4, 0.5, gradient(1))

        # when
        started = time.monotonic()
        contributions = leader.gather(0, VERSIONS, 5.0)
        waited = time.monotonic() - started

        # then
        self.assertEqual([c.index for c in contributions], [1])
        self.assertLess(waited, PROMPT_S)
        leader.confirm(leader.add_up(HostSum([0], 3, 0.25, gradient(0)), contributions))
        self.assertTrue(second_hands_over.join())

    def test_should_answer_solo_at_once_to_a_member_that_comes_after_the_clock_was_gathered(self):
        # given: the leader gathered clock 0 without the member
        leader = self.leader(members=(0, 1))
        member = self.member(1)
        self.assertEqual(leader.gather(0, VERSIONS, 0.2), [])

        # when
        started = time.monotonic()
        included = member.hand_over(0, VERSIONS, 4, 0.5, gradient(1))
        waited = time.monotonic() - started

        # then: solo for that clock, and still summed at the next
        self.assertFalse(included)
        self.assertLess(waited, PROMPT_S)
        self.assertFalse(member.solo)
        next_hand_over = HandOver(member, 1, VERSIONS, 4, 0.5, gradient(1))
        contributions = leader.gather(1, VERSIONS, 5.0)
        leader.confirm(leader.add_up(HostSum([0], 3, 0.25, gradient(0)), contributions))
        self.assertTrue(next_hand_over.join())

    def test_should_answer_solo_to_a_gradient_computed_on_other_versions(self):
        # given
        leader = self.leader(members=(0, 1))
        member = self.member(1)
        hand_over = HandOver(member, 0, (5, 6), 4, 0.5, gradient(1))

        # when
        contributions = leader.gather(0, VERSIONS, 5.0)

        # then
        self.assertEqual(contributions, [])
        self.assertFalse(hand_over.join())
        self.assertLess(hand_over.seconds, PROMPT_S)
        self.assertFalse(member.solo)

    def test_should_go_solo_for_good_when_the_leader_dies_before_answering(self):
        # given: the leader holds the member's gradient, then closes without confirming
        leader = self.leader(members=(0, 1))
        member = self.member(1, answer_timeout_s=5.0)
        hand_over = HandOver(member, 0, VERSIONS, 4, 0.5, gradient(1))
        self.assertEqual(len(leader.gather(0, VERSIONS, 5.0)), 1)

        # when
        leader.close()

        # then
        self.assertFalse(hand_over.join())
        self.assertLess(hand_over.seconds, PROMPT_S)
        self.assertTrue(member.solo)
        self.assertFalse(member.hand_over(1, VERSIONS, 4, 0.5, gradient(1)))

    def test_should_fail_rather_than_publish_its_own_while_a_live_leader_may_still_sum_its_gradient(self):
        # given: a leader that takes the member's gradient but never gathers the clock
        self.leader(members=(0, 1))
        member = self.member(1, answer_timeout_s=0.3)

        # when / then: no answer in time is an error, not a licence to publish a copy the sum may also hold
        with self.assertRaises(ModelTimeoutError):
            member.hand_over(0, VERSIONS, 4, 0.5, gradient(1))

    def test_should_refuse_a_process_of_another_user(self):
        # given: a leader that takes only user id + 1 (an abstract socket has no file permissions of its own)
        leader = self.leader(members=(0, 1), join_timeout_s=5.0)
        leader.uid = os.getuid() + 1
        member = self.member(1)

        # when
        hand_over = HandOver(member, 0, VERSIONS, 4, 0.5, gradient(1))
        contributions = leader.gather(0, VERSIONS, 0.3)

        # then: never heard (nor taken for the real member 1, which the leader still waits for until it joins);
        # the member publishes its own
        self.assertEqual(contributions, [])
        self.assertFalse(hand_over.join())
        self.assertLess(hand_over.seconds, PROMPT_S)
        self.assertTrue(member.solo)

    def test_should_refuse_a_member_with_another_model_layout(self):
        # given
        leader = self.leader(members=(0, 1), join_timeout_s=5.0)
        member = self.member(1, parameters=PARAMETERS + 1)

        # when
        hand_over = HandOver(member, 0, VERSIONS, 4, 0.5, np.zeros(PARAMETERS + 1, dtype=np.float32))
        started = time.monotonic()
        contributions = leader.gather(0, VERSIONS, 5.0)

        # then
        self.assertEqual(contributions, [])
        self.assertLess(time.monotonic() - started, PROMPT_S)
        self.assertFalse(hand_over.join())


    def test_should_share_each_clocks_model_with_its_members_through_memory(self):
        # given
        leader = self.leader(members=(0, 1))
        member = self.member(1)
        parameters = gradient(7)
        view = model_view(shares={"worker-000": 0.25, "worker-001": 0.75}, threads={"worker-001": 2}, plan_epoch=3)

        # when
        leader.share_model(4, view, parameters, {0: 120, 3: 98})
        shared = member.await_model(4, 1.0)

        # then: the leader's parameters, copied out, with its versions, plan and reader's offsets
        self.assertTrue(member.shares_model)
        np.testing.assert_array_equal(shared.assemble(PARAMETERS), parameters)
        self.assertFalse(np.shares_memory(shared.assemble(PARAMETERS), parameters))
        self.assertEqual(shared.versions(), list(VERSIONS))
        self.assertEqual(shared.plan_shares(), {"worker-000": 0.25, "worker-001": 0.75})
        self.assertEqual(shared.plan_threads(), {"worker-001": 2})
        self.assertEqual(shared.plan_version(), 3)
        self.assertEqual(shared.offsets, {0: 120, 3: 98})

    def test_should_tell_a_member_that_joins_late_the_last_clock_shared_and_skip_older_ones(self):
        # given: clocks 0 and 1 shared before the member connects
        leader = self.leader(members=(0, 1))
        leader.share_model(0, model_view(), gradient(0), {})
        leader.share_model(1, model_view((6, 8)), gradient(1), {})

        # when
        member = self.member(1)
        shared = member.await_model(1, 1.0)

        # then
        np.testing.assert_array_equal(shared.assemble(PARAMETERS), gradient(1))
        self.assertEqual(shared.versions(), [6, 8])

    def test_should_keep_a_model_announced_while_it_waits_for_its_answer(self):
        # given: the member's gradient of clock 0 is answered only after clock 1's model is shared
        leader = self.leader(members=(0, 1))
        member = self.member(1)
        hand_over = HandOver(member, 0, VERSIONS, 4, 0.5, gradient(1))
        contributions = leader.gather(0, VERSIONS, 5.0)
        leader.share_model(1, model_view(), gradient(2), {})
        leader.confirm(leader.add_up(HostSum([0], 3, 0.25, gradient(0)), contributions))

        # when
        included = hand_over.join()
        shared = member.await_model(1, 1.0)

        # then
        self.assertTrue(included)
        np.testing.assert_array_equal(shared.assemble(PARAMETERS), gradient(2))

    def test_should_read_the_model_itself_when_its_clocks_slot_was_overwritten(self):
        # given: clock 2, in clock 0's slot, shared before the member copies clock 0
        leader = self.leader(members=(0, 1))
        member = self.member(1)
        leader.share_model(0, model_view(), gradient(0), {})
        leader.share_model(2, model_view(), gradient(2), {})

        # when
        with self.assertLogs("paramhub_worker.host_group", "WARNING"):
            shared = member.await_model(0, 1.0)

        # then: no torn copy; still summing with its leader
        self.assertIsNone(shared)
        self.assertFalse(member.shares_model)
        self.assertFalse(member.solo)

    def test_should_read_the_model_itself_when_the_leader_is_ahead_or_silent(self):
        for case in ("ahead", "silent"):
            with self.subTest(case):
                # given
                self.address = ("\0paramhub-test-host-sum/%d/%s" % (os.getpid(), uuid.uuid4().hex)).encode()
                leader = self.leader(members=(0, 1))
                member = self.member(1)
                if case == "ahead":
                    leader.share_model(1, model_view(), gradient(1), {})

                # when
                started = time.monotonic()
                with self.assertLogs("paramhub_worker.host_group", "WARNING"):
                    shared = member.await_model(0, 0.3)

                # then
                self.assertIsNone(shared)
                self.assertFalse(member.shares_model)
                self.assertFalse(member.solo)
                self.assertLess(time.monotonic() - started, PROMPT_S)
                self.assertIsNone(member.await_model(1, 0.3))

    def test_should_read_the_model_itself_and_go_solo_when_the_leader_dies(self):
        # given
        leader = self.leader(members=(0, 1))
        member = self.member(1)

        # when
        leader.close()
        shared = member.await_model(0, 5.0)

        # then
        self.assertIsNone(shared)
        self.assertTrue(member.solo)
        self.assertFalse(member.shares_model)


class JoinHostGroupTest(unittest.TestCase):

    SPEC = {"job": "j", "syncMode": "BSP", "parameters": PARAMETERS, "shards": SHARDS, "sessionTimeoutMs": 2000}

    def test_should_sum_only_under_bsp_in_a_group_of_several_on_a_registry_that_takes_contributors(self):
        self.assertIsNone(join_host_group(None, 0, 4, self.SPEC))
        self.assertIsNone(join_host_group([2], 2, 4, self.SPEC))
        with self.assertLogs("paramhub_worker.host_group", "WARNING"):
            self.assertIsNone(join_host_group([0, 1], 0, 4, dict(self.SPEC, syncMode="SSP")))
        with self.assertLogs("paramhub_worker.host_group", "WARNING"):
            self.assertIsNone(join_host_group([0, 1], 0, 4, self.SPEC, sums_accepted=False))

    def test_should_make_the_lowest_index_the_leader(self):
        address = ("\0paramhub-test-host-sum/%d/%s" % (os.getpid(), uuid.uuid4().hex)).encode()
        leader = join_host_group((3, 1), 1, 4, self.SPEC, address)
        try:
            member = join_host_group((3, 1), 3, 4, self.SPEC, address)
            self.assertIsInstance(leader, HostLeader)
            self.assertIsInstance(member, HostMember)
            self.assertFalse(member.solo)
            member.close()
        finally:
            leader.close()

    def test_should_refuse_a_group_without_the_worker_or_with_indices_out_of_range(self):
        for group, index in (([0, 1], 2), ([0, 4], 0), ([1, 1], 1), ([-1, 0], 0)):
            with self.assertRaises(ParamHubError, msg=str(group)):
                join_host_group(group, index, 4, self.SPEC)

    def test_should_name_the_address_after_the_job_and_the_leader_and_keep_it_short_enough(self):
        self.assertEqual(host_address("job-1", 4), b"\0paramhub-host-sum/job-1/4")
        self.assertLessEqual(len(host_address("j" * 100, 999)), 108)
        self.assertNotEqual(host_address("j" * 100, 1), host_address("k" * 100, 1))


if __name__ == "__main__":
    unittest.main()
