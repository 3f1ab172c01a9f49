package io.quarry.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.sourcetype.KvMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sourcetype's {@code kvMode} in a configuration file: the five values Quarry reads compile, a
 * built-in's may be changed, and Splunk's {@code multi} (or a typo) stops the server from starting
 * with the value and the supported ones named.
 */
class KvModeConfigTest {
  @TempDir Path directory;

  @Test
  void theSupportedValuesCompileAndABuiltInsModeMayBeChanged() throws Exception {
    Path file = directory.resolve("quarry.yml");
    Files.writeString(
        file,
        """
        sourcetypes:
          api: {kvMode: json}
          legacy: {kvMode: auto_escaped}
          quiet: {kvMode: none}
          plain: {kvMode: auto}
          feed: {kvMode: xml}
          stash: {kvMode: auto}
        """);
    var sourcetypes = ConfigLoader.load(file, Map.of(), Map.of()).compiledSourcetypes();
    assertThat(sourcetypes.forName("api").kvMode()).isEqualTo(KvMode.JSON);
    assertThat(sourcetypes.forName("legacy").kvMode()).isEqualTo(KvMode.AUTO_ESCAPED);
    assertThat(sourcetypes.forName("quiet").kvMode()).isEqualTo(KvMode.NONE);
    assertThat(sourcetypes.forName("plain").kvMode()).isEqualTo(KvMode.AUTO);
    assertThat(sourcetypes.forName("feed").kvMode()).isEqualTo(KvMode.XML);
    assertThat(sourcetypes.forName("stash").kvMode()).isEqualTo(KvMode.AUTO); // configured
    assertThat(sourcetypes.forName("unconfigured").kvMode()).isEqualTo(KvMode.AUTO);
    assertThat(sourcetypes.forName("audittrail").kvMode()).isEqualTo(KvMode.NONE); // built-in
  }

  @Test
  void anUnsupportedValueStopsTheConfiguration() throws Exception {
    Path file = directory.resolve("quarry.yml");
    for (String value : new String[] {"multi", "'multi:ps'", "Auto", "kv"}) {
      Files.writeString(file, "sourcetypes:\n  tables:\n    kvMode: " + value + "\n");
      String unquoted = value.replace("'", "");
      assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
          .as(value)
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("sourcetype 'tables'")
          .hasMessageContaining("kvMode '" + unquoted + "' is not supported")
          .hasMessageContaining("use one of none, auto, auto_escaped, json, xml");
    }
  }
}
