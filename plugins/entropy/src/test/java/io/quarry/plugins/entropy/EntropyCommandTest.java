package io.quarry.plugins.entropy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quarry.plugin.testing.CommandTester;
import io.quarry.plugin.testing.PluginTestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EntropyCommandTest {
  private final CommandTester tester = CommandTester.of(new EntropyPlugin());

  @Test
  void bitsPerCharacter() {
    assertThat(EntropyCommand.entropy("")).isZero();
    assertThat(EntropyCommand.entropy("aaaa")).isZero();
    assertThat(EntropyCommand.entropy("ab")).isEqualTo(1.0);
    assertThat(EntropyCommand.entropy("abcd")).isEqualTo(2.0);
    // google: g,o twice; l,e once → -(2·(1/3)log2(1/3) + 2·(1/6)log2(1/6)) = 1.918…
    assertThat(EntropyCommand.entropy("google")).isCloseTo(1.9183, within(1e-4));
    assertThat(EntropyCommand.entropy("😀😀ab")).isEqualTo(1.5); // code points, not UTF-16 units
  }

  @Test
  void scoresEachField() {
    var result =
        tester.run(
            "entropy domain path suffix=_h",
            List.of(
                Map.of("domain", "google", "path", "/"),
                Map.of("domain", "x8f2kq9zr1vb"),
                Map.of("n", 1L)));
    assertThat((Double) result.rows().get(0).get("domain_h")).isCloseTo(1.9183, within(1e-4));
    assertThat(result.rows().get(0)).containsEntry("path_h", 0.0);
    assertThat((Double) result.rows().get(1).get("domain_h")).isCloseTo(3.5850, within(1e-4));
    assertThat(result.rows().get(1)).doesNotContainKey("path_h");
    assertThat(result.rows().get(2)).containsOnlyKeys("n");
  }

  @Test
  void needsAField() {
    assertThatThrownBy(() -> tester.parse("entropy"))
        .hasMessageContaining("entropy needs at least one field");
    assertThatThrownBy(() -> tester.parse("entropy f suffix=\"\""))
        .hasMessageContaining("suffix must not be empty");
  }

  @Test
  void ranksDomainsInASearch(@TempDir Path data) throws Exception {
    try (PluginTestServer server = PluginTestServer.start(data, new EntropyPlugin())) {
      server.load(
          "generic_single_line",
          List.of(
              "2026-01-07T10:00:00Z dns query=google.com",
              "2026-01-07T10:00:01Z dns query=qx7v0zk3p9fj2m.biz",
              "2026-01-07T10:00:02Z dns query=facebook.com"));
      var rows =
          server.search("* | entropy query | sort -query_entropy | head 1 | table query").rows();
      assertThat(rows).containsExactly(Map.of("query", "qx7v0zk3p9fj2m.biz"));
    }
  }
}
