package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Review (session 44): the index-pattern grammar moved out of {@link EventStore#resolve} into
 * {@link IndexPatterns} keeps its edges — {@code *} alone and {@code *}-led patterns skip internal
 * indexes, a pattern led by {@code _} names them, case is ignored in the pattern, a pattern's other
 * characters are literal ({@code -} and {@code _} included), the names keep the store's order, each
 * once however many patterns match it, and no pattern or an empty one names nothing.
 */
class IndexPatternsReviewTest {
  private static final List<String> NAMES =
      List.of("main", "web", "web-2", "_internal", "_audit", "webx", "w_b");

  private static List<String> resolve(String... patterns) {
    return IndexPatterns.resolve(NAMES, List.of(patterns));
  }

  @Test
  void aStarAloneOrLeadingSkipsInternalIndexes() {
    assertThat(resolve("*")).containsExactly("main", "web", "web-2", "webx", "w_b");
    assertThat(resolve("*in*")).containsExactly("main");
    assertThat(resolve("*a*")).containsExactly("main");
  }

  @Test
  void aPatternLedByAnUnderscoreNamesInternalIndexes() {
    assertThat(resolve("_*")).containsExactly("_internal", "_audit");
    assertThat(resolve("_INTERNAL")).containsExactly("_internal");
    assertThat(resolve("*", "_*")).containsExactly(NAMES.toArray(String[]::new));
  }

  @Test
  void caseIsIgnoredAndOtherCharactersAreLiteral() {
    assertThat(resolve("WEB")).containsExactly("web");
    assertThat(resolve("Web*")).containsExactly("web", "web-2", "webx");
    assertThat(resolve("w.b")).isEmpty(); // not a regular expression's any character
    assertThat(resolve("w_b")).containsExactly("w_b");
    assertThat(resolve("web-?")).isEmpty();
    assertThat(resolve("w*b*")).containsExactly("web", "web-2", "webx", "w_b");
  }

  @Test
  void namesComeOnceInTheStoresOrder() {
    assertThat(resolve("webx", "main", "web*", "m*"))
        .containsExactly("main", "web", "web-2", "webx");
  }

  @Test
  void noPatternOrAnEmptyOneNamesNothing() {
    assertThat(resolve()).isEmpty();
    assertThat(resolve("")).isEmpty();
  }
}
