package io.quarry.ql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.SearchExpression.And;
import io.quarry.ql.ast.SearchExpression.Comparison;
import io.quarry.ql.ast.SearchExpression.Not;
import io.quarry.ql.ast.SearchExpression.Or;
import io.quarry.ql.ast.SearchExpression.Term;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParserTest {
  private final Parser parser = new Parser(CommandRegistry.builtIns());

  private SearchExpression search(String query) {
    Query parsed = parser.parse(query);
    return ((SearchCommand) parsed.commands().get(0)).expression().orElseThrow();
  }

  /** Renders an expression with explicit structure so precedence is visible in assertions. */
  private static String show(SearchExpression e) {
    return switch (e) {
      case Term t -> t.phrase() ? "\"" + t.text() + "\"" : t.text();
      case Comparison c -> c.field() + c.operator().symbol() + c.value();
      case SearchExpression.In in -> in.field() + " IN " + in.values();
      case And and ->
          "AND(" + String.join(", ", and.operands().stream().map(ParserTest::show).toList()) + ")";
      case Or or ->
          "OR(" + String.join(", ", or.operands().stream().map(ParserTest::show).toList()) + ")";
      case Not not -> "NOT(" + show(not.operand()) + ")";
      case SearchExpression.SubsearchTerm sub -> "[" + sub.subsearch().text() + "]";
    };
  }

  @Test
  void searchPrecedenceIsNotThenOrThenAnd() {
    assertThat(show(search("a b OR c"))).isEqualTo("AND(a, OR(b, c))");
    assertThat(show(search("NOT a OR b c"))).isEqualTo("AND(OR(NOT(a), b), c)");
    assertThat(show(search("(a b) OR c"))).isEqualTo("OR(AND(a, b), c)");
    assertThat(show(search("a AND b OR c AND d"))).isEqualTo("AND(a, OR(b, c), d)");
    assertThat(show(search("a or b"))).as("lower-case or is a term").isEqualTo("AND(a, or, b)");
  }

  @Test
  void comparisonsValuesAndPhrases() {
    assertThat(
            show(search("index=web status>=500 host!=db* \"GET /cart\" uri=/cart.do?action=view")))
        .isEqualTo(
            "AND(index=web, status>=500, host!=db*, \"GET /cart\", uri=/cart.do?action=view)");
    assertThat(show(search("status IN (404, 500,503) clientip=10.0.0.0/8")))
        .isEqualTo("AND(status IN [404, 500, 503], clientip=10.0.0.0/8)");
    Comparison quoted = (Comparison) search("msg=\"a \\\"quoted\\\" value\"");
    assertThat(quoted.value()).isEqualTo("a \"quoted\" value");
    assertThat(quoted.quoted()).isTrue();
    assertThat(quoted.operator()).isEqualTo(ComparisonOperator.EQ);
  }

  @Test
  void pipelineOfCommandsWithComments() {
    Query query =
        parser.parse(
            "search error ```only errors``` | stats count, sum(bytes) AS total, dc(clientip) by host, status\n| head 5");
    assertThat(query.commands()).hasSize(3);
    StatsCommand stats = (StatsCommand) query.commands().get(1);
    assertThat(stats.aggregations())
        .extracting(a -> a.function(), a -> a.outputName())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(AggregateFunction.COUNT, "count"),
            org.assertj.core.groups.Tuple.tuple(AggregateFunction.SUM, "total"),
            org.assertj.core.groups.Tuple.tuple(AggregateFunction.DISTINCT_COUNT, "dc(clientip)"));
    assertThat(stats.groupBy()).isEqualTo(List.of("host", "status"));
    assertThat(((HeadCommand) query.commands().get(2)).limit()).isEqualTo(5);
    assertThat(((HeadCommand) parser.parse("x | head").commands().get(1)).limit()).isEqualTo(10);
    assertThat(
            show(
                ((SearchCommand) parser.parse("head 3").commands().get(0))
                    .expression()
                    .orElseThrow()))
        .as("without a pipe, head is a search term")
        .isEqualTo("AND(head, 3)");
  }

  @Test
  void unknownCommandSuggestsTheNearestAndPointsAtIt() {
    QueryParseException e =
        catchThrowableOfType(QueryParseException.class, () -> parser.parse("error | stast count"));
    assertThat(e.getMessage()).isEqualTo("Unknown search command 'stast'. Did you mean 'stats'?");
    assertThat(e.position()).isEqualTo(new Position(8, 1, 9));
    assertThat(e.token()).isEqualTo("stast");
    assertThat(e.render()).endsWith("error | stast count\n        ^");
  }

  @Test
  void errorsNameWhatWasExpectedAndWhere() {
    assertThatThrownBy(() -> parser.parse("a OR"))
        .hasMessage("Unexpected end of query; expected a search term, a field comparison or '('");
    QueryParseException unclosed =
        catchThrowableOfType(QueryParseException.class, () -> parser.parse("(a OR b\n| head 2"));
    assertThat(unclosed.getMessage()).contains("expected ')' to close the '(' at column 1");
    assertThat(unclosed.position().line()).isEqualTo(2);
    assertThatThrownBy(() -> parser.parse("x | stats")).hasMessageContaining("an aggregation");
    assertThatThrownBy(() -> parser.parse("x | stats avg"))
        .hasMessageContaining("'(' and a field name after avg");
    assertThatThrownBy(() -> parser.parse("x | stats medain(x)"))
        .hasMessageContaining("Unknown aggregation function 'medain'");
    assertThatThrownBy(() -> parser.parse("x | stats perc101(x)"))
        .hasMessageContaining("Unknown aggregation function 'perc101'");
    assertThatThrownBy(() -> parser.parse("x | head -1"))
        .hasMessageContaining("non-negative whole number");
    assertThat(show(search("x [search y]"))).isEqualTo("AND(x, [search y])");
    assertThatThrownBy(() -> parser.parse("x [search y"))
        .hasMessageContaining("Unterminated subsearch");
    assertThatThrownBy(() -> parser.parse("\"unterminated"))
        .hasMessageContaining("Unterminated quoted string");
    assertThatThrownBy(() -> parser.parse("   ")).hasMessageContaining("Empty query");
    assertThatThrownBy(() -> parser.parse("| stats count"))
        .hasMessageContaining("needs a generating command")
        .hasMessageContaining("inputlookup");
    assertThat(parser.parse("| inputlookup users.csv | head 2").commands())
        .extracting(io.quarry.ql.ast.Command::name)
        .containsExactly("inputlookup", "head");
    assertThatThrownBy(() -> parser.parse("| inputlookup users.csv extra"))
        .hasMessageContaining("after the table name");
    assertThatThrownBy(() -> parser.parse("status="))
        .hasMessageContaining("a value after 'status='");
  }

  @Test
  void nestingIsBoundedWithAParseErrorNotAStackOverflow() {
    int limit = ParserLimits.MAX_NESTING;
    assertThat(show(search("(".repeat(limit) + "a" + ")".repeat(limit)))).isEqualTo("a");
    assertThat(show(search("NOT ".repeat(limit) + "a"))).startsWith("NOT(NOT(");
    parser.parse("| makeresults | eval x=" + "abs(".repeat(limit) + "1" + ")".repeat(limit));
    for (String query :
        new String[] {
          "(".repeat(limit + 1) + "a" + ")".repeat(limit + 1),
          "(".repeat(50_000) + "a" + ")".repeat(50_000),
          "NOT ".repeat(50_000) + "a",
          "| makeresults | eval x=" + "(".repeat(50_000) + "1" + ")".repeat(50_000),
          "| makeresults | eval x=" + "abs(".repeat(limit + 1) + "1" + ")".repeat(limit + 1),
          "| makeresults | eval x=" + "-".repeat(50_000) + "1",
          "| makeresults | where " + "NOT ".repeat(50_000) + "x"
        }) {
      assertThatThrownBy(() -> parser.parse(query))
          .as(query.substring(0, 40))
          .isInstanceOf(QueryParseException.class)
          .hasMessageContaining("nests deeper than " + limit + " levels");
    }
    parser.parse("| makeresults | eval x=1" + "+1".repeat(ParserLimits.MAX_OPERATORS - 1));
    for (String query :
        new String[] {
          "| makeresults | eval x=1" + "+1".repeat(50_000),
          "| makeresults | where a=1" + " OR a=1".repeat(50_000)
        }) {
      assertThatThrownBy(() -> parser.parse(query))
          .as(query.substring(0, 40))
          .isInstanceOf(QueryParseException.class)
          .hasMessageContaining("more than " + ParserLimits.MAX_OPERATORS + " operators");
    }
  }

  @Test
  void termAndCaseDirectivesAreOneWordEach() {
    SearchExpression term = search("TERM(10.1.2.3) CASE(Error)");
    assertThat(term).isInstanceOf(io.quarry.ql.ast.SearchExpression.And.class);
    List<SearchExpression> operands = ((io.quarry.ql.ast.SearchExpression.And) term).operands();
    assertThat(operands)
        .extracting(e -> ((Term) e).directive() + ":" + ((Term) e).text())
        .containsExactly("TERM:10.1.2.3", "CASE:Error");
    assertThat(((Term) search("TERM")).directive())
        .as("TERM alone is a word")
        .isEqualTo(io.quarry.ql.ast.SearchExpression.Directive.NONE);
    assertThat(SplText.search(search("TERM(10.1.2.3)"))).isEqualTo("TERM(10.1.2.3)");
  }
}
