package io.quarry.benchmarks.e2e;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The reference engine: DuckDB in this process (JDBC), on a database file of its own, with as many
 * threads as Quarry's search pool. The access log is loaded into one table {@code logs}: the line
 * and every field parsed into a typed column — DuckDB's equivalent of indexing.
 */
final class DuckDbEngine implements Closeable {
  /**
   * The {@code access_combined} regex with the groups the table keeps, as DuckDB's RE2 wants it.
   */
  static final String LINE =
      "^(\\S+) \\S+ \\S+ \\[([^\\]]+)\\] \"([A-Z]+) (([^\\s?\"]*)(?:\\?[^\\s\"]*)?)(?: [^\"]*)?\""
          + " (\\d{3}) (\\d+|-)(?: \"([^\"]*)\" \"([^\"]*)\")?";

  private final Path file;
  private final Connection connection;

  DuckDbEngine(Path file, int threads) throws SQLException, IOException {
    Files.deleteIfExists(file);
    Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".wal"));
    this.file = file;
    this.connection = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET threads TO " + threads);
      statement.execute("SET preserve_insertion_order = false");
    }
  }

  /** Loads the access log into {@code logs}; returns the rows loaded. */
  long load(Path accessLog) throws SQLException {
    String path = accessLog.toAbsolutePath().toString().replace("'", "''");
    String pattern = LINE.replace("'", "''");
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE logs AS SELECT line,"
              + " strptime(m.time, '%d/%b/%Y:%H:%M:%S %z')::TIMESTAMP AS ts, m.clientip, m.method,"
              + " m.uri, m.uripath, CAST(m.status AS INTEGER) AS status,"
              + " TRY_CAST(m.bytes AS INTEGER) AS bytes, m.referer, m.useragent,"
              + " NULLIF(regexp_extract(line, 'JSESSIONID=([^&\\s\"]+)', 1), '') AS jsessionid"
              + " FROM (SELECT line, regexp_extract(line, '"
              + pattern
              + "', ['clientip', 'time', 'method', 'uri', 'uripath', 'status', 'bytes',"
              + " 'referer', 'useragent']) AS m FROM read_csv('"
              + path
              + "', columns = {'line': 'VARCHAR'}, header = false, delim = '\\t', quote = '',"
              + " escape = '', auto_detect = false, parallel = true))");
      statement.execute("CHECKPOINT");
      try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM logs")) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  /** Runs a query and reads every row. */
  Answer run(String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      int columns = rows.getMetaData().getColumnCount();
      int countColumn = -1;
      for (int c = 1; c <= columns; c++) {
        if (rows.getMetaData().getColumnLabel(c).equals("count")) {
          countColumn = c;
        }
      }
      long count = 0;
      long countSum = 0;
      while (rows.next()) {
        for (int c = 1; c <= columns; c++) {
          rows.getObject(c);
        }
        if (countColumn > 0) {
          countSum += rows.getLong(countColumn);
        }
        count++;
      }
      return new Answer(count, countColumn > 0 ? countSum : -1);
    }
  }

  /** Bytes of the database file. */
  long storageBytes() throws IOException {
    return Files.size(file);
  }

  /** DuckDB's version string. */
  String version() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT version()")) {
      rows.next();
      return rows.getString(1);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IOException("closing DuckDB failed", e);
    }
  }
}
