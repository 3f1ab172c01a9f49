package io.quarry.ql.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What searches run for another wrote ({@code collect} in its subsearches, which run while it is
 * planned): the events and the indexes they went to.
 *
 * @param events the events written
 * @param indexes the indexes written, in the order first written
 */
public record Collected(long events, List<String> indexes) {
  /** Nothing written. */
  public static final Collected NONE = new Collected(0, List.of());

  public Collected {
    indexes = List.copyOf(requireNonNull(indexes, "indexes is null"));
  }
}
