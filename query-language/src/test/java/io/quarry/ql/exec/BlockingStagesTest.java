package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The commands that hold their whole input before they answer, on pages in a {@link PageReduce} —
 * {@code transaction} ({@link TransactionStage}), {@code bin bins=N} ({@link BinRangeStage}),
 * {@code fieldsummary} ({@link FieldSummaryStage}) and {@code outputlookup} ({@link
 * OutputLookupStage}, which holds the table it writes) — against their row operators ({@link
 * TransactionOperator}, {@link BinOperator}, {@link FieldSummaryOperator}, {@link
 * OutputLookupOperator}) over the same input: random pages (whole numbers, decimals, numbers as
 * text, text, nulls, multivalues, a column some pages lack, {@code _time} mostly descending and
 * sometimes missing), every result equal row by row, column names, order and types included, and
 * the tables {@code outputlookup} writes equal. A difference is a bug in one of the two engines.
 */
class BlockingStagesTest {
  private static final Instant NOW = Instant.parse("2026-01-05T00:00:00Z");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "transaction t",
        "transaction t, extra maxspan=30s",
        "transaction t maxpause=20s maxevents=3",
        "transaction mv maxevents=2 | stats count by eventcount",
        "transaction t startswith=\"n>10\" endswith=\"d<20\"",
        "transaction t startswith=eval(n>10) keepevicted=true",
        "transaction t endswith=\"t=v1 OR n<0\" keepevicted=true",
        "transaction endswith=eval(n<0)",
        "transaction maxspan=40s",
        "transaction t mvlist=true keeporphans=true",
        "transaction t, extra connected=false mvlist=\"n,mv\"",
        // a filter on pages keeps the page's columns, while rows lose those no kept row has: the
        // table fixes them, as in a search
        "transaction extra keeporphans=true | where _txn_orphan=1 | table _time, extra, n, mv",
        "transaction extra keeporphans=true maxevents=2",
        "transaction t | head 3",
        "eval x=n*2 | transaction t, x | stats count, max(duration) by t",
        "bin n bins=4",
        "bin d bins=10 AS b",
        "bin _time bins=5",
        "bin t bins=3",
        "bin _time bins=3 minspan=1m AS bt",
        "bin n bins=4 start=0 end=100 AS nb | stats count by nb",
        "bin mv bins=2",
        "fieldsummary",
        "fieldsummary maxvals=2",
        "eval x=if(n>3, n, d) | fieldsummary",
        "stats count, avg(d) by t | fieldsummary",
        "outputlookup written.csv",
        "outputlookup written.csv | head 2",
        "eval x=mv | outputlookup written.csv | stats count",
      })
  void pagesAnswerAsRowsDo(String commands) {
    for (long seed = 0; seed < 30; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), true);
      Map<String, LookupTable> writtenOnPages = new HashMap<>();
      Map<String, LookupTable> writtenOnRows = new HashMap<>();
      List<Page> pages = onPages(commands, input, writtenOnPages);
      List<Page> rows = onRows(commands, input, writtenOnRows);
      assertThat(schemaOf(pages)).as("seed %d: %s", seed, commands).isEqualTo(schemaOf(rows));
      assertThat(PipelineTest.table(pages))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(PipelineTest.table(rows));
      assertThat(writtenOnPages).as("seed %d: %s", seed, commands).isEqualTo(writtenOnRows);
    }
  }

  /**
   * A {@code startswith}/{@code endswith} of bare words or phrases, or an {@code eval(…)} calling
   * {@code searchmatch()}, and a {@code search} of bare words over events, match each position's
   * {@code _raw} on pages as the row commands match an event's raw text: the rows fed here search
   * their own {@code _raw} with the same matcher (as an event row does), and the answers are equal.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "transaction t startswith=\"line\"",
        "transaction t endswith=\"\\\"line 1\\\" OR n<0\" keepevicted=true",
        "transaction t startswith=\"NOT line\" endswith=\"line t=v1\" maxevents=4",
        "transaction extra startswith=eval(searchmatch(\"line\") AND n>2) keeporphans=true",
        "transaction startswith=\"2\" maxspan=40s | stats count by eventcount",
        // a search of bare words over events (EventText): the same matching
        "search line | stats count by t",
        "where n > 0 | search \"line 1\" OR t=v1 | table n, t, _raw",
        "eval x=n | search NOT line | sort n | head 4",
        "search line 2 | transaction t",
      })
  void rawTextSearchesOnPagesAnswerAsOnRows(String commands) {
    for (long seed = 0; seed < 30; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), true);
      List<Page> pages = onPages(commands, input, new HashMap<>());
      List<Page> rows = onSearchableRows(commands, input);
      assertThat(schemaOf(pages)).as("seed %d: %s", seed, commands).isEqualTo(schemaOf(rows));
      assertThat(PipelineTest.table(pages))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(PipelineTest.table(rows));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"transaction t", "fieldsummary", "transaction mv mvlist=true"})
  void aColumnKeepsOneTypeAcrossTheAnswersPages(String commands) {
    for (long seed = 0; seed < 30; seed++) {
      Map<String, DataType> types = new HashMap<>();
      for (Page page :
          reduce(commands, TimedRandomPages.of(new Random(seed), true), 2, new HashMap<>())) {
        for (int c = 0; c < page.schema().size(); c++) {
          var column = page.schema().column(c);
          DataType first = types.putIfAbsent(column.name(), column.type());
          assertThat(first == null ? column.type() : first)
              .as("seed %d: %s, column %s", seed, commands, column.name())
              .isEqualTo(column.type());
        }
      }
    }
  }

  @Test
  void transactionCountsWhatItHoldsAndReleasesIt() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    Evaluator evaluator =
        new Evaluator(NOW, ZoneOffset.UTC)
            .withResources(new SearchResources(account, () -> false, w -> {}));
    List<Command> parsed = parse("transaction t");
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(parsed, evaluator, out::add, new StageStats(List.of("transaction")), 0, 16);
    for (Page page : TimedRandomPages.of(new Random(7), true)) {
      reduce.add(page);
    }
    assertThat(account.used()).as("pages held").isPositive();
    reduce.finish();
    reduce.close();
    assertThat(account.used()).as("released").isZero();
    assertThat(out).isNotEmpty();
  }

  @Test
  void theStagesRunOnlyWhereTheyAreExact() {
    // a bare word searches each position's _raw, which the source must then load
    assertThat(ReduceCoverage.supports(parse("transaction t startswith=\"login\""))).isTrue();
    assertThat(ReduceCoverage.supports(parse("transaction t startswith=eval(searchmatch(\"x\"))")))
        .isTrue();
    assertThat(PageChain.inputFields(parse("transaction t endswith=\"out n>1\""), List.of()))
        .containsExactlyInAnyOrder("t", "n", "_raw", "_time");
    // a search of bare words: over events only, while _raw is still each event's own
    assertThat(ReduceCoverage.supports(parse("search line"))).isFalse();
    assertThat(ReduceCoverage.supportsOverEvents(parse("where n>0 | search line | head 2")))
        .isTrue();
    assertThat(ReduceCoverage.supportsOverEvents(parse("eval _raw=t | search line"))).isFalse();
    assertThat(ReduceCoverage.supportsOverEvents(parse("rename t AS _raw | search line")))
        .isFalse();
    // after an aggregation no row is an event: a bare word matches none there, on rows and pages
    // (PageReduce's over-results search; PageReduceTest compares them)
    assertThat(ReduceCoverage.supportsOverEvents(parse("stats count by t | search line"))).isTrue();
    assertThat(ReduceCoverage.supportsOverResults(parse("search line"))).isTrue();
    // the rows append brings in are made from pages, no events either (ResultsCoverageTest)
    assertThat(ReduceCoverage.supportsOverResults(parse("append [makeresults] | search line")))
        .isTrue();
    assertThat(PageChain.supportsOverEvents(parse("lookup x k | search line"))).isFalse();
    assertThat(PageChain.inputFields(parse("search line n>1"), List.of()))
        .containsExactlyInAnyOrder("_raw", "n");
    // they read every field: never over a source that loads only the fields read
    assertThat(ReduceCoverage.supportsOverReadFields(parse("fieldsummary"))).isFalse();
    assertThat(ReduceCoverage.supportsOverReadFields(parse("outputlookup t.csv"))).isFalse();
    assertThat(ReduceCoverage.supportsOverReadFields(parse("transaction t | table t, eventcount")))
        .isTrue();
    assertThat(
            PageChain.inputFields(
                parse("transaction t startswith=eval(n>1) | table d"), List.of("d")))
        .containsExactlyInAnyOrder("d", "t", "n", "_time");
  }

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  /** How a term matches raw text here: a case-insensitive substring (the server tokenizes). */
  private static final RawTermMatcher MATCHER =
      (raw, term) -> raw.toLowerCase(java.util.Locale.ROOT).contains(term.lowerCase());

  private static Evaluator evaluator(Map<String, LookupTable> written) {
    return new Evaluator(NOW, ZoneOffset.UTC, LookupTable.Source.NONE, written::put)
        .withRawTermMatcher(MATCHER);
  }

  /**
   * The row commands over the input's positions as rows that search their own {@code _raw} with
   * {@link #MATCHER}, as an event row searches its raw text.
   */
  private static List<Page> onSearchableRows(String commands, List<Page> input) {
    List<Page> out = new ArrayList<>();
    RowSink sink =
        Pipelines.build(
            parse(commands), new PageCollector(16, out::add), evaluator(new HashMap<>()));
    feed:
    for (Page page : input) {
      for (Row row : PluginOperators.rows(page)) {
        if (!sink.accept(new SearchableRow(row))) {
          break feed;
        }
      }
    }
    sink.finish();
    List<Row> rows = new ArrayList<>();
    out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  private static List<Page> reduce(
      String commands, List<Page> input, int pageSize, Map<String, LookupTable> written) {
    List<Command> parsed = parse(commands);
    assertThat(ReduceCoverage.supportsOverEvents(parsed)).as(commands).isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            parsed,
            evaluator(written),
            out::add,
            new StageStats(parsed.stream().map(Command::name).toList()),
            0,
            pageSize);
    for (Page page : input) {
      if (!reduce.add(page)) {
        break;
      }
    }
    reduce.finish();
    reduce.close();
    return out;
  }

  private static List<Page> onPages(
      String commands, List<Page> input, Map<String, LookupTable> written) {
    List<Row> rows = new ArrayList<>();
    reduce(commands, input, 16, written).forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  private static List<Page> onRows(
      String commands, List<Page> input, Map<String, LookupTable> written) {
    List<Page> out = new ArrayList<>();
    RowSink sink =
        Pipelines.build(parse(commands), new PageCollector(16, out::add), evaluator(written));
    feed:
    for (Page page : input) {
      for (Row row : PluginOperators.rows(page)) {
        if (!sink.accept(row)) {
          break feed;
        }
      }
    }
    sink.finish();
    List<Row> rows = new ArrayList<>();
    out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  /** A row whose raw text is its {@code _raw}, searched with {@link #MATCHER}. */
  private record SearchableRow(Row row) implements Row {
    @Override
    public List<Object> values(String field) {
      return row.values(field);
    }

    @Override
    public List<String> fieldNames() {
      return row.fieldNames();
    }

    @Override
    public boolean matchesTerm(SearchTerm term) {
      List<Object> raw = row.values("_raw");
      return !raw.isEmpty() && MATCHER.matches(Values.toText(raw.get(0)), term);
    }
  }

  private static List<String> schemaOf(List<Page> pages) {
    List<String> schema = new ArrayList<>();
    for (Page page : pages) {
      for (int c = 0; c < page.schema().size(); c++) {
        schema.add(page.schema().column(c).name() + ":" + page.schema().column(c).type());
      }
    }
    return schema;
  }
}
