package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A search macro as Splunk's {@code macros.conf} stanza: its definition, with {@code $arg$} for
 * each of {@code args}. Its key in {@code search.macros} is {@code name} or {@code name(n)}.
 */
public record MacroSettings(
    @JsonProperty("definition") String definition, @JsonProperty("args") List<String> args) {
  public MacroSettings {
    if (definition == null) {
      throw new IllegalArgumentException("a search macro needs a definition");
    }
    args = args == null ? List.of() : List.copyOf(args);
  }
}
