package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.TopicSpec;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class StreamComputeTest {

    private static final int INPUTS = 2;

    @Test
    void shouldPredictBeforeTrainingAndSumTheGradientOfTheExamplesItTookWhenAClockRuns() {
        // given: a softmax whose parameters classify by the sign of the first feature, and 4 examples, 3 right
        final JobSpec spec = spec(1);
        final Model model = JobSpecs.model(spec);
        final float[] params = new float[model.parameterCount()];
        params[0] = -1; // class 0 scores -x0
        params[INPUTS] = 1; // class 1 scores +x0
        final Feed feed =
                new Feed(List.of(example(0, 0, 1, 1), example(0, 1, -1, 0), example(0, 2, 2, 1), example(0, 3, 3, 0)));
        final AtomicBoolean stopped = new AtomicBoolean();
        final StreamCompute compute = compute(spec, feed, stopped);

        // when
        final ClockWork work = compute.compute(0, params, view(spec));

        // then
        assertThat(work.samples()).isEqualTo(4);
        assertThat(work.online().report().getCorrect()).isEqualTo(3);
        assertThat(work.online().report().getExamples()).isEqualTo(4);
        final double[] expected = new double[model.parameterCount()];
        final float[] x = {1, 0, -1, 0, 2, 0, 3, 0};
        final double loss = model.accumulateGradient(
                params, new Dataset("t", INPUTS, x, new float[] {1, 0, 1, 0}, 2), new int[] {0, 1, 2, 3}, expected);
        assertThat(work.gradient()).containsExactly(expected);
        assertThat(work.loss()).isEqualTo(loss);
        assertThat(work.online().report().getPredictionLoss()).isEqualTo(loss);
        assertThat(work.online().ranges()).hasSize(1);
        assertThat(work.online().offsets().get(new TopicPartition("t", 0)).metadata())
                .isEqualTo("clock=1;trained=4");
        assertThat(stopped).isFalse();
    }

    @Test
    void shouldStopTheWorkerWhenItsInputIsOver() {
        // given: a feed with nothing more
        final AtomicBoolean stopped = new AtomicBoolean();
        final StreamCompute compute = compute(spec(1), new Feed(List.of()), stopped);

        // when
        final ClockWork work = compute.compute(0, new float[6], view(spec(1)));

        // then
        assertThat(work).isNull();
        assertThat(stopped).isTrue();
    }

    private static StreamCompute compute(final JobSpec spec, final Feed feed, final AtomicBoolean stopped) {
        final WorkerSettings settings = WorkerSettings.of(spec.getJob(), 0, 1);
        final JobContext job = JobContext.prepare(spec, 0, ignored -> {
            throw new AssertionError("a topic-mode job loads no data set");
        });
        return new StreamCompute(
                job, settings, TopicSpec.parse(spec.getDataset()), feed, stopped::get, () -> stopped.set(true));
    }

    private static JobSpec spec(final int workers) {
        final Model model = Models.create("softmax", INPUTS, 2);
        return JobSpecs.forModel(model, 1)
                .setJob("stream")
                .setDataset("topic:t,features=x,label=y")
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.1)
                .setMomentum(0)
                .setGlobalBatch(4)
                .setExpectedWorkers(workers)
                .setEpochs(1)
                .setSeed(1)
                .setCreatedAt(Instant.now())
                .build();
    }

    private static ModelView view(final JobSpec spec) {
        final ModelView view = new ModelView(spec.getJob(), 1);
        view.offer(ModelShard.newBuilder()
                .setJob(spec.getJob())
                .setShard(0)
                .setShards(1)
                .setFirstParameter(0)
                .setVersion(0)
                .setMinClock(0)
                .setValues(FloatPacking.pack(new float[spec.getParameters()]))
                .setUpdatedAt(Instant.now())
                .build());
        return view;
    }

    private static ClockInput.Example example(final int partition, final long offset, final float x0, final int y) {
        return new ClockInput.Example(partition, offset, 0, new float[] {x0, 0}, y);
    }

    /** The examples given, all there at once; over when none is left. */
    private static final class Feed implements ExampleFeed {
        private final Deque<ClockInput.Example> left;
        private long next;
        private long trained;

        Feed(final List<ClockInput.Example> examples) {
            this.left = new ArrayDeque<>(examples);
        }

        @Override
        public Resume resume() {
            return Resume.START;
        }

        @Override
        public ClockInput take(final int quota, final int lingerMs, final BooleanSupplier stopping) {
            final List<ClockInput.Example> taken = new ArrayList<>();
            while (taken.size() < quota && !left.isEmpty()) {
                taken.add(left.poll());
            }
            taken.forEach(e -> next = e.offset() + 1);
            trained += taken.size();
            return new ClockInput(taken, List.of(), ClockInput.ranges(taken, List.of()), 0, taken.isEmpty());
        }

        @Override
        public Map<TopicPartition, OffsetAndMetadata> offsets(final long nextClock) {
            return Map.of(
                    new TopicPartition("t", 0),
                    new OffsetAndMetadata(next, ResumeMetadata.format(new Resume(nextClock, trained))));
        }

        @Override
        public ConsumerGroupMetadata group() {
            return null;
        }

        @Override
        public void close() {}
    }
}
