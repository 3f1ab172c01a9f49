package io.quarry.plugin.api.data;

import io.quarry.plugin.api.template.Expansion;
import io.quarry.plugin.api.template.GeneratedSources;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link LongBlock}, {@link DoubleBlock} and {@link BooleanBlock} are generated from {@code
 * src/main/templates/X-Block.java.tmpl}: this test fails when a committed one is not the template's
 * expansion. After editing the template: {@code ./mvnw -B -o -pl plugins/api test
 * -Dtest=GeneratedBlocksTest -Dquarry.regenerate=true}, then review the diff.
 */
class GeneratedBlocksTest {
  static final List<Expansion> BLOCKS =
      List.of(
          new Expansion(
              "LongBlock.java",
              Map.of(
                  "Type", "Long",
                  "type", "long",
                  "Boxed", "Long",
                  "doc",
                      "/**\n"
                          + " * A block of 64-bit integers; also the physical form of {@link"
                          + " DataType#TIMESTAMP} columns. See\n"
                          + " * {@link Block} for positions with several values.\n"
                          + " */",
                  "dataType", "dataType",
                  "dataTypeRefused", "dataType != DataType.LONG && dataType != DataType.TIMESTAMP",
                  "dataTypeRefusal", "a long block holds LONG or TIMESTAMP, not ",
                  "valueBytes", "8L * values.length",
                  "nullSlot", "0"),
              Set.of("typed")),
          new Expansion(
              "DoubleBlock.java",
              Map.of(
                  "Type", "Double",
                  "type", "double",
                  "Boxed", "Double",
                  "doc",
                      "/**\n"
                          + " * A block of 64-bit floating point numbers. See {@link Block} for positions"
                          + " with several values.\n"
                          + " */",
                  "dataType", "DataType.DOUBLE",
                  "valueBytes", "8L * values.length",
                  "nullSlot", "0"),
              Set.of()),
          new Expansion(
              "BooleanBlock.java",
              Map.of(
                  "Type", "Boolean",
                  "type", "boolean",
                  "Boxed", "Boolean",
                  "doc",
                      "/** A block of booleans, one byte per value. See {@link Block} for positions"
                          + " with several values. */",
                  "dataType", "DataType.BOOLEAN",
                  "valueBytes", "values.length",
                  "nullSlot", "false"),
              Set.of()));

  @Test
  void theNumericAndBooleanBlocksAreTheirTemplatesExpansion() throws Exception {
    GeneratedSources.check(
        getClass(),
        Path.of("src/main/templates/X-Block.java.tmpl"),
        Path.of("src/main/java/io/quarry/plugin/api/data"),
        BLOCKS);
  }
}
