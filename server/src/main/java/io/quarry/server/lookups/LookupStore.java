package io.quarry.server.lookups;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.exec.LookupTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The lookup tables of a server: {@code <dataDir>/lookups/<name>} CSV files (RFC 4180, a header row
 * naming the columns). Uploads are validated and replaced atomically; parsed tables are cached
 * until the file changes.
 */
public final class LookupStore implements LookupTable.Source, LookupTable.Writer {
  /** Names: letters, digits, {@code _ - .}, not starting with a dot. */
  private record Cached(FileTime modified, LookupTable table) {}

  private final Path directory;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  public LookupStore(Path directory) {
    this.directory = requireNonNull(directory, "directory is null");
  }

  /** Why a name is not allowed, or null when it is. */
  public static String invalidName(String name) {
    return LookupTable.invalidName(name);
  }

  /**
   * Stores a table, replacing one of the same name.
   *
   * @return the parsed table
   * @throws IllegalArgumentException naming the line that is not valid CSV or has the wrong number
   *     of cells
   */
  public LookupTable put(String name, byte[] csv) throws IOException {
    LookupTable table = parse(new String(csv, StandardCharsets.UTF_8));
    Files.createDirectories(directory);
    Path target = directory.resolve(name);
    Path temporary = directory.resolve("." + name + ".upload");
    Files.write(temporary, csv);
    try {
      Files.move(
          temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
    }
    cache.remove(name);
    return table;
  }

  /** {@code outputlookup}: stores a table computed by a search. */
  @Override
  public void write(String name, LookupTable table) {
    String problem = invalidName(name);
    if (problem != null) {
      throw new IllegalArgumentException("outputlookup '" + name + "': " + problem);
    }
    StringBuilder csv = new StringBuilder();
    Csv.line(csv, table.columns());
    for (List<String> row : table.rows()) {
      Csv.line(csv, row);
    }
    try {
      put(name, csv.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write lookup table " + name, e);
    }
  }

  public boolean delete(String name) throws IOException {
    cache.remove(name);
    return Files.deleteIfExists(directory.resolve(name));
  }

  /** The stored CSV, or null. */
  public byte[] bytes(String name) throws IOException {
    Path file = directory.resolve(name);
    return invalidName(name) == null && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
  }

  /** Every table: name to row count. */
  public Map<String, Integer> list() throws IOException {
    Map<String, Integer> all = new TreeMap<>();
    if (!Files.isDirectory(directory)) {
      return all;
    }
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (invalidName(name) == null && Files.isRegularFile(file)) {
          LookupTable table = table(name);
          all.put(name, table == null ? 0 : table.rows().size());
        }
      }
    }
    return all;
  }

  @Override
  public LookupTable table(String name) {
    if (invalidName(name) != null) {
      return null;
    }
    Path file = directory.resolve(name);
    try {
      if (!Files.isRegularFile(file)) {
        return null;
      }
      FileTime modified = Files.getLastModifiedTime(file);
      Cached cached = cache.get(name);
      if (cached != null && cached.modified().equals(modified)) {
        return cached.table();
      }
      LookupTable table = parse(Files.readString(file, StandardCharsets.UTF_8));
      cache.put(name, new Cached(modified, table));
      return table;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read lookup table " + name, e);
    }
  }

  /** Parses RFC 4180 CSV with a header; every row must have the header's number of cells. */
  static LookupTable parse(String csv) {
    List<List<String>> records = new ArrayList<>();
    List<String> record = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    boolean cellStarted = false;
    int line = 1;
    for (int i = 0; i < csv.length(); i++) {
      char c = csv.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          if (c == '\n') {
            line++;
          }
          cell.append(c);
        }
      } else if (c == '"' && !cellStarted) {
        quoted = true;
        cellStarted = true;
      } else if (c == ',') {
        record.add(cell.toString());
        cell.setLength(0);
        cellStarted = false;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < csv.length() && csv.charAt(i + 1) == '\n') {
          i++;
        }
        record.add(cell.toString());
        cell.setLength(0);
        cellStarted = false;
        endRecord(records, record, line);
        record = new ArrayList<>();
        line++;
      } else {
        cell.append(c);
        cellStarted = true;
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("line " + line + ": a quoted cell is not closed");
    }
    if (cellStarted || !record.isEmpty()) {
      record.add(cell.toString());
      endRecord(records, record, line);
    }
    if (records.isEmpty()) {
      throw new IllegalArgumentException("the CSV is empty: the first line must name the columns");
    }
    List<String> header = records.get(0);
    for (String column : header) {
      if (column.isBlank()) {
        throw new IllegalArgumentException("line 1: a column has no name");
      }
    }
    List<List<String>> rows = records.subList(1, records.size());
    for (int r = 0; r < rows.size(); r++) {
      if (rows.get(r).size() != header.size()) {
        throw new IllegalArgumentException(
            "row "
                + (r + 1)
                + " has "
                + rows.get(r).size()
                + " cells; the header has "
                + header.size());
      }
    }
    return new LookupTable(header, rows);
  }

  private static void endRecord(List<List<String>> records, List<String> record, int line) {
    if (record.size() == 1 && record.get(0).isEmpty()) {
      return; // a blank line
    }
    records.add(record);
  }
}
