package io.quarry.benchmarks;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugins.urlparse.UrlParsePlugin;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.PagesSource;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a plugin command costs against a built-in doing the same work, over 200,000 access-log rows
 * (rows per second). {@code pageChain}: the search path — {@code urlparse field=uri params=false}
 * (the bundled plugin, its operator driven by the page engine) or the {@code eval} that splits
 * {@code uri} into path and query; {@code urlparseOnPages}: the plugin's operator alone over the
 * same typed pages (issue 21's gate: the search path within 15% of it).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PluginBenchmark {
  static final int ROWS = 200_000;

  static final String EVAL =
      "eval uri_path=mvindex(split(uri, \"?\"), 0), uri_query=mvindex(split(uri, \"?\"), 1)";
  static final String URLPARSE = "urlparse field=uri params=false";

  @Param({EVAL, URLPARSE})
  public String command;

  private List<Page> pages;
  private List<Command> commands;
  private PluginCommand urlparse;
  private final Evaluator evaluator =
      new Evaluator(Instant.parse("2026-01-08T00:00:00Z"), ZoneOffset.UTC);

  @Setup(Level.Trial)
  public void load() {
    useRows(ROWS);
  }

  void useRows(int count) {
    pages = AccessRows.pages(count);
    Parser parser =
        new Parser(
            CommandRegistry.builtIns().withPlugin("urlparse", new UrlParsePlugin().commands()));
    List<Command> parsed = parser.parse("* | " + command).commands();
    commands = parsed.subList(1, parsed.size());
    urlparse = (PluginCommand) parser.parse("* | " + URLPARSE).commands().get(1);
  }

  /**
   * The command through the page engine's map side ({@link PageChain}: a plugin's operator driven
   * directly, {@code eval} over a page position view): pages in, pages out, no rows.
   */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long pageChain() {
    long[] positions = {0};
    PageChain chain =
        PageChain.pulling(
            PagesSource.of(pages.iterator()),
            commands,
            evaluator,
            page -> positions[0] += page.positionCount(),
            new StageStats(commands.stream().map(Command::name).toList()),
            0);
    try {
      chain.run();
    } finally {
      chain.close();
    }
    return positions[0];
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long urlparseOnPages() {
    long positions = 0;
    try (Operator operator = urlparse.bound().createOperator(evaluator.pluginContext())) {
      for (Page page : pages) {
        operator.addInput(page);
        positions += operator.getOutput().positionCount(); // unbounded account: no releases
      }
    }
    return positions;
  }
}
