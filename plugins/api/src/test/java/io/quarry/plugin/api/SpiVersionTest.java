package io.quarry.plugin.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SpiVersionTest {
  @Test
  void aPluginRunsOnTheSameMajorWithAMinorUpToOurs() {
    assertThat(SpiVersion.current()).isEqualTo(SpiVersion.MAJOR + "." + SpiVersion.MINOR);
    assertThat(SpiVersion.supports(SpiVersion.current())).isTrue();
    assertThat(SpiVersion.supports(String.valueOf(SpiVersion.MAJOR))).isTrue();
    assertThat(SpiVersion.supports(SpiVersion.MAJOR + "." + (SpiVersion.MINOR + 1))).isFalse();
    assertThat(SpiVersion.supports((SpiVersion.MAJOR + 1) + ".0")).isFalse();
    assertThat(SpiVersion.supports((SpiVersion.MAJOR - 1) + ".9")).isFalse();
    assertThatThrownBy(() -> SpiVersion.supports("one")).hasMessageContaining("not a version");
  }
}
