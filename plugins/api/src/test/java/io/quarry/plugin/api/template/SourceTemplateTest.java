package io.quarry.plugin.api.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SourceTemplateTest {
  private static final String TEXT =
      String.join(
          "\n",
          "class $Type$Thing {",
          "$if(typed)$",
          "  DataType type;",
          "  $if(wide)$",
          "  long width;",
          "  $else$",
          "  int width;",
          "  $endif$",
          "$else$",
          "  // $doc$",
          "$endif$",
          "  $type$ get$Type$() { return $zero$; }",
          "}",
          "");

  @Test
  void namesAreReplacedAndSectionsKeptByFlag() {
    SourceTemplate template = new SourceTemplate("t", TEXT);
    Map<String, String> values =
        Map.of("Type", "Long", "type", "long", "zero", "0", "doc", "one\n  // two");

    assertThat(template.expand(values, Set.of("typed", "wide")))
        .isEqualTo(
            "class LongThing {\n  DataType type;\n  long width;\n  long getLong() { return 0; }\n}\n");
    assertThat(template.expand(values, Set.of("typed")))
        .isEqualTo(
            "class LongThing {\n  DataType type;\n  int width;\n  long getLong() { return 0; }\n}\n");
    // a nested section's else is not kept when its enclosing section is not
    assertThat(template.expand(values, Set.of("wide")))
        .isEqualTo("class LongThing {\n  // one\n  // two\n  long getLong() { return 0; }\n}\n");
  }

  @Test
  void aNameWithoutValueOrAnUnbalancedSectionIsAnError() {
    Map<String, String> values = Map.of("Type", "Long", "type", "long", "doc", "");
    assertThatThrownBy(() -> new SourceTemplate("t", TEXT).expand(values, Set.of()))
        .hasMessage("t:12: no value for $zero$");
    assertThatThrownBy(() -> new SourceTemplate("t", "a $b").expand(Map.of(), Set.of()))
        .hasMessage("t:1: a $ without its closing $");
    assertThatThrownBy(() -> new SourceTemplate("t", "$if(x)$\na").expand(Map.of(), Set.of()))
        .hasMessage("t: a section is not closed with $endif$");
    assertThatThrownBy(() -> new SourceTemplate("t", "a\n$endif$").expand(Map.of(), Set.of()))
        .hasMessage("t:2: no open $if$ section");
    assertThatThrownBy(
            () ->
                new SourceTemplate("t", "$if(x)$\n$else$\n$else$\n$endif$")
                    .expand(Map.of(), Set.of()))
        .hasMessage("t:3: a second $else$");
  }
}
