package io.quarry.ql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SavedSearchesTest {
  private final Macros macros =
      new Macros(Map.of("errors", new Macros.Macro(List.of(), "status>=500")));
  private final SavedSearches saved =
      new SavedSearches(
          Map.of(
              "errors", "index=main status>=500",
              "by code", "index=$idx$ status=$code$",
              "blocked ips", "index=blocked | fields clientip",
              "outer", "| savedsearch errors | head 1",
              "with macro", "index=web `errors`",
              "loop", "| savedsearch loop2",
              "loop2", "| savedsearch loop"));

  private String expand(String query) {
    return saved.expand(query, macros::expand);
  }

  @Test
  void replacesALeadingSavedSearchAndKeepsThePipelineAfterIt() {
    assertThat(expand("| savedsearch errors | stats count"))
        .isEqualTo("index=main status>=500 | stats count");
    assertThat(expand("  |  SavedSearch errors")).isEqualTo("index=main status>=500 ");
    assertThat(expand("savedsearch errors"))
        .as("the leading | is optional, as for any generator")
        .isEqualTo("index=main status>=500 ");
  }

  @Test
  void substitutesArgumentsUnlessToldNotTo() {
    assertThat(expand("| savedsearch \"by code\" idx=web code=404"))
        .isEqualTo("index=web status=404 ");
    assertThat(expand("| savedsearch \"by code\" idx=\"we b\" code=404 nosubstitution=true"))
        .isEqualTo("index=$idx$ status=$code$ ");
    assertThat(expand("| savedsearch \"by code\" idx=web"))
        .as("a token without a value stays as written")
        .isEqualTo("index=web status=$code$ ");
  }

  @Test
  void expandsInsideSubsearchesNestedSavedSearchesAndMacros() {
    assertThat(expand("index=main [| savedsearch \"blocked ips\"] | stats count"))
        .isEqualTo("index=main [index=blocked | fields clientip ] | stats count");
    assertThat(expand("| savedsearch outer | stats count"))
        .isEqualTo("index=main status>=500 | head 1 | stats count");
    assertThat(expand("| savedsearch \"with macro\"")).isEqualTo("index=web status>=500 ");
  }

  @Test
  void leavesOtherTextAlone() {
    for (String query :
        List.of(
            "index=main | savedsearch errors",
            "index=main \"[| savedsearch errors]\"",
            "| savedsearches errors",
            "index=main savedsearch")) {
      assertThat(expand(query)).as(query).isEqualTo(query);
    }
  }

  @Test
  void namesWhatIsWrongAndWhere() {
    assertThatThrownBy(() -> expand("| savedsearch nope | head 1"))
        .isInstanceOf(QueryParseException.class)
        .hasMessage("Unknown saved search 'nope'")
        .extracting(e -> ((QueryParseException) e).position().offset())
        .isEqualTo(14);
    assertThatThrownBy(() -> expand("| savedsearch loop"))
        .isInstanceOf(QueryParseException.class)
        .hasMessage("Saved search 'loop' runs itself (loop → loop2 → loop)");
    assertThatThrownBy(() -> expand("| savedsearch"))
        .isInstanceOf(QueryParseException.class)
        .hasMessage("savedsearch needs the name of a saved search");
    assertThatThrownBy(() -> expand("| savedsearch errors bogus"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("not 'bogus'");
    assertThatThrownBy(() -> expand("| savedsearch errors nosubstitution=maybe"))
        .isInstanceOf(QueryParseException.class)
        .hasMessage("nosubstitution must be true or false, not 'maybe'");
  }
}
