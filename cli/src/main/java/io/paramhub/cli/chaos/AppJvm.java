package io.paramhub.cli.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One ParamHub app (a main class on this JVM's class path) run as a process of its own, so that the nemesis can
 * SIGKILL, SIGSTOP and SIGCONT it and start it again with the same arguments; its output is appended to a log
 * file. Remembers every exit it did not cause, the evidence of an app that shut itself down.
 */
final class AppJvm {

    /** An exit nobody asked for: which app, its pid and its exit code. */
    record Exit(String app, long pid, int code) {}

    private final String name;
    private final List<String> command;
    private final Path log;
    /** Whether an exit with code 0 is the app's normal end (a worker whose job is over), not a shutdown. */
    private final boolean finishes;

    private final Set<Long> killed = ConcurrentHashMap.newKeySet();
    private final List<Exit> unexpected = new CopyOnWriteArrayList<>();
    private volatile Process process;

    private AppJvm(final String name, final List<String> command, final Path log, final boolean finishes) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = log;
        this.finishes = finishes;
    }

    /**
     * An app named {@code name} running {@code mainClass} with {@code heap} ({@code -Xmx}) and {@code args}; its
     * output goes to {@code log}. Not started yet.
     */
    static AppJvm of(
            final String name,
            final String mainClass,
            final String heap,
            final Path log,
            final boolean finishes,
            final List<String> args) {
        final List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap,
                // many JVMs on two cores: C1 alone and the serial collector; floating point is the same either way
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
        command.addAll(args);
        return new AppJvm(name, command, log, finishes);
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    /** Starts the app (again), its environment this JVM's without KAFKA_* and PARAMHUB_* variables. */
    synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is still running (pid " + process.pid() + ")");
        }
        final ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().keySet().removeIf(key -> key.startsWith("KAFKA_") || key.startsWith("PARAMHUB_"));
        try {
            final Process started = builder.start();
            started.onExit().thenAccept(this::exited);
            process = started;
        } catch (final IOException e) {
            throw new UncheckedIOException("could not start " + name + " with " + command, e);
        }
    }

    /** SIGKILL, and waits until the process is gone. */
    synchronized void kill() throws InterruptedException {
        final Process current = process;
        if (current != null && current.isAlive()) {
            killed.add(current.pid());
            current.destroyForcibly();
            current.waitFor();
        }
    }

    /** SIGSTOP: the process is frozen, sockets open, as a zombie or a long GC pause is. */
    void pause() throws InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() throws InterruptedException {
        signal("CONT");
    }

    boolean isAlive() {
        final Process current = process;
        return current != null && current.isAlive();
    }

    /** The exit code of the current process once it has ended within {@code seconds}, or -1. */
    int awaitExit(final long seconds) throws InterruptedException {
        final Process current = process;
        if (current == null || !current.waitFor(seconds, TimeUnit.SECONDS)) {
            return -1;
        }
        return current.exitValue();
    }

    /** The exits it did not cause (a worker's exit 0 after its job is none of them). */
    List<Exit> unexpectedExits() {
        return List.copyOf(unexpected);
    }

    /** Stops the process for good: SIGKILL, its exit not counted. */
    void close() {
        try {
            kill();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            final Process current = process;
            if (current != null) {
                current.destroyForcibly();
            }
        }
    }

    private void exited(final Process ended) {
        if (killed.contains(ended.pid()) || finishes && ended.exitValue() == 0) {
            return;
        }
        unexpected.add(new Exit(name, ended.pid(), ended.exitValue()));
    }

    private void signal(final String signal) throws InterruptedException {
        final Process current = process;
        if (current == null || !current.isAlive()) {
            return;
        }
        try {
            final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(current.pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + current.pid() + " failed");
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("could not send SIG" + signal + " to " + name, e);
        }
    }
}
