package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Over rows that are not events — a generator's, a metric command's, an aggregation's answer —
 * every command has a page stage ({@link ReduceCoverage#supportsOverResults}), whatever came before
 * it: so a search that starts with a generator, a metric command or an aggregation runs its later
 * commands through {@link PageReduce}, never the row engine. Each built-in command (one form or
 * more of it) after each of a set of earlier commands, among them those that bring rows in ({@code
 * append}, {@code join}, {@code appendpipe}) and those that change the pages' layout.
 */
class ResultsCoverageTest {
  private static final List<String> COMMANDS =
      List.of(
          "search x",
          "search x OR a=1",
          "search NOT \"two words\" a=*",
          "search a=1",
          "where a=1",
          "eval a=1",
          "table a",
          "fields - a",
          "rename a AS b",
          "rename _time AS t",
          "rename a* AS b*",
          "rename _t* AS t*",
          "rename * AS x_*",
          "rename t* AS _t*",
          "rex field=a \"(?<b>.)\"",
          "bin a span=2",
          "bin a",
          "bin _time span=1h",
          "lookup t a",
          "sort a",
          "head 2",
          "tail 2",
          "reverse",
          "dedup a",
          "transaction a",
          "fieldsummary",
          "outputlookup t.csv",
          "format",
          "return a",
          "append [| makeresults]",
          "appendcols [| makeresults]",
          "join a [| makeresults]",
          "join [| makeresults]",
          "stats count",
          "stats count(*)",
          "stats sum(a*) by b",
          "eventstats count",
          "streamstats count",
          "eventstats dc(a), perc50(a), values(a), mode(a), list(a) by b",
          "streamstats window=2 avg(a), median(a), latest(a), first(a), estdc(a)",
          "streamstats current=false time_window=1h earliest(a) by b",
          "top a",
          "rare a",
          "chart count by a",
          "timechart count",
          "fillnull",
          "fillnull a",
          "filldown",
          "filldown a",
          "convert auto(*)",
          "convert num(a)",
          "mvexpand a",
          "makemv a",
          "mvcombine a",
          "nomv a",
          "regex a=\"x\"",
          "spath",
          "spath input=a",
          "xyseries a b c",
          "untable a b c",
          "addtotals",
          "addcoltotals",
          "strcat a b c",
          "rangemap field=a low=0-1",
          "replace x WITH y IN a",
          "accum a",
          "delta a",
          "autoregress a",
          "trendline sma2(a)",
          "foreach * [eval <<FIELD>>=1]",
          "fieldformat a=1",
          "transpose",
          "appendpipe [stats count]",
          "appendpipe [search x]",
          "appendpipe [format]",
          "map search=\"search x\"");

  private static final List<String> BEFORE =
      List.of(
          "",
          "eval a=1 | ",
          "rename a AS b | ",
          "where a=1 | ",
          "sort a | ",
          "append [| makeresults] | ",
          "join a [| makeresults] | ",
          "appendcols [| makeresults] | ",
          "appendpipe [stats count] | ",
          "map search=\"search x\" | ",
          "fillnull | ",
          "stats count | ",
          "table * | ",
          "rename a* AS c* | ",
          "streamstats count | ",
          "transaction a | ",
          "dedup a | ",
          "head 3 | ",
          "fieldsummary | ",
          "mvexpand a | ",
          "mstats prestats=true append=true count(m) WHERE index=x | ");

  @Test
  void everyCommandAfterAnyHasAPageStageOverResults() {
    Parser parser = new Parser(CommandRegistry.builtIns());
    for (String before : BEFORE) {
      for (String command : COMMANDS) {
        Query query = parser.parse("* | " + before + command);
        List<Command> commands = query.commands().subList(1, query.commands().size());
        assertThat(ReduceCoverage.supportsOverResults(commands)).as(before + command).isTrue();
      }
    }
  }
}
