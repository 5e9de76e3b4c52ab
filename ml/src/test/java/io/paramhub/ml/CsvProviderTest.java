package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests the {@code csv:} data sets: parsing, labels, standardisation, the test set, and each bad input. */
class CsvProviderTest {

    @TempDir
    Path dir;

    private Path csv(final String name, final String... lines) throws IOException {
        final Path file = dir.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void shouldMapStringLabelsToClassesInSortedOrderWhenLabelIsNamed() throws IOException {
        // given
        final Path train = csv("t.csv", "x,species,y", "1,versicolor,2", "2,setosa,3", "3,virginica,4", "4,setosa,5");
        final Path test = csv("s.csv", "x,species,y", "5,virginica,6");

        // when
        final TrainTest data = DataSources.load("csv:" + train + ",label=species,test=" + test + ",standardize=false");

        // then
        assertThat(data.preprocessing().classLabels()).containsExactly("setosa", "versicolor", "virginica");
        assertThat(data.train().classes()).isEqualTo(3);
        assertThat(data.train().features()).isEqualTo(2);
        assertThat(data.train().x()).containsExactly(1, 2, 2, 3, 3, 4, 4, 5);
        assertThat(data.train().y()).containsExactly(1, 0, 2, 0);
        assertThat(data.test().y()).containsExactly(2);
        assertThat(data.train().name()).isEqualTo("t-train");
    }

    @Test
    void shouldSortWholeNumberLabelsByValueWhenEveryLabelIsOne() throws IOException {
        // given: 10 after 9, and 1.0 the same class as 1
        final Path train = csv("n.csv", "a,target", "0.5,10", "0.1,9", "0.2,1", "0.3,1.0");

        // when
        final TrainTest data = DataSources.load("csv:" + train + ",holdout=0.25,seed=3");

        // then
        assertThat(data.preprocessing().classLabels()).containsExactly("1", "9", "10");
        assertThat(data.train().size() + data.test().size()).isEqualTo(4);
    }

    @Test
    void shouldStandardiseWithTheTrainingSetsStatisticsAndCentreAConstantColumn() throws IOException {
        // given: column a has mean 2 and spread sqrt(2/3); column b is constant
        final Path train = csv("t.csv", "a,b,label", "1,7,x", "2,7,y", "3,7,x");
        final Path test = csv("s.csv", "a,b,label", "5,8,y");

        // when
        final TrainTest data = DataSources.load("csv:" + train + ",test=" + test);

        // then
        final Preprocessing preprocessing = data.preprocessing();
        assertThat(preprocessing.mean()).containsExactly(2, 7);
        assertThat(preprocessing.scale()[0]).isCloseTo(Math.sqrt(2.0 / 3), within(1e-15));
        assertThat(preprocessing.scale()[1]).isEqualTo(1);
        final float unit = (float) (1 / Math.sqrt(2.0 / 3));
        assertThat(data.train().x()).containsExactly(-unit, 0, 0, 0, unit, 0);
        assertThat(data.test().x()).containsExactly((float) (3 / Math.sqrt(2.0 / 3)), 1);
    }

    @Test
    void shouldHoldOutTheSameRowsEveryTimeWhenTheSeedIsTheSame() throws IOException {
        // given: 20 rows whose feature is their row number
        final StringBuilder rows = new StringBuilder("i,label");
        for (int i = 0; i < 20; i++) {
            rows.append('\n').append(i).append(',').append(i % 2);
        }
        final Path file = csv("rows.csv", rows.toString());
        final String spec = "csv:" + file + ",holdout=0.2,seed=0,standardize=false";

        // when
        final TrainTest once = DataSources.load(spec);
        final TrainTest again = DataSources.load(spec);
        final TrainTest other = DataSources.load(spec.replace("seed=0", "seed=1"));

        // then: HoldoutTest's reference rows, in file order
        assertThat(once.test().x()).containsExactly(5, 15, 18, 19);
        assertThat(again.test().x()).containsExactly(once.test().x());
        assertThat(again.train().x()).containsExactly(once.train().x());
        assertThat(once.train().size()).isEqualTo(16);
        assertThat(other.test().x()).isNotEqualTo(once.test().x());
    }

    @Test
    void shouldReadTheFormatTheOptionsGiveWhenThereIsNoHeader() throws IOException {
        // given: semicolons, a quoted cell, the label first, a numeric target
        final Path file = csv("r.csv", "0.5;\"1\";2", "1.5;3;4", "2.5;5;6");

        // when
        final TrainTest data = DataSources.load("csv:" + file
                + ",header=false,sep=;,label=0,task=regression,holdout=0.34,seed=1," + "standardize=false");

        // then
        assertThat(data.train().classes()).isZero();
        assertThat(data.train().features()).isEqualTo(2);
        assertThat(data.train().size() + data.test().size()).isEqualTo(3);
        assertThat(data.preprocessing().classLabels()).isEmpty();
    }

    @Test
    void shouldNameFileLineAndColumnWhenARowIsRagged() throws IOException {
        // given
        final Path file = csv("bad.csv", "a,b,label", "1,2,x", "3,y", "5,6,x");

        // when / then
        assertThatThrownBy(() -> DataSources.load("csv:" + file))
                .isInstanceOf(DataFileException.class)
                .hasMessage(file + ":3:3: ragged row: 2 cells, expected 3");
    }

    @Test
    void shouldNameFileLineAndColumnWhenACellIsNotANumber() throws IOException {
        // given
        final Path file = csv("bad.csv", "a,b,label", "1,2,x", "3,4,y", "5,six,x");

        // when / then
        assertThatThrownBy(() -> DataSources.load("csv:" + file))
                .isInstanceOf(DataFileException.class)
                .hasMessage(file + ":4:2: non-numeric cell 'six' in column 'b'");
        final Path nan = csv("nan.csv", "a,label", "NaN,x", "1,y");
        assertThatThrownBy(() -> DataSources.load("csv:" + nan))
                .hasMessage(nan + ":2:1: cell 'NaN' is not a finite " + "number in column 'a'");
    }

    @Test
    void shouldNameTheColumnsWhenTheLabelColumnIsMissing() throws IOException {
        // given
        final Path file = csv("bad.csv", "a,b,label", "1,2,x", "3,4,y");

        // when / then
        assertThatThrownBy(() -> DataSources.load("csv:" + file + ",label=target"))
                .isInstanceOf(DataFileException.class)
                .hasMessage(file + ":1: no label column 'target' among the 3 columns [a, b, label]");
    }

    @Test
    void shouldSayTheFileIsEmptyOrUnreadableWhenItIs() throws IOException {
        // given
        final Path empty = Files.createFile(dir.resolve("empty.csv"));
        final Path headerOnly = csv("header.csv", "a,label");
        final Path missing = dir.resolve("missing.csv");

        // when / then
        assertThatThrownBy(() -> DataSources.load("csv:" + empty)).hasMessage(empty + ":1:1: empty file");
        assertThatThrownBy(() -> DataSources.load("csv:" + headerOnly))
                .hasMessage(headerOnly + ":2:1: no data rows after the header");
        assertThatThrownBy(() -> DataSources.load("csv:" + missing))
                .isInstanceOf(DataFileException.class)
                .hasMessage(missing + ": cannot be read: no such file");
        assertThatThrownBy(() -> DataSources.load("csv:" + dir)).hasMessageStartingWith(dir + ": cannot be read");
    }

    @Test
    void shouldNameTheTestFilesLineWhenItsLabelIsNotATrainingClass() throws IOException {
        // given
        final Path train = csv("t.csv", "a,label", "1,cat", "2,dog");
        final Path test = csv("s.csv", "a,label", "1,dog", "2,bird");

        // when / then
        assertThatThrownBy(() -> DataSources.load("csv:" + train + ",test=" + test))
                .isInstanceOf(DataFileException.class)
                .hasMessage(test + ":3:2: label 'bird' is not one of the training set's classes [cat, dog]");
    }

    @Test
    void shouldRefuseNumericTargetsAndTestFilesOfOtherColumnsWhenClassifying() throws IOException {
        // given
        final Path train = csv("t.csv", "a,label", "1,0.5", "2,1");
        final Path classes = csv("c.csv", "a,label", "1,0", "2,1");
        final Path other = csv("o.csv", "b,label", "1,0");

        // when / then
        assertThatThrownBy(() -> DataSources.load("csv:" + train + ",test=" + classes))
                .hasMessage(train + ":2:2: label '0.5' is a number but not a whole one: for a numeric target give "
                        + "task=regression");
        assertThatThrownBy(() -> DataSources.load("csv:" + classes + ",test=" + other))
                .hasMessage(other + ":1:1: column 'b' where the training file has 'a'");
    }

    @Test
    void shouldRefuseMalformedSpecsWithoutReadingAFile() {
        // when / then
        assertThatThrownBy(() -> DataSources.files("csv:a.csv,holdout=1.5"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holdout must lie between 0 and 1");
        assertThatThrownBy(() -> DataSources.files("csv:a.csv,test=b.csv,holdout=0.2"))
                .hasMessageContaining("give test= or holdout=, not both");
        assertThatThrownBy(() -> DataSources.files("csv:a.csv,sep=ab")).hasMessageContaining("sep must be one");
        assertThatThrownBy(() -> DataSources.files("csv:a.csv,b.csv")).hasMessageContaining("expected one file");
        assertThat(DataSources.files("csv:/d/a.csv,test=/d/b.csv,label=y")).containsExactly("/d/a.csv", "/d/b.csv");
    }
}
