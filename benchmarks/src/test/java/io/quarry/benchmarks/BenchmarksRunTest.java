package io.quarry.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Runs each benchmark body once, so a change that breaks a benchmark fails the build, not the next
 * run.
 */
class BenchmarksRunTest {

  @Test
  void segmenterBenchmarkRuns() throws Exception {
    SegmenterBenchmark benchmark = new SegmenterBenchmark();
    benchmark.load();
    Blackhole blackhole =
        new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    benchmark.termsOfThousandLines(blackhole);
  }

  @Test
  void ingestBenchmarkStagesRun() throws Exception {
    IngestBenchmark benchmark = new IngestBenchmark();
    benchmark.load();
    Blackhole blackhole =
        new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    assertThat(benchmark.breakLines()).hasSize(IngestBenchmark.EVENTS);
    benchmark.timestampExplicit(blackhole);
    benchmark.timestampAutomatic(blackhole);
    benchmark.indexExtractionRegex(blackhole);
    assertThat(benchmark.tokenise()).isPositive();
    benchmark.openStore();
    try {
      benchmark.storeWrite();
    } finally {
      benchmark.closeStore();
    }
  }

  @Test
  void parserBenchmarkRunsEveryQuery() throws Exception {
    ParserBenchmark benchmark = new ParserBenchmark();
    for (String query :
        ParserBenchmark.class
            .getField("query")
            .getAnnotation(org.openjdk.jmh.annotations.Param.class)
            .value()) {
      benchmark.query = query;
      assertThat(benchmark.parseAndPlan()).isNotNull();
    }
  }

  @Test
  void journalBenchmarkDecodesEveryEventInEveryMode() throws Exception {
    for (String mode : new String[] {"ZSTD", "LZ4", "NONE"}) {
      JournalBenchmark benchmark = new JournalBenchmark();
      benchmark.compression = mode;
      benchmark.write();
      try {
        assertThat(benchmark.decodeEveryBlock())
            .as(mode)
            .isGreaterThan(JournalBenchmark.EVENTS * 100L);
      } finally {
        benchmark.close();
      }
    }
  }

  @Test
  void metricChunkBenchmarkEncodesAndDecodesEveryPoint() throws Exception {
    for (String shape : new String[] {"counter", "gauge"}) {
      MetricChunkBenchmark benchmark = new MetricChunkBenchmark();
      benchmark.shape = shape;
      benchmark.setUp();
      Blackhole blackhole =
          new Blackhole(
              "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
      assertThat(benchmark.encode()).as(shape).isPositive();
      assertThat(benchmark.decode(blackhole)).as(shape).isEqualTo(MetricChunkBenchmark.POINTS);
    }
  }

  @Test
  void blockIndexBenchmarkWritesEveryLayout() throws Exception {
    for (String layout : new String[] {"event", "store", "block"}) {
      BlockIndexBenchmark benchmark = new BlockIndexBenchmark();
      benchmark.layout = layout;
      benchmark.terms = "set";
      benchmark.blockSize = 256;
      benchmark.events = 3_000;
      benchmark.generate();
      benchmark.open();
      try {
        benchmark.write();
        assertThat(benchmark.storageReport()).as(layout).contains("bytes on disk per raw byte");
        if (layout.equals("block")) {
          // batches of 2,000 and 1,000 events: 8 + 4 blocks of at most 256
          try (org.apache.lucene.store.Directory index =
                  org.apache.lucene.store.FSDirectory.open(benchmark.directory.resolve("index"));
              org.apache.lucene.index.DirectoryReader reader =
                  org.apache.lucene.index.DirectoryReader.open(index)) {
            assertThat(reader.numDocs()).isEqualTo(12);
          }
        }
      } finally {
        org.apache.lucene.util.IOUtils.rm(benchmark.directory);
      }
    }
  }

  @Test
  void journalBenchmarkWritesASegment() throws Exception {
    JournalBenchmark benchmark = new JournalBenchmark();
    benchmark.compression = "ZSTD";
    benchmark.write();
    try {
      assertThat(benchmark.writeSegment().listAll()).isNotEmpty();
    } finally {
      benchmark.close();
    }
  }

  @Test
  void wireBenchmarkEncodesEveryFormat() throws Exception {
    java.util.Map<String, Long> sizes = new java.util.HashMap<>();
    for (String format : new String[] {"JSON", "NDJSON", "CSV", "ARROW", "ARROW_ZSTD"}) {
      WireBenchmark benchmark = new WireBenchmark();
      benchmark.rows = 5000;
      benchmark.format = format;
      benchmark.build();
      sizes.put(format, benchmark.encode());
    }
    assertThat(sizes.get("CSV")).isGreaterThan(5000L * 50);
    assertThat(sizes.get("NDJSON")).isGreaterThan(sizes.get("JSON"));
    assertThat(sizes.get("ARROW_ZSTD")).isLessThan(sizes.get("ARROW"));
  }

  @Test
  void pluginBenchmarkRunsBothCommands() {
    for (String command : java.util.List.of(PluginBenchmark.EVAL, PluginBenchmark.URLPARSE)) {
      PluginBenchmark benchmark = new PluginBenchmark();
      benchmark.command = command;
      benchmark.useRows(3000);
      assertThat(benchmark.pageChain()).as(command).isEqualTo(3000);
      assertThat(benchmark.urlparseOnPages()).isEqualTo(3000);
    }
  }

  @Test
  void evalBenchmarkRunsEveryCommand() throws Exception {
    for (String command :
        EvalBenchmark.class
            .getField("command")
            .getAnnotation(org.openjdk.jmh.annotations.Param.class)
            .value()) {
      for (String columns : java.util.List.of("longs", "texts")) {
        EvalBenchmark benchmark = new EvalBenchmark();
        benchmark.command = command;
        benchmark.columns = columns;
        benchmark.useRows(3000);
        long kept = benchmark.compiled();
        assertThat(kept).as(command).isLessThanOrEqualTo(3000).isPositive();
        if (command.startsWith("eval")) {
          assertThat(kept).as(command).isEqualTo(3000);
        }
      }
    }
  }

  @Test
  void operatorBenchmarkRunsEveryPipelineAndMapReduceAgrees() throws Exception {
    for (String pipeline :
        OperatorBenchmark.class
            .getField("pipeline")
            .getAnnotation(org.openjdk.jmh.annotations.Param.class)
            .value()) {
      OperatorBenchmark benchmark = new OperatorBenchmark();
      benchmark.pipeline = pipeline;
      benchmark.useRows(5000);
      assertThat(benchmark.pipeline()).as(pipeline).isPositive();
    }
    OperatorBenchmark whole = new OperatorBenchmark();
    whole.pipeline = StatsMapReduceBenchmark.STATS;
    whole.useRows(5000);
    StatsMapReduceBenchmark split = new StatsMapReduceBenchmark();
    split.useRows(5000);
    assertThat(split.statsMapReduce()).isEqualTo(whole.pipeline()).isGreaterThan(1000);
  }

  @Test
  void pageAggregationBenchmarkFindsEveryGroup() {
    PageAggregationBenchmark benchmark = new PageAggregationBenchmark();
    benchmark.groups = 500;
    java.util.Map<String, Integer> groups =
        java.util.Map.of("JSESSIONID", 500, "JSESSIONID,host", 500, "method,status", 4 * 8);
    for (String stats : List.of("range", "minmax")) {
      benchmark.stats = stats;
      groups.forEach(
          (by, expected) -> {
            benchmark.by = by;
            benchmark.useRows(20_000);
            assertThat(benchmark.aggregate()).as(stats + " by " + by).isEqualTo(expected);
          });
    }
  }

  @Test
  void chartTopBenchmarkAnswersEveryCommand() {
    ChartTopBenchmark benchmark = new ChartTopBenchmark();
    // 20,000 rows a minute apart every 64 rows from 00:01 to 05:13: six hours; three methods
    // (GET, POST, HEAD); top's default limit of ten clients
    java.util.Map<String, Integer> rows =
        java.util.Map.of(
            "timechart span=1h avg(bytes) by status", 6,
            "chart count over method by status", 3,
            "top clientip", 10);
    rows.forEach(
        (command, expected) -> {
          benchmark.command = command;
          benchmark.useRows(20_000);
          assertThat(benchmark.pages()).as(command).isEqualTo(expected);
        });
  }
}
