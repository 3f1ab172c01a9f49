package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The HTTP Event Collector. */
public record Hec(@JsonProperty("tokens") List<HecToken> tokens) {
  public Hec {
    tokens = tokens == null ? List.of() : List.copyOf(tokens);
  }
}
