package io.quarry.server.config;

import static io.quarry.server.config.QuarryConfig.AUDIT_INDEX;
import static io.quarry.server.config.QuarryConfig.DEFAULT_INDEX;
import static io.quarry.server.config.QuarryConfig.INTERNAL_INDEX;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The checks of the {@code indexes} list: {@code main} always in it, Quarry's own indexes never,
 * and {@code storage.indexes} naming only indexes that exist.
 */
final class IndexesSettings {
  private IndexesSettings() {}

  /** The configured indexes with {@code main} first unless named; just {@code main} when unset. */
  static List<String> withMain(List<String> indexes) {
    if (indexes == null) {
      return List.of(DEFAULT_INDEX);
    }
    if (indexes.contains(DEFAULT_INDEX)) {
      return List.copyOf(indexes);
    }
    return Stream.concat(Stream.of(DEFAULT_INDEX), indexes.stream()).toList();
  }

  /** Checks the index list against Quarry's own indexes and the indexes storage has settings of. */
  static void check(List<String> indexes, Set<String> withStorageSettings) {
    for (String index : indexes) {
      if (index.equalsIgnoreCase(INTERNAL_INDEX) || index.equalsIgnoreCase(AUDIT_INDEX)) {
        throw new IllegalArgumentException(
            "indexes: '"
                + index
                + "' is Quarry's own index and always exists; HEC tokens cannot write it");
      }
    }
    for (String index : withStorageSettings) {
      if (!indexes.contains(index) && !index.equals(INTERNAL_INDEX) && !index.equals(AUDIT_INDEX)) {
        throw new IllegalArgumentException(
            "storage.indexes has settings for '" + index + "', which is not in indexes");
      }
    }
  }
}
