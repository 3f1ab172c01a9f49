package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.parser.Parser;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A running batch aggregation's preview (a job's results while it runs, {@link
 * AggregationPreview#of}) passes the groups merged so far through the commands after {@code stats}
 * on pages.
 */
class AggregationPreviewTest {
  private static final Parser PARSER = new Parser(CommandRegistry.builtIns());

  @Test
  void theCommandsAfterStatsRunOverTheGroupsMergedSoFar() {
    List<Command> pipeline = parse("stats count by user | sort -count, user | head 2");
    PageAggregator total = total(pipeline);
    total.addInput(users("ann", "bob", "bob", "cid", "bob", "cid"));
    Evaluator strict = evaluator();

    List<Page> preview =
        AggregationPreview.of(total, pipeline.subList(1, 3), strict, 1024, new AtomicBoolean());

    assertThat(rows(preview)).containsExactly("bob=3", "cid=2");
    assertThat(AggregationPreview.of(total, pipeline.subList(1, 3), strict, 1024, finished()))
        .as("none once the search is finishing")
        .isNull();
  }

  @Test
  void aBareWordAfterRowsBroughtInPreviewsOnPages() {
    // no row after stats is an event, those appendpipe brings in neither: a bare word matches a
    // row holding it as a field's whole value (user=bob), a comparison decides the others
    List<Command> pipeline =
        parse(
            "stats count by user | appendpipe [stats sum(count) AS count | eval user=\"all\"]"
                + " | search bob OR user=all");
    PageAggregator total = total(pipeline);
    total.addInput(users("ann", "bob", "bob"));
    Evaluator strict = evaluator();

    List<Page> preview =
        AggregationPreview.of(total, pipeline.subList(1, 3), strict, 1024, new AtomicBoolean());

    assertThat(rows(preview)).containsExactly("bob=2", "all=3");
  }

  @Test
  void noPreviewRunsTheCommandsThatWrite() {
    // a preview would write the partial groups: into a lookup table or a summary index
    assertThat(AggregationPreview.previews(parse("sort -count | head 2"))).isTrue();
    assertThat(AggregationPreview.previews(parse("sort -count | outputlookup t.csv"))).isFalse();
    assertThat(AggregationPreview.previews(parse("eval x=1 | collect index=summary"))).isFalse();
  }

  private static Evaluator evaluator() {
    return new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);
  }

  private static AtomicBoolean finished() {
    return new AtomicBoolean(true);
  }

  private static List<Command> parse(String commands) {
    List<Command> parsed = PARSER.parse("* | " + commands).commands();
    return parsed.subList(1, parsed.size());
  }

  private static PageAggregator total(List<Command> pipeline) {
    return PageAggregator.of(
        (StatsCommand) pipeline.get(0), ZoneOffset.UTC, MemoryTracker.unbounded("stats"), 1024);
  }

  private static Page users(String... users) {
    BytesBlock.Builder block = BytesBlock.builder(users.length);
    for (String user : users) {
      byte[] bytes = user.getBytes(StandardCharsets.UTF_8);
      block.append(bytes, 0, bytes.length);
    }
    return new Page(
        new Schema(List.of(new Schema.Column("user", DataType.STRING))), List.of(block.build()));
  }

  /** Each row as {@code user=count}. */
  private static List<String> rows(List<Page> pages) {
    List<String> rows = new ArrayList<>();
    for (Page page : pages) {
      LongBlock counts = (LongBlock) page.block(page.schema().indexOf("count"));
      for (int p = 0; p < page.positionCount(); p++) {
        rows.add(
            page.block(page.schema().indexOf("user")).getValues(p).get(0)
                + "="
                + counts.getLongValue(counts.getFirstValueIndex(p)));
      }
    }
    return rows;
  }
}
