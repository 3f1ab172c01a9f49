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
import io.quarry.ql.engine.DictionaryBlockBuilder;
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
import java.util.Map;
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
 * blocks; {@code columns=texts}: as string blocks, the way search-time extraction gives them;
 * {@code columns=dicts}: those texts and every other string column in dictionary form (a keyword
 * column read from a segment's ordinals). The function families by name: {@link #CASES}.
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

  /**
   * The function families users run most over logs, by a short name {@code -p command=} accepts
   * (JMH splits a {@code -p} value at commas, which these commands hold): text, conditionals,
   * numbers, time, multivalues, {@code cidrmatch}, digests. Not in the default {@code @Param} list:
   * run them by name.
   */
  static final Map<String, String> CASES =
      Map.ofEntries(
          Map.entry("substr", "eval x=substr(uri_path,1,8)"),
          Map.entry("replace", "eval x=replace(uri_path,\"/[0-9]+\",\"/N\")"),
          Map.entry("trim", "eval x=trim(method,\"GT\")"),
          Map.entry("split", "eval x=split(uri_path,\"/\")"),
          Map.entry("urldecode", "eval x=urldecode(uri)"),
          Map.entry("match", "where match(useragent,\"Mozilla\")"),
          Map.entry("like", "where like(uri_path,\"/api%\")"),
          Map.entry("case", "eval x=case(status>=500,\"5xx\",status>=400,\"4xx\",true(),\"ok\")"),
          Map.entry("coalesce", "eval x=coalesce(nothere,method)"),
          Map.entry("round", "eval x=round(bytes/1024,2)"),
          Map.entry("floor", "eval x=floor(bytes/1000)"),
          Map.entry("abs", "eval x=abs(bytes-5000)"),
          Map.entry("tonumber16", "eval x=tonumber(status,16)"),
          Map.entry("strftime", "eval x=strftime(_time,\"%Y-%m-%d %H:00\")"),
          Map.entry("relative_time", "eval x=relative_time(_time,\"-1d@d\")"),
          Map.entry("strptime", "eval x=strptime(method,\"%Y\")"),
          Map.entry("mvcount", "eval x=mvcount(split(uri_path,\"/\"))"),
          Map.entry("mvindex", "eval x=mvindex(split(uri_path,\"/\"),1)"),
          Map.entry("mvjoin", "eval x=mvjoin(split(uri_path,\"/\"),\"|\")"),
          Map.entry("mvfind", "eval x=mvfind(split(uri_path,\"/\"),\"^api\")"),
          Map.entry("cidrmatch", "where cidrmatch(\"10.0.0.0/8\",clientip)"),
          Map.entry("md5", "eval x=md5(clientip)"),
          Map.entry(
              "case_raw",
              "eval x=case(match(_raw,\"POST\"),\"post\",match(_raw,\"login\"),\"login\","
                  + "true(),\"other\")"));

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
    if (!columns.equals("longs")) {
      pages = pages.stream().map(EvalBenchmark::asTexts).toList();
    }
    if (columns.equals("dicts")) {
      pages = pages.stream().map(EvalBenchmark::asDictionaries).toList();
    }
    if (CASES.getOrDefault(command, command).contains("_raw")) {
      pages = pages.stream().map(EvalBenchmark::withRaw).toList();
    }
    Command parsed =
        new Parser(CommandRegistry.builtIns())
            .parse("* | " + CASES.getOrDefault(command, command))
            .commands()
            .get(1);
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

  /**
   * The page with every string column in dictionary form (one entry per distinct value of the
   * page), as a scan reads a keyword column from its segment's ordinals.
   */
  private static Page asDictionaries(Page page) {
    for (int c = 0; c < page.schema().size(); c++) {
      if (page.block(c) instanceof BytesBlock strings) {
        DictionaryBlockBuilder builder = new DictionaryBlockBuilder(page.positionCount());
        for (int p = 0; p < page.positionCount(); p++) {
          builder.append(strings.isNull(p) ? null : strings.getString(p));
        }
        page = page.withColumn(page.schema().column(c).name(), builder.build(0));
      }
    }
    return page;
  }

  /**
   * The page with a {@code _raw} of 1 KiB a row: the row's fields in an access-log line, padded (a
   * conditional's lazy part reads it at the positions it is taken).
   */
  private static Page withRaw(Page page) {
    BytesBlock.Builder raw = BytesBlock.builder(page.positionCount());
    for (int p = 0; p < page.positionCount(); p++) {
      StringBuilder line = new StringBuilder();
      for (String field : List.of("clientip", "method", "uri", "status", "bytes", "useragent")) {
        line.append(page.block(field).getObject(p)).append(' ');
      }
      while (line.length() < 1024) {
        line.append("padding ");
      }
      raw.append(line.substring(0, 1024));
    }
    return page.withColumn("_raw", raw.build());
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
