package io.paramhub.ml;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Reads a CSV file (UTF-8, gzip'd when its name ends in {@code .gz}) into {@link RawRows}: an optional header,
 * then one row a line, every row as wide as the first, every cell but the label's a finite number. A cell may
 * be quoted ({@code "a,b"}, {@code ""} for a quote inside), but not over a line break. Any departure stops the
 * read with a {@link DataFileException} at its line and column (the cell's number in its row); nothing is skipped.
 */
final class CsvReader {

    /** How the file is written: its separator and whether line 1 names the columns. */
    record Format(char separator, boolean header) {}

    /** The columns: their names (from the header, or {@code 1, 2, ...}) and which one is the label. */
    record Columns(List<String> names, int label) {}

    /** What was read: the columns and the rows. */
    record Table(Columns columns, RawRows rows) {}

    private final Path file;
    private final Format format;

    CsvReader(final Path file, final Format format) {
        this.file = file;
        this.format = format;
    }

    /**
     * Reads the file, with the label in column {@code label} (a name from the header, or a 0-based index,
     * negative from the end); with {@code expected} not null, the columns must be those (a test file's must be
     * the training file's).
     */
    Table read(final String label, final Columns expected) {
        try (BufferedReader in = open()) {
            String line = in.readLine();
            if (line == null) {
                throw DataFileException.at(file, 1, 1, "empty file");
            }
            line = line.startsWith("\uFEFF") ? line.substring(1) : line;
            long number = 1;
            final List<String> first = cells(line, number);
            final List<String> names = format.header() ? first : numbered(first.size());
            if (names.size() < 2) {
                throw DataFileException.at(
                        file,
                        1,
                        1,
                        "a single column (separated by '" + format.separator()
                                + "'; sep= sets another): a data set needs a label and at least one feature");
            }
            final Columns columns = expected != null ? expected : new Columns(names, labelColumn(names, label));
            if (expected != null && format.header()) {
                requireHeader(first, expected.names());
            }
            final RawRows rows = new RawRows(file, columns.names().size() - 1, at -> at + ":" + (columns.label() + 1));
            final double[] values = new double[columns.names().size() - 1];
            if (!format.header()) {
                addRow(rows, values, first, columns, number);
            }
            while ((line = in.readLine()) != null) {
                number++;
                addRow(rows, values, cells(line, number), columns, number);
            }
            if (rows.size() == 0) {
                throw DataFileException.at(file, number + 1, 1, "no data rows after the header");
            }
            return new Table(columns, rows);
        } catch (final CharacterCodingException e) {
            throw new DataFileException(file, "", "is not UTF-8 text", e);
        } catch (final IOException e) {
            throw DataFileException.of(file, e);
        }
    }

    private BufferedReader open() throws IOException {
        final InputStream raw = Files.newInputStream(file);
        try {
            final InputStream in = file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()));
        } catch (final IOException e) {
            raw.close();
            throw e;
        }
    }

    private int labelColumn(final List<String> names, final String label) {
        if (label == null) {
            return names.size() - 1;
        }
        final int named = names.indexOf(label);
        if (named >= 0) {
            return named;
        }
        try {
            final int index = Integer.parseInt(label);
            final int resolved = index < 0 ? names.size() + index : index;
            if (resolved >= 0 && resolved < names.size()) {
                return resolved;
            }
        } catch (final NumberFormatException e) {
            // not an index: a name the header lacks
        }
        throw new DataFileException(
                file,
                "1",
                "no label column '" + label + "' among the " + names.size() + " columns "
                        + (format.header() ? names : "(0-based indices, negative from the end)"));
    }

    private void requireHeader(final List<String> header, final List<String> expected) {
        for (int j = 0; j < Math.max(header.size(), expected.size()); j++) {
            final String found = j < header.size() ? header.get(j) : "(none)";
            final String wanted = j < expected.size() ? expected.get(j) : "(none)";
            if (!found.equals(wanted)) {
                throw DataFileException.at(
                        file, 1, j + 1, "column '" + found + "' where the training file has '" + wanted + "'");
            }
        }
    }

    private void addRow(
            final RawRows rows,
            final double[] values,
            final List<String> cells,
            final Columns columns,
            final long line) {
        final int width = columns.names().size();
        if (cells.size() != width) {
            throw DataFileException.at(
                    file,
                    line,
                    Math.min(cells.size(), width) + 1,
                    "ragged row: " + cells.size() + " cells, expected " + width
                            + (cells.size() == 1 && cells.get(0).isBlank() ? " (an empty line)" : ""));
        }
        int at = 0;
        for (int j = 0; j < width; j++) {
            if (j != columns.label()) {
                values[at++] = number(cells.get(j), line, j, columns);
            }
        }
        rows.add(values, 0, cells.get(columns.label()), line);
    }

    private double number(final String cell, final long line, final int column, final Columns columns) {
        final String text = cell.trim();
        final String where = format.header() ? " in column '" + columns.names().get(column) + "'" : "";
        if (text.isEmpty()) {
            throw DataFileException.at(file, line, column + 1, "empty cell" + where);
        }
        final double value;
        try {
            value = Double.parseDouble(text);
        } catch (final NumberFormatException e) {
            throw DataFileException.at(file, line, column + 1, "non-numeric cell '" + text + "'" + where);
        }
        if (!Double.isFinite(value)) {
            throw DataFileException.at(file, line, column + 1, "cell '" + text + "' is not a finite number" + where);
        }
        return value;
    }

    /** The cells of one line, quotes removed. */
    List<String> cells(final String line, final long number) {
        final List<String> cells = new ArrayList<>();
        final StringBuilder cell = new StringBuilder();
        int i = 0;
        while (true) {
            if (i < line.length() && line.charAt(i) == '"') {
                i = quoted(line, i + 1, cell, number, cells.size() + 1);
                if (i < line.length() && line.charAt(i) != format.separator()) {
                    throw DataFileException.at(file, number, cells.size() + 1, "text after a closing quote");
                }
            } else {
                while (i < line.length() && line.charAt(i) != format.separator()) {
                    cell.append(line.charAt(i++));
                }
            }
            cells.add(cell.toString());
            cell.setLength(0);
            if (i >= line.length()) {
                return cells;
            }
            i++;
        }
    }

    /** Appends the quoted cell that starts at {@code from} (after its quote); the index after its closing quote. */
    private int quoted(
            final String line, final int from, final StringBuilder cell, final long number, final int column) {
        int i = from;
        while (i < line.length()) {
            final char c = line.charAt(i);
            if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                cell.append('"');
                i += 2;
            } else if (c == '"') {
                return i + 1;
            } else {
                cell.append(c);
                i++;
            }
        }
        throw DataFileException.at(file, number, column, "unterminated quote (a cell cannot span lines)");
    }

    private static List<String> numbered(final int count) {
        final List<String> names = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            names.add(Integer.toString(j));
        }
        return names;
    }
}
