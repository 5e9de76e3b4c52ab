package io.paramhub.cli.chaos;

import io.paramhub.avro.JobSpec;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code paramhub chaos}: a cluster of processes on this machine, a BSP job, a hostile tenant forging control records
 * at it and a seeded nemesis injecting faults while it trains, then the invariants checked on the recorded topics
 * and a JSON summary as the last line.
 */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Starts three brokers (replication 3, min.insync.replicas 2), a schema registry, two aggregators, an "
                    + "orchestrator (levers off) and one process per worker of a BSP job, each its own JVM, and a "
                    + "hostile tenant (a thread here with its own producer) forging model versions, commands, "
                    + "membership and a job spec at the BSP job early on and half way; injects "
                    + "--faults faults drawn from --seed, one at a time a few clocks apart (SIGKILL or SIGSTOP/SIGCONT "
                    + "an aggregator, SIGKILL a worker and restart it within the session timeout, SIGKILL a broker and "
                    + "restart it, never two at once, SIGKILL the orchestrator or the registry and restart it); after "
                    + "healing checks the invariants on the topics: the model bit-identical to the in-process "
                    + "reference, every shard's versions 0..N once each, no schema id naming two schemas, only "
                    + "the tenant's forgeries (as many as it sent) and repeated gradients dead-lettered, the job within "
                    + "its fault-free time plus (session timeout + "
                    + "30 s) a fault, no app shut itself down, every fault injected and healed.",
            "The last line of the output is a JSON summary; the exit code is 1 when an invariant fails.",
            "Time bound: 3 min to start + the job (about 0.15 s a clock, 64 + 40 a fault clocks, rounded up to "
                    + "epochs of 32) + a fault's session timeout and 30 s each + 2 min of checks; e.g. --faults 3 "
                    + "about 3 min, --faults 30 at most about 40 min. Every process started is killed at the end."
        })
public final class ChaosCommand implements Callable<Integer> {

    private static final long STARTUP_MS = 180_000;
    private static final long CHECKS_MS = 120_000;
    private static final long MS_PER_CLOCK = 150;
    private static final long PAUSE_BEFORE_SUMMARY_MS = 500;

    @Spec
    private CommandSpec command;

    @Option(
            names = "--seed",
            defaultValue = "7",
            description = "Seed of the fault schedule (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(
            names = "--faults",
            defaultValue = "10",
            description = "Faults to inject, 0-100 (default: ${DEFAULT-VALUE}).")
    private int faults;

    @Option(
            names = "--replay",
            paramLabel = "FILE",
            description = "Inject the faults of a schedule a run wrote (its schedule.json) instead of drawing them; "
                    + "--seed and --faults are then ignored.")
    private Path replay;

    @Option(
            names = "--dir",
            defaultValue = ".paramhub/chaos",
            description = "Where each run gets a directory (run-<time>) with its schedule.json, the brokers' data and "
                    + "every process's log (default: ${DEFAULT-VALUE}).")
    private Path dir;

    @Option(
            names = "--port",
            defaultValue = "19092",
            description = "First broker client port; the brokers take it and the next two, their controllers the "
                    + "three after; 0 = any six consecutive free ports (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(
            names = "--session-timeout-ms",
            defaultValue = "30000",
            description = "The job's session timeout: a worker silent this long is dead; a killed worker is back "
                    + "well within it (default: ${DEFAULT-VALUE}).")
    private long sessionTimeoutMs;

    @Option(
            names = "--sample-cost-us",
            defaultValue = "2000",
            description = "Emulated compute per example in a worker, so that clocks pace the faults "
                    + "(default: ${DEFAULT-VALUE}).")
    private long sampleCostMicros;

    @Override
    public Integer call() throws Exception {
        if (replay == null && (faults < 0 || faults > 100)) {
            throw new ParameterException(command.commandLine(), "--faults must be in 0..100, not " + faults);
        }
        if (sessionTimeoutMs < 10_000) {
            throw new ParameterException(
                    command.commandLine(),
                    "--session-timeout-ms must be at least 10000: a worker's JVM must restart within it");
        }
        final ChaosTopology topology = ChaosTopology.STANDARD;
        final Schedule schedule =
                replay != null ? Schedule.read(replay) : Schedule.generate(seed, faults, topology, sessionTimeoutMs);
        final Path runDir = ChaosCluster.createDir(dir);
        schedule.write(runDir.resolve("schedule.json"));
        System.out.println("chaos: " + schedule.faults().size() + " faults (seed " + schedule.seed() + "), schedule in "
                + runDir.resolve("schedule.json") + "; logs in " + runDir);
        final List<String> brokerExits = Collections.synchronizedList(new ArrayList<>());
        List<Verdict> verdicts;
        List<InjectedFault> injected;
        final int firstPort = port == 0 ? FreePorts.consecutive(2 * topology.brokers()) : port;
        final ChaosCluster cluster = ChaosCluster.start(runDir, topology, firstPort, line -> {
            brokerExits.add(line);
            System.out.println("chaos: " + line);
        });
        final Thread killAll = new Thread(cluster::close, "chaos-kill-all");
        Runtime.getRuntime().addShutdownHook(killAll);
        try {
            final ChaosRecord record = train(cluster, topology, schedule, brokerExits);
            injected = record.faults();
            verdicts = check(record);
        } catch (final RuntimeException e) {
            // the summary is still the last line: a run that broke off fails
            injected = List.of();
            verdicts = List.of(Verdict.fail("run-completed", "the run broke off: " + e));
        } finally {
            cluster.close();
            Runtime.getRuntime().removeShutdownHook(killAll);
        }
        verdicts.forEach(verdict -> System.out.println(
                "chaos: " + (verdict.passed() ? "PASS " : "FAIL ") + verdict.invariant() + ": " + verdict.detail()));
        // ./paramhub pipes stderr through a filter: let it drain so that the summary is the very last line
        System.err.flush();
        System.out.flush();
        Thread.sleep(PAUSE_BEFORE_SUMMARY_MS);
        System.out.println(ChaosSummary.json(schedule, injected, verdicts));
        System.out.flush();
        return ChaosSummary.passed(verdicts) ? 0 : 1;
    }

    /** Trains the job under the schedule's faults; what it left, for the invariants. */
    private ChaosRecord train(
            final ChaosCluster cluster,
            final ChaosTopology topology,
            final Schedule schedule,
            final List<String> brokerExits)
            throws InterruptedException {
        final Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        final TopicCatalog topics =
                TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(cluster.registryUrl()));
        awaitTopics(client, topics);
        final JobSpec spec = ChaosJob.spec(schedule.faults().size(), topology.workers(), sessionTimeoutMs);
        final long clocks = ChaosJob.clocks(spec);
        final long bound = STARTUP_MS
                + clocks * MS_PER_CLOCK * 2
                + schedule.faults().size() * (sessionTimeoutMs + JobDeadline.PER_FAULT_MS);
        final long submitted = System.nanoTime();
        JobSubmitter.submit(topics.jobs(), client, spec);
        System.out.println("chaos: job " + spec.getJob() + " submitted: " + clocks + " clocks, " + topology.workers()
                + " workers, " + spec.getShards() + " shards");
        try (JobProgress progress = new JobProgress(topics.model(), client, spec.getJob(), spec.getShards(), clocks);
                HostileTenant tenant = new HostileTenant(
                        new HostileForgeries(topics, spec),
                        client,
                        progress,
                        HostileTenant.roundClocks(clocks),
                        System.out::println)) {
            progress.start();
            tenant.start();
            cluster.startWorkers(spec.getJob(), sampleCostMicros, (sessionTimeoutMs + 120_000) / 1000);
            final Nemesis nemesis = new Nemesis(
                    cluster, topology, progress, Duration.ofMillis(sessionTimeoutMs + 90_000), System.out::println);
            final List<InjectedFault> injected = nemesis.run(schedule);
            final boolean finished = progress.awaitFinished(Duration.ofMillis(bound));
            final long jobMs = finished ? (System.nanoTime() - submitted) / 1_000_000 : -1;
            System.out.println("chaos: job " + (finished ? "finished in " + jobMs + " ms" : "did NOT finish"));
            tenant.close();
            System.out.println(
                    "chaos: the hostile tenant wrote " + tenant.sent().size() + " forged records"
                            + (tenant.failures().isEmpty() ? "" : "; failed: " + tenant.failures()));
            return new ChaosRecord(
                    client,
                    topics,
                    spec,
                    clocks,
                    injected,
                    jobMs,
                    faultFreeMs(progress, submitted, clocks),
                    exits(cluster, brokerExits),
                    appsDown(cluster),
                    tenant.sent(),
                    tenant.failures());
        }
    }

    private static List<Verdict> check(final ChaosRecord record) {
        final List<Invariant> invariants = List.of(
                new AllFaultsInjected(),
                new BitIdenticalModel(),
                new ContiguousVersions(),
                new UniqueSchemaIds(),
                new ExpectedDeadLetters(),
                new JobDeadline(),
                new NoAppShutdown());
        final List<Verdict> verdicts = new ArrayList<>();
        for (final Invariant invariant : invariants) {
            try {
                verdicts.add(invariant.check(record));
            } catch (final RuntimeException e) {
                verdicts.add(Verdict.fail(invariant.name(), "check failed: " + e));
            }
        }
        return verdicts;
    }

    /**
     * The job's time without faults, estimated from this run: from submission to version 0, then the median
     * interval between clocks (most clocks see no fault) times the clocks.
     */
    private static long faultFreeMs(final JobProgress progress, final long submitted, final long clocks) {
        final long first = progress.reachedAt(0);
        final List<Double> intervals = new ArrayList<>(progress.clockIntervalsMs());
        if (first < 0 || intervals.isEmpty()) {
            return 0;
        }
        Collections.sort(intervals);
        final double median = intervals.get(intervals.size() / 2);
        return (first - submitted) / 1_000_000 + Math.round(median * clocks);
    }

    /** The apps' exits the nemesis did not cause, and the brokers' (a broker it killed is not reported). */
    private static List<String> exits(final ChaosCluster cluster, final List<String> brokerExits) {
        final List<String> exits = new ArrayList<>(brokerExits);
        cluster.apps().forEach(app -> app.unexpectedExits().forEach(exit -> exits.add(exit.toString())));
        return exits;
    }

    /** Servers not running at the end, and workers whose last process did not end with code 0 after the job. */
    private static List<String> appsDown(final ChaosCluster cluster) throws InterruptedException {
        final List<String> down = new ArrayList<>();
        for (final AppJvm app : cluster.apps()) {
            if (cluster.workers().contains(app)) {
                final int code = app.awaitExit(60);
                if (code != 0) {
                    down.add(app.name() + (code < 0 ? " still running" : " exited with " + code));
                }
            } else if (!app.isAlive()) {
                down.add(app.name() + " not running");
            }
        }
        return down;
    }

    /** Waits until the aggregators have made ParamHub's topics: a client touching one first could auto-create it. */
    private static void awaitTopics(final Properties client, final TopicCatalog topics) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STARTUP_MS);
        final List<String> wanted = List.of(
                topics.jobs().name(),
                topics.model().name(),
                topics.gradients().name(),
                topics.deadLetters().name());
        try (Admin admin = Admin.create(client)) {
            while (System.nanoTime() < deadline) {
                try {
                    if (admin.listTopics().names().get(10, TimeUnit.SECONDS).containsAll(wanted)) {
                        return;
                    }
                } catch (final ExecutionException | TimeoutException e) {
                    // the brokers are still settling: ask again
                }
                Thread.sleep(250);
            }
        }
        throw new IllegalStateException("the aggregators did not create " + wanted + " within " + STARTUP_MS + " ms");
    }
}
