package com.example.quarry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarry.plugin.testing.CommandTester;
import io.quarry.plugin.testing.PluginTestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExamplePluginTest {
  private final CommandTester tester = CommandTester.of(new ExamplePlugin());

  @Test
  void masksAllButTheLastCharacters() {
    var result = tester.run("mask field=card", List.of(Map.of("card", "4111111111111111"), Map.of("card", "12")));
    assertEquals(List.of("************1111", "12"), result.column("card"));
  }

  @Test
  void rejectsANegativeKeep() {
    var error = assertThrows(RuntimeException.class, () -> tester.parse("mask field=card keep=-1"));
    assertEquals(true, error.getMessage().contains("keep must not be negative"));
  }

  @Test
  void countsValuesAcrossMapOperators() {
    var result =
        tester.run(
            "valuecount field=status",
            List.of(Map.of("status", "200"), Map.of("status", "404"), Map.of("status", "200")));
    assertEquals(List.of(Map.of("status", "200", "count", 2L), Map.of("status", "404", "count", 1L)), result.rows());
  }

  @Test
  void worksInARealSearch(@TempDir Path data) throws Exception {
    try (PluginTestServer server = PluginTestServer.start(data, new ExamplePlugin())) {
      server.load("generic_single_line", List.of("2026-01-07T10:00:00Z card=4111111111111111 status=200"));
      var rows = server.search("* | mask field=card | valuecount field=card").rows();
      assertEquals(List.of(Map.of("card", "************1111", "count", "1")), rows);
    }
  }
}
