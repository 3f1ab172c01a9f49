package io.quarry.codecs.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The setting's configuration names. */
class JournalCompressionTest {
  @Test
  void parsesEveryConfigurationName() {
    assertThat(JournalCompression.fromName("zstd")).isEqualTo(JournalCompression.ZSTD);
    assertThat(JournalCompression.fromName(" LZ4 ")).isEqualTo(JournalCompression.LZ4);
    assertThat(JournalCompression.fromName("none")).isEqualTo(JournalCompression.NONE);
    assertThat(JournalCompression.fromName("Zstd-Lz4")).isEqualTo(JournalCompression.ZSTD_LZ4);
    assertThat(JournalCompression.fromName("none-zstd")).isEqualTo(JournalCompression.NONE_ZSTD);
    for (JournalCompression compression : JournalCompression.values()) {
      assertThat(JournalCompression.fromName(compression.configName())).isEqualTo(compression);
    }
  }

  @Test
  void refusesAnUnknownName() {
    assertThatThrownBy(() -> JournalCompression.fromName("zstd_lz4"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zstd-lz4")
        .hasMessageContaining("none-zstd");
  }

  @Test
  void noneZstdWritesFastSegmentsUncompressedAndCompactOnesInZstd() {
    assertThat(JournalCompression.NONE_ZSTD.codec(false)).isEqualTo(JournalCodec.NONE);
    assertThat(JournalCompression.NONE_ZSTD.codec(true)).isEqualTo(JournalCodec.ZSTD);
  }
}
