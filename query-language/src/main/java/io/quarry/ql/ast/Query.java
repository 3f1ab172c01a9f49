package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** A parsed query: its text and its commands in pipeline order. */
public record Query(String text, List<Command> commands) {
  public Query {
    requireNonNull(text, "text is null");
    commands = List.copyOf(requireNonNull(commands, "commands is null"));
  }
}
