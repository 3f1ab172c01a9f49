package io.quarry.ql.engine;

import io.quarry.plugin.api.template.Expansion;
import io.quarry.plugin.api.template.GeneratedSources;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code LongBlockCopies}, {@code DoubleBlockCopies} and {@code BooleanBlockCopies} are generated
 * from {@code src/main/templates/X-BlockCopies.java.tmpl}: this test fails when a committed one is
 * not the template's expansion. After editing the template: {@code ./mvnw -B -o -pl query-language
 * -am test -Dtest=GeneratedCopiesTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dquarry.regenerate=true}, then review the diff.
 */
class GeneratedCopiesTest {
  static final List<Expansion> COPIES =
      List.of(
          new Expansion(
              "LongBlockCopies.java",
              Map.of(
                  "Type",
                  "Long",
                  "type",
                  "long",
                  "newBuilder",
                  "newBuilder(factory, block, count)"),
              Set.of("typed")),
          new Expansion(
              "DoubleBlockCopies.java",
              Map.of(
                  "Type",
                  "Double",
                  "type",
                  "double",
                  "newBuilder",
                  "factory.newDoubleBlockBuilder(count)"),
              Set.of()),
          new Expansion(
              "BooleanBlockCopies.java",
              Map.of(
                  "Type",
                  "Boolean",
                  "type",
                  "boolean",
                  "newBuilder",
                  "factory.newBooleanBlockBuilder(count)"),
              Set.of()));

  @Test
  void theNumericAndBooleanCopiesAreTheirTemplatesExpansion() throws Exception {
    GeneratedSources.check(
        getClass(),
        Path.of("src/main/templates/X-BlockCopies.java.tmpl"),
        Path.of("src/main/java/io/quarry/ql/engine"),
        COPIES);
  }
}
