package io.paramhub.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import org.junit.jupiter.api.Test;

class InMemorySchemaRegistryClientTest {

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();

    @Test
    void shouldGiveIdsFromOneWhenRegisteringNewSchemas() {
        // when
        final int first = registry.register("jobs-value", JobSpec.getClassSchema());
        final int second = registry.register("gradients-value", GradientShard.getClassSchema());

        // then
        assertThat(first).isEqualTo(1);
        assertThat(second).isEqualTo(2);
        assertThat(registry.schemaById(2)).isEqualTo(GradientShard.getClassSchema());
    }

    @Test
    void shouldKeepIdAndVersionsWhenSameSchemaIsRegisteredAgain() {
        // given
        final int id = registry.register("jobs-value", JobSpec.getClassSchema());

        // when
        final int again = registry.register("jobs-value", JobSpec.getClassSchema());
        final int elsewhere = registry.register("jobs-archive-value", JobSpec.getClassSchema());

        // then
        assertThat(again).isEqualTo(id);
        assertThat(elsewhere).isEqualTo(id);
        assertThat(registry.versions("jobs-value")).hasSize(1);
        assertThat(registry.lookupId("jobs-archive-value", JobSpec.getClassSchema()))
                .isEqualTo(id);
    }

    @Test
    void shouldThrowWhenLookingUpUnregisteredSchema() {
        // given
        registry.register("jobs-value", JobSpec.getClassSchema());

        // when / then
        assertThatThrownBy(() -> registry.lookupId("jobs-value", GradientShard.getClassSchema()))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND));
        assertThatThrownBy(() -> registry.lookupId("nope-value", JobSpec.getClassSchema()))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.SUBJECT_NOT_FOUND));
    }

    @Test
    void shouldThrowWhenIdIsUnknown() {
        // when / then
        assertThatThrownBy(() -> registry.schemaById(5))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("id 5");
    }
}
