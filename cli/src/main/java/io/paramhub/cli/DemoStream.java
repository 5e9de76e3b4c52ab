package io.paramhub.cli;

import io.paramhub.embedded.LocalCluster;
import io.paramhub.embedded.online.OnlineRun;
import io.paramhub.ml.TopicSpec;
import io.paramhub.stream.ExampleRecords;
import io.paramhub.stream.ExampleStreamer;
import io.paramhub.stream.StreamSettings;
import java.util.concurrent.CompletableFuture;

/**
 * The examples of {@code paramhub demo --online}: the data set's training examples written to the job's data topic
 * by an {@link ExampleStreamer} at {@code --rate}, {@code --max-examples} of them (starting over at the end of the
 * data set when there are more), labels permuted from {@code --drift-at} on.
 */
final class DemoStream implements OnlineRun.Streaming {

    /** The field of the examples' features, as the streamer writes them. */
    static final String FEATURES = ExampleRecords.FEATURES;
    /** The field of their label. */
    static final String LABEL = ExampleRecords.LABEL;

    private final ExampleStreamer streamer;
    private final CompletableFuture<?> done;

    private DemoStream(final ExampleStreamer streamer) {
        this.streamer = streamer;
        this.done = streamer.start();
    }

    /** Starts streaming {@code dataSpec}'s training set into {@code topic}'s topic on {@code cluster}. */
    static DemoStream start(
            final LocalCluster cluster, final String dataSpec, final TopicSpec topic, final OnlineOptions options) {
        final StreamSettings once = StreamSettings.of(dataSpec, topic.topic())
                .withRate(options.rate())
                .withCount(topic.maxExamples())
                .withLoop(true);
        final StreamSettings settings = options.driftAt() < 0 ? once : once.withDriftAt(options.driftAt());
        return new DemoStream(
                ExampleStreamer.open(settings, cluster.connection().streams()));
    }

    @Override
    public CompletableFuture<?> done() {
        return done;
    }

    @Override
    public void close() {
        streamer.stop();
        streamer.close();
    }
}
