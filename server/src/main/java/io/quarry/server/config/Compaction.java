package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarry.codecs.store.CompactionSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * When hot buckets' journals are compacted ({@link CompactionSettings}; docs/design/block-index.md,
 * "Compaction out of the ingest window"): {@code storage.compaction}, each setting at {@link
 * CompactionSettings#DEFAULTS}'s unless given, and {@code storage.indexes.<name>.compaction}, whose
 * settings given override the section's one by one (those not given are null there).
 *
 * @param mode {@code deferred} (the default: compaction waits for idle, the bound or the roll) or
 *     {@code inline} (large merges compact as they run)
 * @param idleMillis a bucket no event was added to for this long is compacted
 * @param idleMinBytes the fast bytes an idle bucket holds at least for its compaction to start
 * @param pendingBytes a bucket whose fast segments hold this many bytes is compacted even while
 *     events arrive
 */
public record Compaction(
    @JsonProperty("mode") String mode,
    @JsonProperty("idleMillis") Long idleMillis,
    @JsonProperty("idleMinBytes") Long idleMinBytes,
    @JsonProperty("pendingBytes") Long pendingBytes) {
  public static final String DEFERRED = "deferred";
  public static final String INLINE = "inline";

  /** Every setting at its default. */
  static final Compaction DEFAULTS =
      new Compaction(
          DEFERRED,
          CompactionSettings.DEFAULTS.idle().toMillis(),
          CompactionSettings.DEFAULTS.idleMinBytes(),
          CompactionSettings.DEFAULTS.pendingBytes());

  /** These settings, each one not given taken from {@code under}. */
  Compaction over(Compaction under) {
    return new Compaction(
        Objects.requireNonNullElse(mode, under.mode),
        Objects.requireNonNullElse(idleMillis, under.idleMillis),
        Objects.requireNonNullElse(idleMinBytes, under.idleMinBytes),
        Objects.requireNonNullElse(pendingBytes, under.pendingBytes));
  }

  /** The settings of the store; every setting given (see {@link #over}) and checked. */
  CompactionSettings settings() {
    return new CompactionSettings(
        mode.equals(DEFERRED), Duration.ofMillis(idleMillis), idleMinBytes, pendingBytes);
  }
}
