package io.paramhub.cli.chaos;

import io.paramhub.embedded.BrokerProcesses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Injects a {@link Schedule}'s faults into a {@link ChaosCluster} one at a time, paced by the BSP job's clocks:
 * each waits for its clock, holds, heals (the process started again and, for a Streams app, ready; a broker back in
 * every ISR, so that two brokers are never down at once; the registry answering) and waits until the BSP job has
 * moved past the clock it was injected at, and for a worker kill until the worker's own job has moved past the
 * clock it had when the worker was back, before the next is due. A worker kill whose job has already finished is
 * not injected.
 */
final class Nemesis {

    /** How long a fault may take to heal before the run is called stuck. */
    private final Duration healTimeout;

    private final ChaosCluster cluster;
    private final ChaosTopology topology;
    private final JobProgress progress;
    private final Map<String, JobProgress> jobs;
    private final Consumer<String> out;
    private final long startedAt = System.nanoTime();

    Nemesis(
            final ChaosCluster cluster,
            final ChaosTopology topology,
            final Map<String, JobProgress> jobs,
            final String pacer,
            final Duration healTimeout,
            final Consumer<String> out) {
        this.cluster = cluster;
        this.topology = topology;
        this.jobs = Map.copyOf(jobs);
        this.progress = jobs.get(pacer);
        this.healTimeout = healTimeout;
        this.out = out;
    }

    /** Runs {@code schedule}; a fault the job ended before is returned as not injected. */
    List<InjectedFault> run(final Schedule schedule) throws InterruptedException {
        final List<InjectedFault> done = new ArrayList<>();
        long healedClock = 0;
        for (final Fault fault : schedule.faults()) {
            final long due = healedClock + fault.afterClocks();
            while (progress.clock() < due && !progress.finished()) {
                Thread.sleep(20);
            }
            final long clock = progress.clock();
            final JobProgress hit = hitJob(fault);
            if (progress.finished() || hit.finished()) {
                out.accept("chaos: the job finished before " + fault.describe(topology));
                done.add(new InjectedFault(fault, -1, -1, -1));
                continue;
            }
            final long at = elapsedMs();
            final long hitClock = hit.clock();
            out.accept("chaos: clock " + clock + ": " + fault.describe(topology)
                    + (hit == progress ? "" : " at its job's clock " + hitClock));
            try {
                inject(fault);
            } catch (final RuntimeException e) {
                out.accept("chaos: " + fault.describe(topology) + " did not heal: " + e.getMessage());
                done.add(new InjectedFault(fault, clock, at, -1));
                healedClock = progress.clock();
                continue;
            }
            // a worker's job must move on once the worker is back, not merely finish a clock in flight at the kill
            final boolean moved = hit.awaitPast(hit == progress ? clock : hit.clock(), healTimeout)
                    && progress.awaitPast(clock, healTimeout);
            final long healMs = moved ? elapsedMs() - at : -1;
            out.accept("chaos: " + (moved ? "healed in " + healMs + " ms" : "NOT healed within " + healTimeout));
            done.add(new InjectedFault(fault, clock, at, healMs));
            healedClock = progress.clock();
        }
        return done;
    }

    /** The progress of the job a fault hits: a worker's own job, the BSP job for every other fault. */
    private JobProgress hitJob(final Fault fault) {
        return fault.kind() == FaultKind.WORKER_KILL
                ? jobs.get(topology.workers().get(fault.target()).job())
                : progress;
    }

    private void inject(final Fault fault) throws InterruptedException {
        final String target = topology.targetName(fault.kind(), fault.target());
        switch (fault.kind()) {
            case AGGREGATOR_PAUSE -> {
                final AppJvm app = cluster.app(target);
                app.pause();
                Thread.sleep(fault.holdMs());
                app.resume();
            }
            case BROKER_KILL -> {
                final int id = fault.target() + 1;
                cluster.brokers().kill(id);
                Thread.sleep(fault.holdMs());
                cluster.brokers().restart(id);
                awaitInSync(cluster.brokers());
            }
            case REGISTRY_KILL -> {
                restart(cluster.app(target), fault.holdMs());
                cluster.awaitRegistry();
            }
            case AGGREGATOR_KILL, WORKER_KILL, ORCHESTRATOR_KILL -> restart(cluster.app(target), fault.holdMs());
        }
        // one fault at a time: a Streams app hit is healed once it is ready again, not merely started
        if (cluster.hasReadiness(target)) {
            cluster.awaitReady(target, healTimeout);
        }
    }

    /** SIGKILL, the hold, a start with the same command line; a worker whose job is over is left alone. */
    private static void restart(final AppJvm app, final long holdMs) throws InterruptedException {
        if (!app.isAlive()) {
            return;
        }
        app.kill();
        Thread.sleep(holdMs);
        app.start();
    }

    /** Waits until every partition of every topic has all its replicas in sync again. */
    private void awaitInSync(final BrokerProcesses brokers) throws InterruptedException {
        final long deadline = System.nanoTime() + healTimeout.toNanos();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000))) {
            while (System.nanoTime() < deadline) {
                if (allInSync(admin)) {
                    return;
                }
                Thread.sleep(250);
            }
        }
        throw new IllegalStateException("the replicas were not all in sync " + healTimeout + " after a broker restart");
    }

    private static boolean allInSync(final Admin admin) throws InterruptedException {
        try {
            final var names = admin.listTopics(new ListTopicsOptions().listInternal(true))
                    .names()
                    .get(10, TimeUnit.SECONDS);
            final Map<String, TopicDescription> topics =
                    admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS);
            for (final TopicDescription topic : topics.values()) {
                for (final TopicPartitionInfo partition : topic.partitions()) {
                    if (partition.isr().size() < partition.replicas().size()) {
                        return false;
                    }
                }
            }
            return true;
        } catch (final ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private long elapsedMs() {
        return (System.nanoTime() - startedAt) / 1_000_000;
    }
}
