package io.quarry.ql.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.SubsearchResult;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.TestPages;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Subsearch expansion with a runner that answers fixed rows: the text, NOT( ), binding. */
class SubsearchExpanderTest {
  private final Parser parser = new Parser(CommandRegistry.builtIns());
  private final List<String> ran = new ArrayList<>();

  private SubsearchRunner answering(List<Map<String, Object>> rows) {
    return (subsearch, maxRows, maxTime) -> {
      ran.add(subsearch.text() + " " + maxRows + " " + maxTime.toSeconds());
      List<Page> pages = rows.isEmpty() ? List.of() : List.of(TestPages.of(rows));
      return new SubsearchResult(pages, rows.size(), 0, List.of("ran " + subsearch.text()));
    };
  }

  private SubsearchExpander.Expanded expand(String query, List<Map<String, Object>> rows) {
    return SubsearchExpander.expand(
        parser.parse(query), parser::parseExpandedQuery, answering(rows));
  }

  @Test
  void rowsBecomeFormatTextInPlaceOfTheBrackets() {
    SubsearchExpander.Expanded expanded =
        expand(
            "error [search x | fields ip] | head 1",
            List.of(Map.of("ip", "1.2.3.4", "_time", 1L), Map.of("ip", "5.6.7.8")));
    assertThat(expanded.text())
        .isEqualTo("error ( ( ip=\"1.2.3.4\" ) OR ( ip=\"5.6.7.8\" ) ) | head 1");
    assertThat(ran).containsExactly("search x | fields ip 10000 60");
    assertThat(expanded.messages()).containsExactly("ran search x | fields ip");
    assertThat(expanded.query().commands().get(0)).isInstanceOf(SearchCommand.class);
  }

  @Test
  void aSearchFieldIsTakenAsItIs() {
    assertThat(expand("a [search x | return y] b", List.of(Map.of("search", "y=\"1\""))).text())
        .isEqualTo("a y=\"1\" b");
  }

  @Test
  void noRowsMatchNothing() {
    SubsearchExpander.Expanded expanded = expand("a [search x]", List.of());
    assertThat(expanded.text()).isEqualTo("a NOT( )");
    SearchExpression.And and =
        (SearchExpression.And)
            ((SearchCommand) expanded.query().commands().get(0)).expression().orElseThrow();
    assertThat(and.operands().get(1)).isEqualTo(new SearchExpression.Or(List.of()));
  }

  @Test
  void aCommandsSubsearchRunsWithItsLimitsAndIsBound() {
    SubsearchExpander.Expanded expanded =
        expand("x | join type=left a, b [search y]", List.of(Map.of("a", "1")));
    SubsearchCommand join = (SubsearchCommand) expanded.query().commands().get(1);
    assertThat(join.result().rows()).isEqualTo(1);
    assertThat(join.join().fields()).containsExactly("a", "b");
    assertThat(ran).containsExactly("search y 50000 60");
    assertThat(expand("x | append maxout=5 maxtime=2 [search y]", List.of()).query().commands())
        .hasSize(2);
    assertThat(ran).contains("search y 5 2");
  }

  @Test
  void bracketsNestAndAQuotedBracketIsText() {
    Subsearch subsearch =
        ((SearchExpression.SubsearchTerm)
                ((SearchCommand)
                        parser.parse("[search \"]\" [search z] | head 1]").commands().get(0))
                    .expression()
                    .orElseThrow())
            .subsearch();
    assertThat(subsearch.text()).isEqualTo("search \"]\" [search z] | head 1");
    assertThat(subsearch.query().commands()).hasSize(2);
  }

  @Test
  void errorsInsideASubsearchPointIntoTheWholeQuery() {
    assertThatThrownBy(() -> parser.parse("a [search b | stast c]"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("Unknown search command 'stast'")
        .satisfies(e -> assertThat(((QueryParseException) e).position().column()).isEqualTo(15));
    assertThatThrownBy(() -> parser.parse("a " + "[search ".repeat(12) + "x" + "]".repeat(12)))
        .hasMessageContaining("nest deeper than 10");
  }
}
