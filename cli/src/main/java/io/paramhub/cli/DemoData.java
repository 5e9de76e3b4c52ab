package io.paramhub.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.avro.JobSpec;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Preprocessing;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.jobs.DatasetChecks;
import io.paramhub.topology.jobs.JobSpecs;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The data set of {@code paramhub demo}: the spec with its relative paths made absolute (as the job carries it),
 * the data loaded through {@link DataSources}, and the files named on the command line, which the apps running
 * in this JVM may then read ({@link DatasetChecks#ROOTS_PROPERTY}) for as long as the demo runs.
 */
final class DemoData {

    private static final int LABELS_SHOWN = 10;

    private final String spec;
    private final TrainTest data;
    private final List<String> files;

    private DemoData(final String spec, final TrainTest data, final List<String> files) {
        this.spec = spec;
        this.data = data;
        this.files = files;
    }

    /** Puts back the data roots as they were before {@link #allowFiles()}. */
    interface Allowance extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * The data {@code given} names (null: {@code linear} for the linear model, else {@code fashion-mnist}), its
     * paths resolved against the working directory; says on {@code out} what the provider did to labels and
     * features, when it did anything ({@link #print}).
     */
    static DemoData load(final String given, final String model, final PrintStream out) {
        final String named = given != null ? given : "linear".equals(model) ? "linear" : DataSources.FASHION_MNIST;
        final String spec = DataSources.resolve(named, Path.of("").toAbsolutePath());
        final List<String> files = DataSources.files(spec);
        final DemoData data = new DemoData(spec, DataSources.load(spec), files);
        data.print(out);
        return data;
    }

    String spec() {
        return spec;
    }

    TrainTest data() {
        return data;
    }

    /**
     * {@code spec} if it is valid with this data set's files allowed, as {@link JobSpecs#requireValid} checks it,
     * and its batch fits in the training set.
     *
     * @throws IllegalArgumentException listing its problems
     */
    JobSpec requireValid(final JobSpec spec) {
        final List<Path> roots = new ArrayList<>(DatasetChecks.defaultRoots());
        files.forEach(file -> roots.add(Path.of(file)));
        final List<String> problems = new ArrayList<>(JobSpecs.problems(spec, roots));
        if (spec.getGlobalBatch() > data.train().size()) {
            problems.add("--batch " + spec.getGlobalBatch() + " is more than the "
                    + data.train().size() + " training samples");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid job " + spec.getJob() + ": " + String.join("; ", problems));
        }
        return spec;
    }

    /** Lets the apps in this JVM read this data set's files until the allowance is closed. */
    Allowance allowFiles() {
        final String before = System.getProperty(DatasetChecks.ROOTS_PROPERTY);
        if (!files.isEmpty()) {
            final String added = String.join(File.pathSeparator, files);
            System.setProperty(
                    DatasetChecks.ROOTS_PROPERTY, before == null ? added : before + File.pathSeparator + added);
        }
        return () -> {
            if (before == null) {
                System.clearProperty(DatasetChecks.ROOTS_PROPERTY);
            } else {
                System.setProperty(DatasetChecks.ROOTS_PROPERTY, before);
            }
        };
    }

    /** One line on what the provider did to the file's labels and features, when it did anything. */
    void print(final PrintStream out) {
        final Preprocessing preprocessing = data.preprocessing();
        if (preprocessing.classLabels().isEmpty() && !preprocessing.standardized()) {
            return;
        }
        final StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "data: %d training and %d test samples of %d features",
                data.train().size(),
                data.test().size(),
                data.train().features()));
        final List<String> labels = preprocessing.classLabels();
        if (!labels.isEmpty()) {
            line.append(", ").append(labels.size()).append(" classes in sorted order (");
            for (int i = 0; i < Math.min(labels.size(), LABELS_SHOWN); i++) {
                line.append(i == 0 ? "" : ", ")
                        .append(i)
                        .append(" = '")
                        .append(labels.get(i))
                        .append('\'');
            }
            line.append(labels.size() > LABELS_SHOWN ? ", ...)" : ")");
        }
        if (preprocessing.standardized()) {
            line.append("; features standardised with the training set's mean and spread");
        }
        out.println(line);
    }

    /** The report's {@code data} object: sizes, the class of each label, the standardisation. */
    void addTo(final ObjectNode report) {
        final ObjectNode node = report.putObject("data");
        node.put("spec", spec);
        node.put("train_samples", data.train().size());
        node.put("test_samples", data.test().size());
        node.put("features", data.train().features());
        node.put("classes", data.train().classes());
        final Preprocessing preprocessing = data.preprocessing();
        if (!preprocessing.classLabels().isEmpty()) {
            final ArrayNode labels = node.putArray("class_labels");
            preprocessing.classLabels().forEach(labels::add);
        }
        if (preprocessing.standardized()) {
            final ObjectNode standardization = node.putObject("standardization");
            final ArrayNode mean = standardization.putArray("mean");
            for (final double value : preprocessing.mean()) {
                mean.add(value);
            }
            final ArrayNode scale = standardization.putArray("scale");
            for (final double value : preprocessing.scale()) {
                scale.add(value);
            }
        }
    }
}
