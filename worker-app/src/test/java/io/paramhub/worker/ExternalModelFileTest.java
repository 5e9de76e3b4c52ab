package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.TensorShape;
import io.paramhub.launcher.SettingException;
import io.paramhub.schemas.FloatPacking;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExternalModelFileTest {

    private static final String TENSORS =
            "\"tensors\": [{\"name\": \"fc.weight\", \"shape\": [2, 1]}, {\"name\": \"fc.bias\", \"shape\": [1]}]";

    @TempDir
    Path dir;

    @Test
    void shouldReadInlineVersionZeroWhenGivenAsList() throws IOException {
        // given
        final Path file = write(
                "m.json",
                "{\"format\": \"paramhub-external-model/1\", " + TENSORS + ", \"initialParameters\": [0.5, -1, 2.25]}");

        // when
        final ExternalModelFile.ExternalModel model = ExternalModelFile.read(file);

        // then
        assertThat(model.tensors())
                .containsExactly(new TensorShape("fc.weight", List.of(2, 1)), new TensorShape("fc.bias", List.of(1)));
        assertThat(model.parameters()).isEqualTo(3);
        assertThat(FloatPacking.unpack(model.initialParameters())).containsExactly(0.5f, -1f, 2.25f);
    }

    @Test
    void shouldReadRawFloat32FileBesideJsonWhenNamed() throws IOException {
        // given: the file a Python worker's TorchModel.export writes
        final ByteBuffer raw = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        raw.putFloat(1f).putFloat(2f).putFloat(-3f);
        Files.write(dir.resolve("m.f32"), raw.array());
        final Path file = write(
                "m.json",
                "{\"format\": \"paramhub-external-model/1\", " + TENSORS + ", \"initialParametersFile\": \"m.f32\"}");

        // when
        final ExternalModelFile.ExternalModel model = ExternalModelFile.read(file);

        // then
        assertThat(FloatPacking.unpack(model.initialParameters())).containsExactly(1f, 2f, -3f);
    }

    @Test
    void shouldNameFileAndProblemWhenMalformed() throws IOException {
        final Path noFormat = write("a.json", "{" + TENSORS + ", \"initialParameters\": [1, 2, 3]}");
        final Path both = write(
                "b.json",
                "{\"format\": \"paramhub-external-model/1\", " + TENSORS
                        + ", \"initialParameters\": [1], \"initialParametersFile\": \"x.f32\"}");
        final Path missing = write(
                "c.json",
                "{\"format\": \"paramhub-external-model/1\", " + TENSORS
                        + ", \"initialParametersFile\": \"absent.f32\"}");
        final Path notJson = write("d.json", "tensors: [");

        assertThatThrownBy(() -> ExternalModelFile.read(noFormat))
                .isInstanceOf(SettingException.class)
                .hasMessageContaining("a.json has format null, not paramhub-external-model/1");
        assertThatThrownBy(() -> ExternalModelFile.read(both))
                .hasMessageContaining("needs exactly one of initialParameters and initialParametersFile");
        assertThatThrownBy(() -> ExternalModelFile.read(missing))
                .hasMessageContaining("absent.f32, which cannot be read");
        assertThatThrownBy(() -> ExternalModelFile.read(notJson)).hasMessageContaining("d.json is not a JSON object");
        assertThatThrownBy(() -> ExternalModelFile.read(dir.resolve("none.json")))
                .hasMessageContaining("none.json cannot be read");
    }

    private Path write(final String name, final String content) throws IOException {
        final Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }
}
