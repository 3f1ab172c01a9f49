package io.quarry.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class RetiredPropertiesTest {
  @Test
  void eachRetiredCompactionPropertyNamesTheKeyReplacingIt() {
    Properties properties = new Properties();
    properties.setProperty("quarry.storage.compaction", "inline");
    properties.setProperty("quarry.storage.compactionIdleMillis", "100");
    properties.setProperty("quarry.storage.journalCompactLevel", "7"); // still read: no warning
    properties.setProperty("quarry.storage.compaction.mode", "inline"); // the harness's form
    assertThat(RetiredProperties.warnings(properties))
        .containsExactly(
            "-Dquarry.storage.compaction=inline is ignored: set storage.compaction.mode in"
                + " quarry.yml (or storage.indexes.<name>.compaction.mode for one index)",
            "-Dquarry.storage.compactionIdleMillis=100 is ignored: set"
                + " storage.compaction.idleMillis in quarry.yml (or"
                + " storage.indexes.<name>.compaction.idleMillis for one index)");
  }

  @Test
  void noWarningWithoutThem() {
    Properties properties = new Properties();
    properties.setProperty("quarry.home", "/opt/quarry");
    assertThat(RetiredProperties.warnings(properties)).isEmpty();
  }
}
