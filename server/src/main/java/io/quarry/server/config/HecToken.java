package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/**
 * One HEC token: the secret, a name for logs and metrics, the index for events that name none, the
 * indexes it may write ({@code *} for all), and whether indexer acknowledgement is on (then
 * requests need a channel and answers carry an {@code ackId}).
 */
public record HecToken(
    @JsonProperty("token") String token,
    @JsonProperty("name") String name,
    @JsonProperty("defaultIndex") String defaultIndex,
    @JsonProperty("indexes") List<String> indexes,
    @JsonProperty("ack") Boolean ack) {
  public HecToken {
    ack = Objects.requireNonNullElse(ack, false);
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("hec.tokens[].token must be set");
    }
    name = Objects.requireNonNullElse(name, "token");
    defaultIndex = Objects.requireNonNullElse(defaultIndex, QuarryConfig.DEFAULT_INDEX);
    indexes = indexes == null ? List.of(defaultIndex) : List.copyOf(indexes);
  }

  /** Never the token itself: its name says which one. */
  @Override
  public String toString() {
    return "HecToken[name="
        + name
        + ", defaultIndex="
        + defaultIndex
        + ", indexes="
        + indexes
        + ", ack="
        + ack
        + "]";
  }

  /** Whether the token may write to an index; {@code *} covers all but internal ones. */
  public boolean mayWrite(String index) {
    return indexes.contains(index) || (indexes.contains("*") && !index.startsWith("_"));
  }
}
