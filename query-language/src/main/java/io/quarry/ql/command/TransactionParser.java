package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.TransactionCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code transaction f, … [maxspan=S] [maxpause=S] [maxevents=N]}. */
final class TransactionParser implements CommandParser {
  private static final Set<String> OPTIONS =
      Set.of("maxspan", "maxpause", "maxevents", "startswith", "endswith", "keepevicted", "mvlist");

  @Override
  public Command parse(TokenReader reader, Token name) {
    List<String> fields = new ArrayList<>();
    long maxSpan = -1;
    long maxPause = -1;
    long maxEvents = 1000;
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, "transaction", OPTIONS);
        switch (option.name()) {
          case "maxspan" -> maxSpan = micros(reader, option);
          case "maxpause" -> maxPause = micros(reader, option);
          case "maxevents" -> {
            maxEvents = Arguments.count(reader, option.value(), "maxevents");
            if (maxEvents < 1) {
              throw reader.error(option.value(), "maxevents must be at least 1", "a number >= 1");
            }
          }
          default ->
              throw reader.error(
                  option.nameToken(),
                  "transaction " + option.name() + " is not supported yet",
                  "maxspan, maxpause or maxevents");
        }
      } else {
        fields.addAll(Arguments.fields(reader, Set.of()));
      }
    }
    if (fields.isEmpty()) {
      throw reader.error(
          name,
          "transaction needs the fields that tie events together (transaction Splunk's"
              + " field-less form, by startswith/endswith, is not supported yet)",
          "field names");
    }
    return new TransactionCommand(fields, maxSpan, maxPause, maxEvents, name.position());
  }

  /** A fixed time span ({@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}, {@code -1}: none). */
  private static long micros(TokenReader reader, Arguments.Option option) {
    String text = option.value().text();
    if (text.equals("-1")) {
      return -1;
    }
    Span span =
        Span.parse(text)
            .filter(s -> s.isTime() && s.unit() != ChronoUnit.MONTHS)
            .or(
                () ->
                    text.chars().allMatch(Character::isDigit)
                        ? Span.parse(text + "s")
                        : java.util.Optional.empty())
            .orElseThrow(
                () ->
                    reader.error(
                        option.value(),
                        option.name()
                            + " must be a time span like 30s, 5m, 1h or 2d, not '"
                            + text
                            + "'",
                        "a time span"));
    return span.unit().getDuration().multipliedBy(span.amount()).toNanos() / 1000;
  }
}
