package io.paramhub.bench.replay;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.topology.client.ModelView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A recording directory read back: the job and each topic's records. */
final class Recording {

    private final Map<RecordedTopic, List<RecordedRecord>> byTopic;
    private final JobSpec job;

    private Recording(final Map<RecordedTopic, List<RecordedRecord>> byTopic, final JobSpec job) {
        this.byTopic = byTopic;
        this.job = job;
    }

    static Recording load(final Path dir) throws IOException {
        if (!Files.exists(dir.resolve(Recorder.MANIFEST))) {
            throw new IllegalArgumentException(dir + " is not a recording (no " + Recorder.MANIFEST + ")");
        }
        final Map<RecordedTopic, List<RecordedRecord>> byTopic = new EnumMap<>(RecordedTopic.class);
        for (final RecordedTopic topic : RecordedTopic.values()) {
            byTopic.put(topic, RecordingFiles.read(dir.resolve(topic.fileName())));
        }
        if (byTopic.get(RecordedTopic.JOBS).isEmpty()) {
            throw new IllegalArgumentException(dir + " holds no job record");
        }
        return of(byTopic);
    }

    /** A recording of these records (see {@link Recorder#read}); the job is the newest {@code jobs} record. */
    static Recording of(final Map<RecordedTopic, List<RecordedRecord>> records) {
        final Map<RecordedTopic, List<RecordedRecord>> byTopic = new EnumMap<>(RecordedTopic.class);
        for (final RecordedTopic topic : RecordedTopic.values()) {
            byTopic.put(topic, records.getOrDefault(topic, List.of()));
        }
        final List<RecordedRecord> jobs = byTopic.get(RecordedTopic.JOBS);
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("a recording needs a job record");
        }
        return new Recording(
                byTopic, RecordedTopic.JOBS.decode(jobs.get(jobs.size() - 1).value()));
    }

    JobSpec job() {
        return job;
    }

    List<RecordedRecord> records(final RecordedTopic topic) {
        return byTopic.get(topic);
    }

    /** The newest recorded version of each shard. */
    ModelView finalModel() {
        final ModelView view = new ModelView(job.getJob(), job.getShards());
        for (final RecordedRecord record : byTopic.get(RecordedTopic.MODEL)) {
            final ModelShard shard = RecordedTopic.MODEL.decode(record.value());
            view.offer(shard);
        }
        if (!view.complete()) {
            throw new IllegalArgumentException("the recording holds no complete model of job " + job.getJob());
        }
        return view;
    }

    /** The job first, then membership and gradients merged as {@link ReplayFeed} says. */
    List<ReplayFeed.Item> feedForAggregator() {
        return feed(RecordedTopic.MEMBERSHIP, RecordedTopic.GRADIENTS);
    }

    /** The job first, then membership and telemetry merged as {@link ReplayFeed} says. */
    List<ReplayFeed.Item> feedForOrchestrator() {
        return feed(RecordedTopic.MEMBERSHIP, RecordedTopic.TELEMETRY);
    }

    private List<ReplayFeed.Item> feed(final RecordedTopic first, final RecordedTopic second) {
        final Map<RecordedTopic, List<RecordedRecord>> fed = new EnumMap<>(RecordedTopic.class);
        fed.put(first, byTopic.get(first));
        fed.put(second, byTopic.get(second));
        final List<ReplayFeed.Item> items = new ArrayList<>();
        for (final RecordedRecord record : byTopic.get(RecordedTopic.JOBS)) {
            items.add(new ReplayFeed.Item(RecordedTopic.JOBS, record));
        }
        items.addAll(ReplayFeed.merge(fed));
        return items;
    }
}
