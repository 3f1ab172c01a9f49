package io.quarry.ql.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchPlannerTest {
  private static final Instant NOW = Instant.parse("2026-01-07T12:00:00Z");
  private static final long NOW_MICROS = NOW.getEpochSecond() * 1_000_000L;

  private static SearchPlan plan(String query) {
    return new SearchPlanner(NOW, ZoneOffset.UTC)
        .plan(new Parser(CommandRegistry.builtIns()).parse(query), Long.MIN_VALUE, Long.MAX_VALUE);
  }

  @Test
  void leadingWildcardsAreFlaggedAsSlow() {
    List<String> messages =
        plan("index=web *admin uri=*.php NOT (a OR b*) | search host IN (x, *y) | where z=\"*q\"")
            .slowPatternMessages();
    assertThat(messages).hasSize(3);
    assertThat(messages.get(0))
        .startsWith("'*admin' (line 1, column 11) starts with a wildcard")
        .contains("slow");
    assertThat(messages.get(1)).startsWith("'*.php'");
    assertThat(messages.get(2)).startsWith("'*y'");
    assertThat(plan("index=web * | search *").slowPatternMessages())
        .as("everything, not a pattern")
        .isEmpty();
    assertThat(plan("index=web adm*n").slowPatternMessages()).isEmpty();
    assertThat(plan("index=web \"*quoted\" size>*x").slowPatternMessages())
        .as("a phrase's * and an ordering comparison are no wildcards")
        .isEmpty();
  }

  @Test
  void indexAndTimeBecomeSelectionNotFilter() {
    SearchPlan plan = plan("index=web earliest=-1h latest=now status=404 | head 2");
    assertThat(plan.indexPatterns()).isEqualTo(List.of("web"));
    assertThat(plan.earliestMicros()).isEqualTo(NOW_MICROS - 3_600_000_000L);
    assertThat(plan.latestMicros()).isEqualTo(NOW_MICROS);
    assertThat(plan.filter()).isPresent();
    assertThat(plan.pipeline()).hasSize(1);
  }

  @Test
  void sortFollowedByHeadKeepsOnlyTheHeadsRows() {
    assertThat(plan("x | sort -bytes | head 10").pipeline().get(0))
        .isInstanceOfSatisfying(
            io.quarry.ql.ast.SortCommand.class, sort -> assertThat(sort.limit()).isEqualTo(10));
    assertThat(plan("x | sort 0 bytes | head 5").pipeline().get(0))
        .isInstanceOfSatisfying(
            io.quarry.ql.ast.SortCommand.class, sort -> assertThat(sort.limit()).isEqualTo(5));
    // a head further away, or a smaller sort limit, changes nothing
    assertThat(plan("x | sort 3 bytes | head 5").pipeline().get(0))
        .isInstanceOfSatisfying(
            io.quarry.ql.ast.SortCommand.class, sort -> assertThat(sort.limit()).isEqualTo(3));
    assertThat(plan("x | sort bytes | eval y=1 | head 5").pipeline().get(0))
        .isInstanceOfSatisfying(
            io.quarry.ql.ast.SortCommand.class,
            sort -> assertThat(sort.limit()).isEqualTo(io.quarry.ql.ast.SortCommand.DEFAULT_LIMIT));
  }

  @Test
  void defaultIndexIsMainUnlessTheFilterMentionsIndexes() {
    assertThat(plan("error").indexPatterns()).isEqualTo(List.of("main"));
    assertThat(plan("index=a OR index=b").indexPatterns()).isEqualTo(List.of("*"));
    assertThat(plan("index IN (a, b) x").indexPatterns()).isEqualTo(List.of("a", "b"));
    assertThat(plan("index=web").filter()).isEmpty();
  }

  @Test
  void timeModifiersMustBeTopLevel() {
    assertThatThrownBy(() -> plan("a OR earliest=-1h"))
        .hasMessageContaining("must be a top-level term");
    assertThatThrownBy(() -> plan("earliest=soon"))
        .hasMessageContaining("'soon' is not a time modifier");
  }
}
