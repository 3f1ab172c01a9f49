package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.exec.SearchResources;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.plan.WritesEvents;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code collect}'s events as its writer receives them: Splunk's stash text for a table row (time
 * first, pairs, marker), {@code _raw} kept, {@code addtime}/{@code addinfo}, {@code testmode}, and
 * the refusals of the parser and of an operator without a writer. Expected by hand from the rows
 * (the search's time is 2026-01-07T12:00:00Z, 1767787200).
 */
class CollectCommandTest {
  private static final long NOW_MICROS = 1_767_787_200_000_000L;

  @Test
  void aTableRowIsWrittenInTheStashFormat() {
    List<WritesEvents.Written> events =
        collect(
            "collect index=summary addinfo=f marker=\"report=daily\"",
            row("host", "web-1", "count", 42L, "sourcetype", "access", "source", "/var/log/a"));
    assertThat(events).hasSize(1);
    WritesEvents.Written event = events.get(0);
    // the result's host, source and sourcetype as orig_*: the summary event has its own
    assertThat(event.raw())
        .isEqualTo(
            "01/07/2026 12:00:00 +0000, orig_host=\"web-1\", count=\"42\","
                + " orig_sourcetype=\"access\", orig_source=\"/var/log/a\", report=daily");
    assertThat(event.timeMicros()).isEqualTo(NOW_MICROS);
    assertThat(event.sourcetype()).isEqualTo("stash");
    assertThat(event.source()).isEqualTo("collect");
    assertThat(event.host()).isNull(); // the server's
  }

  @Test
  void theResultsIndexAndServerFieldsAreWrittenAsOrigFieldsToo() {
    // Splunk's stash events carry orig_index, orig_splunk_server, orig_linecount ... beside
    // orig_host: the summary event's own index is where it was collected to
    List<WritesEvents.Written> events =
        collect(
            "collect index=summary addinfo=f addtime=f",
            row("index", "main", "splunk_server", "q1", "linecount", 1L, "n", 2L));
    assertThat(events.get(0).raw())
        .isEqualTo("orig_index=\"main\", orig_splunk_server=\"q1\", orig_linecount=\"1\", n=\"2\"");
  }

  @Test
  void infoMinTimeOfTheResultComesFirstAndAddinfoWritesTheRestOfTheSearchsRange() {
    List<WritesEvents.Written> events =
        collect(
            "collect index=summary host=sh1 sourcetype=mine",
            row("info_min_time", 1767657600L, "n", 1L));
    assertThat(events.get(0).raw())
        .isEqualTo(
            "01/06/2026 00:00:00 +0000, info_max_time=\"+Infinity\","
                + " info_search_time=\"1767787200\", info_min_time=\"1767657600\", n=\"1\"");
    assertThat(events.get(0).timeMicros()).isEqualTo(1_767_657_600_000_000L);
    assertThat(events.get(0).host()).isEqualTo("sh1");
    assertThat(events.get(0).sourcetype()).isEqualTo("mine");
  }

  @Test
  void withoutAddtimeNoTimeIsWrittenAndInternalFieldsAreLeftOut() {
    List<WritesEvents.Written> events =
        collect(
            "collect index=summary addtime=f addinfo=f",
            row("_hidden", "x", "tags", List.of("a", "b"), "msg", "say \"hi\" \\o/"));
    assertThat(events.get(0).raw())
        .isEqualTo("tags=\"a\", tags=\"b\", msg=\"say \\\"hi\\\" \\\\o/\"");
    assertThat(events.get(0).timeMicros()).isEqualTo(NOW_MICROS);
  }

  @Test
  void rawIsKeptAsItIs() {
    List<WritesEvents.Written> events =
        collect(
            "collect index=summary marker=\"run=1\"",
            row("_raw", "GET /cart status=200", "status", 200L));
    assertThat(events.get(0).raw()).isEqualTo("GET /cart status=200, run=1");
  }

  @Test
  void testmodeWritesNothingAndTheResultsPassOn() {
    List<Map<String, Object>> passed =
        CommandHarness.run("collect index=summary testmode=t", List.of(row("a", 1L), row("a", 2L)));
    assertThat(passed).extracting(r -> r.get("a")).containsExactly(1L, 2L);
  }

  @Test
  void withoutAWriterItDoesNotRun() {
    PluginCommand command = CommandHarness.parse("collect index=summary");
    assertThatThrownBy(() -> command.bound().createOperator(context()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot run here");
  }

  @Test
  void theParserRefusesWhatItCannotWrite() {
    assertThatThrownBy(() -> CommandHarness.parse("collect marker=x"))
        .isInstanceOf(QueryParseException.class);
    assertThatThrownBy(() -> CommandHarness.parse("collect index=\" summary\""))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("' summary'");
    assertThatThrownBy(() -> CommandHarness.parse("collect index=summary output_format=hec"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("output_format=hec");
  }

  /** The events the command writes over {@code row}, its one page passed on unchanged. */
  private static List<WritesEvents.Written> collect(String command, Map<String, Object> row) {
    List<WritesEvents.Written> written = new ArrayList<>();
    WritesEvents.Writer writer =
        new WritesEvents.Writer() {
          @Override
          public void write(List<WritesEvents.Written> events, Runnable checkCancelled) {
            written.addAll(events);
          }

          @Override
          public long written() {
            return written.size();
          }
        };
    WritesEvents bound = (WritesEvents) CommandHarness.parse(command).bound();
    assertThat(bound.index()).isEqualTo("summary");
    // the sourcetype the server checks when it plans the search (stash unless named)
    assertThat(bound.sourcetype())
        .isEqualTo(command.contains("sourcetype=mine") ? "mine" : "stash");
    Page page = CommandHarness.page(List.of(row));
    try (Operator operator = bound.withWriter(writer).createOperator(context())) {
      operator.addInput(page);
      assertThat(operator.getOutput()).isSameAs(page);
    }
    return written;
  }

  private static OperatorContext context() {
    return new SearchResources(MemoryAccount.unbounded("test"), () -> false, warning -> {})
        .context(CommandHarness.NOW, ZoneOffset.UTC);
  }
}
