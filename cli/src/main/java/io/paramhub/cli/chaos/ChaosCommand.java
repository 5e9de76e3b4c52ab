package io.paramhub.cli.chaos;

import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * {@code paramhub chaos}: a cluster of processes on this machine, three jobs at once (BSP, SSP, staged), a hostile
 * tenant forging control records at the BSP job and a seeded nemesis injecting faults while they train, then the
 * invariants checked per job on the recorded topics and a JSON summary as the last line.
 */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Starts three brokers (replication 3, min.insync.replicas 2), a schema registry, two aggregators, an "
                    + "orchestrator (levers off) and one process per worker of three jobs, each its own JVM: "
                    + "chaos-bsp (BSP, linear, 2 workers), chaos-ssp (SSP staleness 2, linear, 2 workers, the second "
                    + "1.5 times slower) and chaos-staged (BSP, mlp:8 on Fashion-MNIST cut into 2 pipeline stages, "
                    + "2 workers); and a hostile tenant (a thread here with its own producer) forging model versions, "
                    + "commands, membership and a job spec at the BSP job early on and half way. Injects --faults "
                    + "faults drawn from --seed, one at a time a few of the BSP job's clocks apart (SIGKILL or "
                    + "SIGSTOP/SIGCONT an aggregator; SIGKILL a worker of any job and restart it: a BSP worker within "
                    + "its session timeout, an SSP or staged one before or 1-6 s after its job's, as the seed draws; "
                    + "SIGKILL a broker and restart it, never two at once; SIGKILL the orchestrator or the registry "
                    + "and restart it). After healing checks the invariants on the topics: the BSP and staged models "
                    + "bit-identical to their in-process references, every shard's versions 0..N once each (an SSP "
                    + "shard may repeat a version unchanged), every SSP gradient applied within its staleness bound, "
                    + "no schema id naming two schemas, only the tenant's forgeries (as many as it sent), repeated "
                    + "gradients and too-stale SSP gradients dead-lettered, every job within its fault-free time plus "
                    + "(its session timeout + 30 s) a fault, no app shut itself down, every fault injected and healed.",
            "The last line of the output is a JSON summary; the exit code is 1 when an invariant fails.",
            "Time bound: 3 min to start + the jobs (the BSP job's 64 + --clocks-per-fault a fault clocks, "
                    + "rounded up to epochs of 32, at up to 1 s a clock) + a fault's BSP session timeout and 30 s "
                    + "each + 2 min of checks. Typically a BSP clock takes 0.7 s on two cores: --faults 3 about 4 min "
                    + "(with --clocks-per-fault 10 under 3), --faults 20 about 10 min; --faults 30 at most about "
                    + "72 min. Every process started is killed at the end."
        })
public final class ChaosCommand implements Callable<Integer> {

    private static final long STARTUP_MS = 180_000;
    private static final long CHECKS_MS = 120_000;
    private static final long MS_PER_CLOCK = 500;
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
            defaultValue = "60000",
            description = "The BSP job's session timeout: a worker silent this long is dead; a killed worker of "
                    + "that job is back well within it (default: ${DEFAULT-VALUE}).")
    private long sessionTimeoutMs;

    @Option(
            names = "--short-session-timeout-ms",
            defaultValue = "12000",
            description = "The SSP and staged jobs' session timeout: a killed worker of theirs is back well within it "
                    + "or 1-6 s after it, as the seed draws (default: ${DEFAULT-VALUE}).")
    private long shortSessionTimeoutMs;

    @Option(
            names = "--clocks-per-fault",
            defaultValue = "40",
            description = "Clocks each job is sized up by per fault, after 64 clocks of warm-up; at least 10. Fewer "
                    + "than the default may end the jobs before a schedule with long holds is through: a fault after "
                    + "the end is not injected and the run fails (default: ${DEFAULT-VALUE}).")
    private int clocksPerFault;

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
        if (clocksPerFault < 10) {
            throw new ParameterException(
                    command.commandLine(), "--clocks-per-fault must be at least 10, not " + clocksPerFault);
        }
        if (sessionTimeoutMs < 10_000 || shortSessionTimeoutMs < 10_000) {
            throw new ParameterException(
                    command.commandLine(),
                    "--session-timeout-ms and --short-session-timeout-ms must be at least 10000: a worker's JVM must "
                            + "restart within a quarter of it");
        }
        final Schedule drawn = replay != null ? Schedule.read(replay) : null;
        final int faultCount = drawn != null ? drawn.faults().size() : faults;
        final List<ChaosJob> jobs = ChaosJob.standard(
                faultCount, clocksPerFault, sessionTimeoutMs, shortSessionTimeoutMs, sampleCostMicros);
        final ChaosTopology topology = ChaosTopology.of(jobs);
        final Schedule schedule = drawn != null ? drawn : Schedule.generate(seed, faults, topology);
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
            final ChaosRecord record = train(cluster, topology, jobs, schedule, brokerExits);
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

    /** Trains the jobs under the schedule's faults; what they left, for the invariants. */
    private ChaosRecord train(
            final ChaosCluster cluster,
            final ChaosTopology topology,
            final List<ChaosJob> jobs,
            final Schedule schedule,
            final List<String> brokerExits)
            throws InterruptedException {
        final Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        final TopicCatalog topics =
                TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(cluster.registryUrl()));
        awaitTopics(client, topics);
        final ChaosJob bsp = jobs.get(0);
        final long longest = jobs.stream().mapToLong(ChaosJob::clocks).max().orElse(0);
        final long bound = STARTUP_MS
                + longest * MS_PER_CLOCK * 2
                + schedule.faults().size() * (sessionTimeoutMs + JobDeadline.PER_FAULT_MS);
        final Map<String, JobProgress> progress = new LinkedHashMap<>();
        final Map<String, Long> submitted = new LinkedHashMap<>();
        try (HostileTenant tenant = startJobs(client, topics, jobs, progress, submitted)) {
            cluster.startWorkers(jobs);
            final Nemesis nemesis = new Nemesis(
                    cluster,
                    topology,
                    progress,
                    bsp.name(),
                    Duration.ofMillis(sessionTimeoutMs + 90_000),
                    System.out::println);
            final List<InjectedFault> injected = nemesis.run(schedule);
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(bound);
            final List<ChaosRecord.JobRun> runs = new ArrayList<>();
            for (final ChaosJob job : jobs) {
                final JobProgress one = progress.get(job.name());
                final boolean finished = one.awaitFinished(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                final long jobMs = finished ? (one.finishedAt() - submitted.get(job.name())) / 1_000_000 : -1;
                System.out.println("chaos: job " + job.name() + " "
                        + (finished ? "finished in " + jobMs + " ms" : "did NOT finish"));
                runs.add(new ChaosRecord.JobRun(job, jobMs, faultFreeMs(one, submitted.get(job.name()), job.clocks())));
            }
            tenant.close();
            System.out.println(
                    "chaos: the hostile tenant wrote " + tenant.sent().size() + " forged records"
                            + (tenant.failures().isEmpty() ? "" : "; failed: " + tenant.failures()));
            return new ChaosRecord(
                    client,
                    topics,
                    runs,
                    injected,
                    exits(cluster, brokerExits),
                    appsDown(cluster),
                    tenant.sent(),
                    tenant.failures());
        } finally {
            for (final JobProgress one : progress.values()) {
                one.close();
            }
        }
    }

    /**
     * Submits every job and follows each ({@code progress}, {@code submitted} filled in), and starts the hostile
     * tenant on the BSP job, the first.
     */
    private static HostileTenant startJobs(
            final Properties client,
            final TopicCatalog topics,
            final List<ChaosJob> jobs,
            final Map<String, JobProgress> progress,
            final Map<String, Long> submitted) {
        for (final ChaosJob job : jobs) {
            final JobProgress one = JobProgress.of(topics.model(), client, job);
            progress.put(job.name(), one);
            one.start();
            submitted.put(job.name(), System.nanoTime());
            JobSubmitter.submit(topics.jobs(), client, job.spec());
            System.out.println("chaos: job " + job.name() + " (" + job.kind() + ") submitted: " + job.clocks()
                    + " clocks, " + job.workers() + " workers, " + job.spec().getShards() + " shards, session timeout "
                    + job.spec().getSessionTimeoutMs() + " ms");
        }
        final ChaosJob bsp = jobs.get(0);
        final HostileTenant tenant = new HostileTenant(
                new HostileForgeries(topics, bsp.spec()),
                client,
                progress.get(bsp.name()),
                HostileTenant.roundClocks(bsp.clocks()),
                System.out::println);
        tenant.start();
        return tenant;
    }

    private static List<Verdict> check(final ChaosRecord record) {
        final List<Invariant> invariants = new ArrayList<>(List.of(new AllFaultsInjected()));
        for (final ChaosRecord.JobRun run : record.jobs()) {
            if (run.job().bitIdentical()) {
                invariants.add(new BitIdenticalModel(run.job().name()));
            }
            invariants.add(new ContiguousVersions(run.job().name()));
            if (run.job().kind() == ChaosJob.Kind.SSP) {
                invariants.add(new SspStaleness(run.job().name()));
            }
        }
        invariants.add(new UniqueSchemaIds());
        invariants.add(new ExpectedDeadLetters());
        record.jobs().forEach(run -> invariants.add(new JobDeadline(run.job().name())));
        invariants.add(new NoAppShutdown());
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
