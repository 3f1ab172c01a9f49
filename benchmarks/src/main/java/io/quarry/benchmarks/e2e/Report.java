package io.quarry.benchmarks.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * What a run reports: the console table of the queries (each engine's median and p95, the ratios,
 * whether the answers agree), the JSON report ({@code results-<millis>.json} and {@code
 * latest.json} in the work directory), and what identifies the run (commit, machine).
 */
final class Report {
  private final long events;
  private final int runs;
  private final int warmup;
  private final PrintStream out = System.out;

  /** The report of a run over {@code events} lines, {@code runs} measured after {@code warmup}. */
  Report(long events, int runs, int warmup) {
    this.events = events;
    this.runs = runs;
    this.warmup = warmup;
  }

  /** Writes {@code report} as JSON into {@code workDir}, also as {@code latest.json}. */
  void writeJson(Path workDir, Map<String, Object> report) throws IOException {
    Path json = workDir.resolve("results-" + Instant.now().toEpochMilli() + ".json");
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    mapper.writeValue(json.toFile(), report);
    Files.copy(json, workDir.resolve("latest.json"), StandardCopyOption.REPLACE_EXISTING);
    out.println("JSON: " + json);
  }

  @SuppressWarnings("unchecked")
  void printTable(Map<String, Map<String, Object>> results, Map<String, Object> report) {
    boolean victoria =
        results.values().stream().anyMatch(entry -> entry.containsKey("victorialogs"));
    out.println();
    out.printf(
        "## %,d events (%s, commit %s), %d measured runs after %d warm-up%n%n",
        events, report.get("machine"), report.get("commit"), runs, warmup);
    out.println(
        "| query | Quarry median ms | Quarry p95 ms | DuckDB median ms | DuckDB p95 ms |"
            + " Quarry/DuckDB | rows Q/D | same answer |"
            + (victoria
                ? " VictoriaLogs median ms | Quarry/VictoriaLogs | same answer Q/V |"
                : ""));
    out.println("|---|---:|---:|---:|---:|---:|---|---|" + (victoria ? "---:|---:|---|" : ""));
    for (Map.Entry<String, Map<String, Object>> entry : results.entrySet()) {
      Map<String, Object> quarry = (Map<String, Object>) entry.getValue().get("quarry");
      Map<String, Object> duck = (Map<String, Object>) entry.getValue().get("duckdb");
      Map<String, Object> vl = (Map<String, Object>) entry.getValue().get("victorialogs");
      double q = (double) quarry.get("medianMs");
      String ratio = duck == null ? "–" : ratio(q / (double) duck.get("medianMs"));
      out.printf(
          Locale.ROOT,
          "| `%s` | %.1f | %.1f | %s | %s | %s | %s/%s | %s |%s%n",
          entry.getKey(),
          q,
          (double) quarry.get("p95Ms"),
          duck == null ? "–" : String.format(Locale.ROOT, "%.1f", (double) duck.get("medianMs")),
          duck == null ? "–" : String.format(Locale.ROOT, "%.1f", (double) duck.get("p95Ms")),
          ratio,
          quarry.get("rows"),
          duck == null ? "–" : duck.get("rows"),
          duck == null ? "–" : agreement(quarry, duck),
          !victoria
              ? ""
              : vl == null
                  ? " – | – | – |"
                  : String.format(
                      Locale.ROOT,
                      " %.1f | %s | %s |",
                      (double) vl.get("medianMs"),
                      ratio(q / (double) vl.get("medianMs")),
                      agreement(quarry, vl)));
    }
    out.println();
  }

  /** Quarry time over DuckDB time, with two significant digits below 10 (0.011×, 5.6×, 153×). */
  static String ratio(double ratio) {
    if (ratio >= 10) {
      return String.format(Locale.ROOT, "%.0f×", ratio);
    }
    return new java.math.BigDecimal(ratio)
            .round(new java.math.MathContext(2))
            .stripTrailingZeros()
            .toPlainString()
        + "×";
  }

  /**
   * Whether two engines gave the same answer, as far as the harness can tell: the same number of
   * rows and, where both have a {@code count} column, the same total.
   */
  static String agreement(Map<String, Object> quarry, Map<String, Object> duck) {
    boolean rows = quarry.get("rows").equals(duck.get("rows"));
    long quarrySum = (long) quarry.get("countSum");
    long duckSum = (long) duck.get("countSum");
    if (quarrySum < 0 || duckSum < 0) {
      return rows ? "rows" : "NO (rows)";
    }
    return rows && quarrySum == duckSum
        ? "rows, Σcount"
        : "NO (Σcount " + quarrySum + "/" + duckSum + ")";
  }

  /**
   * The checkout's commit (with {@code -dirty} when it has changes), so runs can be compared over
   * time; "unknown" outside a git checkout.
   */
  static String gitCommit() {
    try {
      Process git =
          new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
              .redirectErrorStream(true)
              .start();
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return git.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  static String machine(int cores) {
    return cores
        + " cores, "
        + Runtime.getRuntime().maxMemory() / (1 << 20)
        + " MiB harness heap, Java "
        + System.getProperty("java.version")
        + ", "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.arch");
  }
}
