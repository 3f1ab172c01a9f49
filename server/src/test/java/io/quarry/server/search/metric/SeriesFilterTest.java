package io.quarry.server.search.metric;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.metricstore.Postings;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.codecs.metricstore.SeriesSelector;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The metric series filter: a where clause over a series' dimensions, {@code metric_name} and
 * {@code index} with the search command's semantics; expectations written by hand.
 */
class SeriesFilterTest {
  private static final SeriesKey WEB =
      SeriesKey.of("cpu.user", Map.of("host", "WWW1", "region", "eu-west", "port", "8080"));
  private static final SeriesKey DB = SeriesKey.of("cpu.sys", Map.of("host", "db2"));

  private static SeriesSelector selector(String where) {
    SearchCommand command =
        (SearchCommand)
            new Parser(CommandRegistry.builtIns()).parse("search " + where).commands().get(0);
    return SeriesFilter.selector(command.expression(), "m", key -> true);
  }

  private static boolean matches(String where, SeriesKey key) {
    return selector(where).test().test(key);
  }

  @Test
  void comparisonsFollowTheSearchCommand() {
    assertThat(matches("host=www1", WEB)).as("case-insensitive").isTrue();
    assertThat(matches("host=WW*", WEB)).as("wildcard").isTrue();
    assertThat(matches("port>8000", WEB)).as("numeric").isTrue();
    assertThat(matches("port<900", WEB)).as("numeric, not as text").isFalse();
    assertThat(matches("metric_name=cpu.*", DB)).isTrue();
    assertThat(matches("index=m", DB)).isTrue();
    assertThat(matches("index=other", DB)).isFalse();
  }

  @Test
  void aDimensionASeriesLacksMatchesNoComparison() {
    assertThat(matches("region=*", DB)).isFalse();
    assertThat(matches("region!=eu-west", DB)).as("!= needs a value").isFalse();
    assertThat(matches("NOT region=eu-west", DB)).as("NOT does not").isTrue();
    assertThat(matches("region!=eu-west", WEB)).isFalse();
  }

  @Test
  void booleanOperatorsAndIn() {
    assertThat(matches("host=db2 OR region=eu*", WEB)).isTrue();
    assertThat(matches("host=db2 OR region=us*", WEB)).isFalse();
    assertThat(matches("host IN (x, www1)", WEB)).isTrue();
    assertThat(matches("host IN (x, y)", WEB)).isFalse();
    assertThat(matches("host=www1 NOT port=8080", WEB)).isFalse();
  }

  @Test
  void aBareWordMatchesNoSeries() {
    assertThat(matches("www1", WEB)).isFalse();
    assertThat(matches("NOT www1", WEB)).isTrue();
  }

  @Test
  void exactTopLevelTermsAreLookedUpInThePostings() {
    assertThat(selector("host=www1 region=eu* index=m (port=1 OR port=2)").requiredTerms())
        .containsExactly(Postings.term("host", "www1"));
    assertThat(SeriesFilter.selector(Optional.empty(), "m", key -> false).test().test(WEB))
        .as("no clause: the other test alone")
        .isFalse();
    assertThat(List.of(WEB, DB).stream().filter(selector("host=*").test()).count()).isEqualTo(2);
  }
}
