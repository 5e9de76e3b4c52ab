package io.paramhub.ml;

import java.util.List;
import java.util.Set;

/**
 * The {@code topic:} kind of data spec ({@link TopicSpec}): checks its form like any provider, so that the
 * aggregator's checks of a job accept it; it is never loaded into memory: the workers of the job stream it.
 */
final class TopicProvider implements DatasetProvider {

    @Override
    public Set<String> kinds() {
        return Set.of(TopicSpec.KIND);
    }

    @Override
    public List<String> forms() {
        return List.of("topic:<name>,features=<field>|<field>+<field>+...[,label=<field>][,labels=<a>|<b>|...]"
                + "[,task=classification|regression][,max-examples=<n>][,ends=<offset>|<offset>|...][,window=<n>]"
                + "[,linger-ms=<n>]");
    }

    @Override
    public boolean readsFiles() {
        return false;
    }

    @Override
    public void check(final DataSpec spec) {
        TopicSpec.of(spec);
    }

    @Override
    public TrainTest load(final DataSpec spec) {
        throw new IllegalArgumentException("data spec '" + spec + "' is a topic: its examples stream to the workers "
                + "of a job, they are not loaded as a whole");
    }
}
