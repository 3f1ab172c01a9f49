package io.quarry.benchmarks;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.WhereCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.eval.ExpressionCompiler;
import io.quarry.ql.eval.ExpressionEvaluator;
import io.quarry.ql.eval.Frame;
import io.quarry.ql.eval.Selection;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageEval;
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
 * {@code eval}/{@code where} on pages of 1,024 access-log rows (rows per second): {@code compiled},
 * the expression compiled once into evaluators over whole pages ({@code io.quarry.ql.eval}, what
 * {@code PageChain} runs), ending in a page ({@code where}: one filter of the kept positions;
 * {@code eval}: the assigned column added). The row-at-a-time walk it was measured against (the
 * {@code perPosition} arm until session 28) is gone; the last two commands were evaluated per
 * position through it until then (the right of an {@code AND} that may throw, {@code mvfilter}) —
 * compare with an older jar's {@code compiled} arm and {@code -p command=…} (no commas: JMH splits
 * a {@code -p} value at them). {@code columns=longs}: {@code status} and {@code bytes} as long
 * blocks; {@code columns=texts}: as string blocks, the way search-time extraction gives them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EvalBenchmark {
  static final int ROWS = 102_400;

  @Param({
    "where status>=500 AND bytes>1000",
    "eval kb=bytes/1024",
    "eval x=if(status>=400,\"err\",\"ok\")",
    "where status>=400 AND len(urldecode(uri_path))>8",
    "eval m=mvfilter(status>=400)"
  })
  public String command;

  @Param({"longs", "texts"})
  public String columns;

  private List<Page> pages;
  private final Evaluator evaluator =
      new Evaluator(Instant.parse("2026-01-08T00:00:00Z"), ZoneOffset.UTC);
  private ExpressionEvaluator compiledCondition;
  private PageEval.Compiled compiledEval;
  private int[] kept;

  @Setup(Level.Trial)
  public void load() {
    useRows(ROWS);
  }

  void useRows(int count) {
    pages = AccessRows.pages(count);
    if (columns.equals("texts")) {
      pages = pages.stream().map(EvalBenchmark::asTexts).toList();
    }
    Command parsed =
        new Parser(CommandRegistry.builtIns()).parse("* | " + command).commands().get(1);
    kept = new int[AccessRows.PAGE_SIZE];
    switch (parsed) {
      case WhereCommand where -> {
        compiledCondition = new ExpressionCompiler(evaluator).compile(where.condition());
      }
      case EvalCommand eval -> {
        compiledEval = new PageEval(evaluator).compile(eval.assignments());
      }
      default -> throw new IllegalArgumentException("not eval or where: " + command);
    }
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long compiled() {
    long positions = 0;
    for (Page page : pages) {
      Page out;
      if (compiledCondition != null) {
        int count = Selection.trues(compiledCondition.eval(new Frame(page)), kept);
        out = BlockCopies.filter(page, kept, count);
      } else {
        out = compiledEval.apply(page);
      }
      positions += out.positionCount();
    }
    return positions;
  }

  /** The page with {@code status} and {@code bytes} as text, as search-time extraction has them. */
  private static Page asTexts(Page page) {
    for (String field : List.of("status", "bytes")) {
      LongBlock longs = (LongBlock) page.block(field);
      BytesBlock.Builder texts = BytesBlock.builder(page.positionCount());
      for (int p = 0; p < page.positionCount(); p++) {
        if (longs.isNull(p)) {
          texts.appendNull();
        } else {
          texts.append(Long.toString(longs.getLong(p)));
        }
      }
      Block block = texts.build();
      page = page.withColumn(field, block);
    }
    return page;
  }
}
