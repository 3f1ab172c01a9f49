package io.quarry.ql.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.ast.McatalogCommand;
import io.quarry.ql.ast.MetricAggregation;
import io.quarry.ql.ast.MetricFunction;
import io.quarry.ql.ast.MpreviewCommand;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.ql.plan.SearchPlanner;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricCommandParserTest {
  private final Parser parser = new Parser(CommandRegistry.builtIns());

  private MstatsCommand mstats(String query) {
    return (MstatsCommand) parser.parse(query).commands().get(0);
  }

  @Test
  void mstatsReadsFunctionsMetricsWhereByAndSpan() {
    MstatsCommand command =
        mstats(
            "| mstats avg(cpu.user) AS u, perc95(cpu.*) max(_value) where index=m host=h1"
                + " (region=us OR region=eu) by host, region span=1m");
    assertThat(command.aggregations())
        .extracting(MetricAggregation::function)
        .containsExactly(MetricFunction.AVG, MetricFunction.PERCENTILE, MetricFunction.MAX);
    assertThat(command.aggregations().get(0).outputName("cpu.user")).isEqualTo("u");
    assertThat(command.aggregations().get(1).outputName("cpu.sys")).isEqualTo("perc95(cpu.sys)");
    assertThat(command.aggregations().get(1).percentile()).isEqualTo(95);
    assertThat(command.aggregations().get(1).isWildcard()).isTrue();
    assertThat(command.groupBy()).containsExactly("host", "region");
    assertThat(command.span()).isPresent();
    String text = SplText.pipeline(List.of(command));
    assertThat(text).startsWith("| mstats avg(cpu.user) AS u perc95(cpu.*) max(_value) where ");
    assertThat(mstats(text).spl()).isEqualTo(command.spl());

    MstatsCommand spanFirst = mstats("| mstats rate(net.bytes) where index=m span=5m by host");
    assertThat(spanFirst.span()).isPresent();
    assertThat(spanFirst.groupBy()).containsExactly("host");
    assertThat(spanFirst.where()).isPresent();
  }

  @Test
  void prestats() {
    MstatsCommand prestats = mstats("| mstats prestats=true avg(x) where index=m span=1m");
    assertThat(prestats.prestats()).isTrue();
    assertThat(prestats.spl()).startsWith("mstats prestats=true avg(x)");
    assertThat(mstats("| " + prestats.spl()).spl()).isEqualTo(prestats.spl());
  }

  @Test
  void appendTrueWithPrestatsMayComeLaterInAPipeline() {
    var query =
        parser.parse(
            "| mstats prestats=t avg(cpu.user) where index=m span=1m"
                + " | mstats prestats=true append=t avg(mem.used) where index=m2 host=h1 span=1m"
                + " | timechart span=1m avg(cpu.user) avg(mem.used)");
    MstatsCommand appended = (MstatsCommand) query.commands().get(1);
    assertThat(appended.append()).isTrue();
    assertThat(appended.prestats()).isTrue();
    assertThat(appended.scope()).isEmpty(); // bound by the server when it plans the search
    assertThat(SplText.pipeline(query.commands()))
        .isEqualTo(
            "| mstats prestats=true avg(cpu.user) where index=m span=1m"
                + " | mstats prestats=true append=true avg(mem.used) where index=m2 host=h1"
                + " span=1m | timechart span=1m avg(cpu.user), avg(mem.used)");
    assertThat(
            ((MstatsCommand) parser.parse(SplText.pipeline(query.commands())).commands().get(1))
                .spl())
        .isEqualTo(appended.spl());
    // after any search, and first (appending to nothing)
    assertThat(
            parser
                .parse(
                    "index=web | stats count | mstats prestats=t append=t count(x) where index=m")
                .commands()
                .get(2))
        .isInstanceOf(MstatsCommand.class);
    MstatsCommand first = mstats("| mstats prestats=t append=t count(x) where index=m");
    assertThat(first.append()).isTrue();
    assertThat(SplText.pipeline(List.of(first)))
        .isEqualTo("| mstats prestats=true append=true count(x) where index=m");
  }

  @Test
  void thePlanLiftsIndexesAndTimeFromTheWhereClause() {
    SearchPlan plan =
        new SearchPlanner(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC)
            .plan(
                parser.parse(
                    "| mstats avg(cpu.user) where index=m earliest=-1h host=h1 by host | sort host"),
                Long.MIN_VALUE,
                Long.MAX_VALUE);
    assertThat(plan.generator()).containsInstanceOf(MstatsCommand.class);
    assertThat(plan.indexPatterns()).containsExactly("m");
    assertThat(plan.earliestMicros())
        .isEqualTo(Instant.parse("2025-12-31T23:00:00Z").toEpochMilli() * 1000);
    assertThat(SplText.search(plan.filter().orElseThrow())).isEqualTo("host=h1");
    assertThat(plan.pipeline()).hasSize(1);
    SearchPlan none =
        new SearchPlanner(Instant.EPOCH, ZoneOffset.UTC)
            .plan(parser.parse("| mstats count(x)"), Long.MIN_VALUE, Long.MAX_VALUE);
    assertThat(none.indexPatterns()).isEmpty();
  }

  @Test
  void mcatalogAndMpreview() {
    McatalogCommand catalog =
        (McatalogCommand)
            parser
                .parse(
                    "| mcatalog values(metric_name) values(host) AS hosts where index=m by region")
                .commands()
                .get(0);
    assertThat(catalog.values()).containsExactly("metric_name", "host");
    assertThat(catalog.names()).containsExactly("values(metric_name)", "hosts");
    assertThat(catalog.groupBy()).containsExactly("region");
    MpreviewCommand preview =
        (MpreviewCommand)
            parser
                .parse("| mpreview target_per_timeseries=2 filter=\"host=h1\" index=m")
                .commands()
                .get(0);
    assertThat(preview.targetPerSeries()).isEqualTo(2);
    assertThat(SplText.search(preview.where().orElseThrow())).isEqualTo("host=h1 index=m");
    assertThat(((MpreviewCommand) parser.parse("| " + preview.spl()).commands().get(0)).spl())
        .isEqualTo(preview.spl());
  }

  @Test
  void badInputIsAParseErrorSayingWhatIsWrong() {
    assertThatThrownBy(() -> parser.parse("| mstats"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("an aggregation such as avg(cpu.user)");
    assertThatThrownBy(() -> parser.parse("| mstats avgg(cpu) where index=m"))
        .hasMessageContaining("Unknown mstats function 'avgg'");
    assertThatThrownBy(() -> parser.parse("| mstats avg(cpu.*) AS x where index=m"))
        .hasMessageContaining("takes no AS name");
    assertThatThrownBy(() -> parser.parse("| mstats append=true avg(x) where index=m"))
        .hasMessageContaining("append=true is valid only with prestats=true");
    assertThatThrownBy(() -> parser.parse("| makeresults | mstats append=t avg(x) where index=m"))
        .hasMessageContaining("append=true is valid only with prestats=true");
    assertThatThrownBy(
            () -> parser.parse("| makeresults | mstats prestats=t append=f avg(x) where index=m"))
        .hasMessageContaining("generates rows");
    assertThatThrownBy(() -> parser.parse("| mstats avg(x) where index=m span=10"))
        .hasMessageContaining("time span");
    assertThat(mstats("| mstats avg(x) where index=m by _time, host span=1m").groupBy())
        .containsExactly("host");
    assertThatThrownBy(() -> parser.parse("| mstats avg(x) where index=m by _time"))
        .hasMessageContaining("span=, not by _time");
    assertThatThrownBy(() -> parser.parse("| mcatalog count(x) where index=m"))
        .hasMessageContaining("values(<field>) only");
    assertThatThrownBy(() -> parser.parse("search x | mstats avg(x)"))
        .hasMessageContaining("it can only be the first command");
  }
}
