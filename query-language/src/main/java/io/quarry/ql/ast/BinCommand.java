package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code bin span=S field [AS new]} (also {@code bucket}): replaces a time field by the start of
 * its span, or a number by its range label {@code low-high}.
 */
public record BinCommand(String field, Span span, String as, Position position) implements Command {
  public BinCommand {
    requireNonNull(field, "field is null");
    requireNonNull(span, "span is null");
    requireNonNull(as, "as is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "bin";
  }
}
