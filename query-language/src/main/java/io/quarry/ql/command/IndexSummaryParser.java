package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EventCountCommand;
import io.quarry.ql.ast.MetadataCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The generating commands that summarise indexes from what they hold: {@code | metadata
 * type=hosts|sources|sourcetypes [index=…]…}, {@code | eventcount [index=…]… [summarize=<bool>]}
 * and {@code | dbinspect [index=…]…}. {@code index=} may repeat; Splunk's distributed-search
 * options are accepted and change nothing ({@code splunk_server}, {@code splunk_server_group},
 * {@code list_vix}, {@code datatype=event}, dbinspect's {@code cached}).
 */
final class IndexSummaryParser implements CommandParser {
  /** Which command this parser reads. */
  enum Kind {
    METADATA,
    EVENTCOUNT,
    DBINSPECT
  }

  private final boolean metadata;
  private final Kind kind;

  IndexSummaryParser(Kind kind) {
    this.kind = kind;
    this.metadata = kind == Kind.METADATA;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    Set<String> known =
        kind == Kind.DBINSPECT
            ? Set.of(
                "index", "splunk_server", "splunk_server_group", "cached", "corruptonly", "span")
            : metadata
                ? Set.of("type", "index", "splunk_server", "splunk_server_group", "datatype")
                : Set.of(
                    "index",
                    "summarize",
                    "splunk_server",
                    "splunk_server_group",
                    "list_vix",
                    "report_size");
    List<String> indexes = new ArrayList<>();
    String type = null;
    Token typeToken = null;
    boolean summarize = true;
    while (!reader.atCommandEnd()) {
      if (!Arguments.atOption(reader)) {
        throw reader.unexpected(reader.peek(), "an option such as index=main");
      }
      Arguments.Option option = Arguments.option(reader, name.text(), known);
      switch (option.name()) {
        case "index" -> indexes.add(option.value().text());
        case "type" -> {
          type = option.value().text().toLowerCase(Locale.ROOT);
          typeToken = option.value();
        }
        case "summarize" -> summarize = Arguments.bool(reader, option.value());
        case "report_size" -> {
          if (Arguments.bool(reader, option.value())) {
            throw reader.error(
                option.value(), "eventcount report_size=true is not supported", "false");
          }
        }
        case "datatype" -> {
          if (!option.value().text().equalsIgnoreCase("event")) {
            throw reader.error(
                option.value(), "metadata covers event indexes only", "datatype=event");
          }
        }
        case "corruptonly" -> {
          if (Arguments.bool(reader, option.value())) {
            throw reader.error(
                option.value(),
                "dbinspect corruptonly=true is not supported (a damaged bucket is quarantined when"
                    + " the index opens; see quarry fsck)",
                "corruptonly=false");
          }
        }
        case "span" ->
            throw reader.error(
                option.nameToken(),
                "dbinspect span= is not supported: it lists buckets, not time ranges",
                "index=<name>");
        default -> option.value(); // one server: nothing to choose between
      }
    }
    if (kind == Kind.DBINSPECT) {
      return new io.quarry.ql.ast.DbinspectCommand(indexes, name.position());
    }
    if (!metadata) {
      return new EventCountCommand(indexes, summarize, name.position());
    }
    if (type == null) {
      throw reader.error(name, "metadata needs type=hosts, sources or sourcetypes", "type=hosts");
    }
    String field =
        switch (type) {
          case "hosts" -> "host";
          case "sources" -> "source";
          case "sourcetypes" -> "sourcetype";
          default ->
              throw reader.error(
                  typeToken, "metadata type must be hosts, sources or sourcetypes", "type=hosts");
        };
    return new MetadataCommand(field, type, indexes, name.position());
  }
}
