package io.quarry.ql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.command.CommandRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MacrosTest {
  private final Macros macros =
      new Macros(
          Map.of(
              "errors", new Macros.Macro(List.of(), "status>=500"),
              "by(1)", new Macros.Macro(List.of("f"), "stats count by $f$"),
              "between(2)", new Macros.Macro(List.of("lo", "hi"), "bytes>=$lo$ bytes<$hi$"),
              "web_errors", new Macros.Macro(List.of(), "index=web `errors`"),
              "loop", new Macros.Macro(List.of(), "a `loop2`"),
              "loop2", new Macros.Macro(List.of(), "b `loop`")));

  @Test
  void expandsNamesArgumentsAndNestedMacros() {
    assertThat(macros.expand("index=web `errors` | `by(clientip)`"))
        .isEqualTo("index=web status>=500 | stats count by clientip");
    assertThat(macros.expand("`between(100, 2000)`")).isEqualTo("bytes>=100 bytes<2000");
    assertThat(macros.expand("`web_errors` | head 1")).isEqualTo("index=web status>=500 | head 1");
    assertThat(macros.expand("`by(\"a,b\")`"))
        .as("a comma inside quotes is part of the argument")
        .isEqualTo("stats count by \"a,b\"");
    assertThat(macros.expand("no macros here")).isEqualTo("no macros here");
  }

  @Test
  void backticksInQuotesAndCommentsAreText() {
    assertThat(macros.expand("\"`errors`\" ```a `comment` here``` `errors`"))
        .isEqualTo("\"`errors`\" ```a `comment` here``` status>=500");
  }

  @Test
  void anUnknownMacroIsAnErrorNamingItNeverASearchTerm() {
    assertThatThrownBy(() -> macros.expand("index=web `nope` | head 1"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("Unknown search macro 'nope'")
        .satisfies(e -> assertThat(((QueryParseException) e).position().column()).isEqualTo(11));
    assertThatThrownBy(() -> macros.expand("`by`"))
        .hasMessageContaining("Unknown search macro 'by'")
        .hasMessageContaining("defined: by(1)");
    assertThatThrownBy(() -> new Parser(CommandRegistry.builtIns()).parse("index=web `errors`"))
        .as("a parser without macros refuses them too")
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("Unknown search macro 'errors'");
  }

  @Test
  void cyclesAndUnterminatedCallsAreErrors() {
    assertThatThrownBy(() -> macros.expand("`loop`"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("expands into itself (loop → loop2 → loop)");
    assertThatThrownBy(() -> macros.expand("index=web `errors"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("unterminated macro call");
    Macros doubling =
        new Macros(
            Map.of(
                "d0", new Macros.Macro(List.of(), "x".repeat(5000)),
                "d1", new Macros.Macro(List.of(), "`d0``d0``d0``d0``d0``d0``d0``d0`"),
                "d2", new Macros.Macro(List.of(), "`d1``d1``d1``d1``d1``d1``d1``d1`"),
                "d3", new Macros.Macro(List.of(), "`d2``d2``d2``d2``d2``d2``d2``d2`")));
    assertThatThrownBy(() -> doubling.expand("`d3`"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("longer than");
  }

  @Test
  void definitionsAreChecked() {
    assertThatThrownBy(() -> new Macros(Map.of("m(2)", new Macros.Macro(List.of("a"), "x=$a$"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("takes 2 arguments but names 1");
    assertThatThrownBy(() -> new Macros(Map.of("bad name", new Macros.Macro(List.of(), "x"))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theParserParsesTheExpandedSearch() {
    Parser parser = new Parser(CommandRegistry.builtIns(), macros);
    assertThat(parser.expand("`web_errors` | `by(host)`"))
        .isEqualTo("index=web status>=500 | stats count by host");
    assertThat(parser.parse("`web_errors` | `by(host)`").commands()).hasSize(2);
  }
}
