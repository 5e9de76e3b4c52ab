package io.paramhub.worker;

/**
 * The metadata a topic-mode worker commits with its input offsets, {@code clock=C;trained=T}: the clock it resumes
 * at and the examples it has trained, read back by a restarted worker ({@link ExampleFeed#resume}).
 */
final class ResumeMetadata {

    private ResumeMetadata() {}

    static String format(final ExampleFeed.Resume resume) {
        return "clock=" + resume.clock() + ";trained=" + resume.trained();
    }

    /** The resume point in {@code metadata}; the start when it holds none (offsets committed by someone else). */
    static ExampleFeed.Resume parse(final String metadata) {
        if (metadata == null || !metadata.matches("clock=\\d{1,18};trained=\\d{1,18}")) {
            return ExampleFeed.Resume.START;
        }
        final String[] parts = metadata.split(";");
        return new ExampleFeed.Resume(
                Long.parseLong(parts[0].substring("clock=".length())),
                Long.parseLong(parts[1].substring("trained=".length())));
    }
}
