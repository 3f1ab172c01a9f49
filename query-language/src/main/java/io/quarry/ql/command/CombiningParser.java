package io.quarry.ql.command;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.SortKey;
import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.WhereCommand;
import io.quarry.ql.parser.SubsearchParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code | multisearch [search …] [search …] …} and {@code union [maxout=N] [maxtime=S] [search …]
 * …}, written as the commands Quarry already runs: the first subsearch's commands begin the query,
 * each other subsearch is an {@code append} of its rows (run before the search, as subsearches
 * are), and when every subsearch only streams — which {@code multisearch} requires — a {@code sort
 * 0 -_time} merges them newest first, as Splunk interleaves them by time. A {@code union} after
 * other commands appends its subsearches' rows to the results. The query a job shows is this
 * expansion.
 */
final class CombiningParser implements PipelineParser {
  /** multisearch's datasets have no row limit of their own (memory still bounds them). */
  static final long UNLIMITED_ROWS = Integer.MAX_VALUE;

  /** Nor a time limit shorter than a week (the search's own limit still applies). */
  static final long UNLIMITED_SECONDS = 7 * 86_400;

  private final boolean multisearch;

  CombiningParser(boolean multisearch) {
    this.multisearch = multisearch;
  }

  @Override
  public List<Command> parse(TokenReader reader, Token name, boolean first) {
    String command = multisearch ? "multisearch" : "union";
    if (multisearch && !first) {
      throw reader.error(
          name,
          "'multisearch' generates rows: it can only be the first command (| multisearch …)",
          "a command that takes rows");
    }
    long maxOut = multisearch ? UNLIMITED_ROWS : SubsearchCommand.Kind.APPEND.defaultMaxOut();
    long maxTime = multisearch ? UNLIMITED_SECONDS : SubsearchCommand.DEFAULT_MAX_TIME_SECONDS;
    List<Subsearch> subsearches = new ArrayList<>();
    while (!reader.atCommandEnd()) {
      if (SubsearchParser.at(reader)) {
        subsearches.add(SubsearchParser.read(reader));
      } else if (!multisearch && Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, command, Set.of("maxout", "maxtime"));
        long value = Arguments.count(reader, option.value(), "union " + option.name());
        if (value < 1) {
          throw reader.error(option.value(), option.name() + " must be at least 1", "a number");
        }
        if (option.name().equals("maxout")) {
          maxOut = value;
        } else {
          maxTime = value;
        }
      } else {
        throw reader.unexpected(
            reader.peek(),
            "a subsearch in '[ ]'"
                + (multisearch ? "" : " or maxout=/maxtime= (datasets by name are not supported)"));
      }
    }
    int least = multisearch ? 2 : 1;
    if (subsearches.size() < least) {
      throw reader.error(
          name,
          command + " needs at least " + least + " subsearch" + (least == 1 ? "" : "es"),
          "[search …] [search …]");
    }
    boolean streaming = subsearches.stream().allMatch(s -> streaming(s.query().commands()));
    if (multisearch && !streaming) {
      Subsearch offending =
          subsearches.stream().filter(s -> !streaming(s.query().commands())).findFirst().get();
      throw reader.error(
          reader.peek(),
          "multisearch subsearches may only stream (search, eval, where, rex, rename, fields,"
              + " lookup, bin …): "
              + offending.describe()
              + " does not",
          "streaming commands");
    }
    List<Command> commands = new ArrayList<>();
    List<Subsearch> appended = subsearches;
    if (first) {
      commands.addAll(subsearches.get(0).query().commands());
      appended = subsearches.subList(1, subsearches.size());
    }
    for (Subsearch subsearch : appended) {
      commands.add(
          new SubsearchCommand(
              SubsearchCommand.Kind.APPEND,
              maxOut,
              maxTime,
              null,
              false,
              streaming(subsearch.query().commands()) ? everyField(subsearch) : subsearch,
              null,
              subsearch.position()));
    }
    if (first && streaming && subsearches.size() > 1) {
      commands.add(
          new SortCommand(
              Long.MAX_VALUE,
              List.of(new SortKey("_time", true, SortKey.Mode.AUTO)),
              name.position()));
    }
    return commands;
  }

  /**
   * An event subsearch whose rows carry every field, search-time extracted ones too ({@code |
   * fields *}): its rows are appended as they are, so a later {@code table id} finds {@code id} in
   * them as it does in the first search's events.
   */
  private static Subsearch everyField(Subsearch subsearch) {
    List<Command> commands = new ArrayList<>(subsearch.query().commands());
    commands.add(new ProjectCommand(ProjectCommand.Kind.KEEP, List.of("*"), subsearch.position()));
    String text = subsearch.text() + " | fields *";
    return new Subsearch(
        new io.quarry.ql.ast.Query(text, commands),
        text,
        subsearch.start(),
        subsearch.end(),
        subsearch.position());
  }

  /** Whether every command of a subsearch handles one row at a time. */
  private static boolean streaming(List<Command> commands) {
    return commands.stream()
        .allMatch(
            c ->
                c instanceof SearchCommand
                    || c instanceof EvalCommand
                    || c instanceof WhereCommand
                    || c instanceof RexCommand
                    || c instanceof RenameCommand
                    || c instanceof ProjectCommand project
                        && project.kind() != ProjectCommand.Kind.TABLE
                    || c instanceof LookupCommand
                    || c instanceof BinCommand
                    || c instanceof PluginCommand plugin && plugin.kind() == CommandKind.STREAMING);
  }
}
