package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.InputLookupCommand;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.OutputLookupCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.exec.SubPipeline;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.SubsearchParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code appendpipe [run_in_preview=<bool>] [<command> | …]}: the results pass through, and after
 * them come the results of the bracketed commands run over all of them ({@code appendpipe [stats
 * sum(count) AS count | eval host="TOTAL"]}). Centralized: every result is held (counted as memory)
 * until the end, when the commands run ({@link SubPipeline}). The bracketed commands are parsed
 * with the query (the parsed pipeline rides in the arguments); lookups, subsearches and plugin
 * commands inside are a parse error.
 */
final class AppendPipeCommand implements CommandDefinition, CustomSyntax {

  @Override
  public String name() {
    return "appendpipe";
  }

  @Override
  public String description() {
    return "Appends the results of a pipeline run over the current results.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public String syntax() {
    return "appendpipe [run_in_preview=<bool>] [<command> | ...]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
            "run_in_preview", ArgumentType.BOOLEAN, "true", "accepted; previews are not run"),
        ArgumentSpec.required("pipeline", ArgumentType.STRING, "the commands in '[ ]'"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    boolean preview = true;
    while (Syntax.atOption(reader)) {
      Token key = reader.next();
      if (!key.text().equalsIgnoreCase("run_in_preview")) {
        throw reader.error(
            key, "Unknown option '" + key.text() + "' for appendpipe", "run_in_preview");
      }
      reader.next();
      preview = Syntax.bool(reader, reader.readValue("true or false"));
    }
    if (!reader.at(TokenType.LBRACKET)) {
      throw reader.unexpected(reader.peek(), "a pipeline in '[ ]'");
    }
    Token open = reader.peek();
    Query inner = SubsearchParser.readPipeline(reader);
    List<Command> commands = inner.commands().subList(1, inner.commands().size());
    for (Command command : commands) {
      if (command instanceof SubsearchCommand
          || command instanceof LookupCommand
          || command instanceof OutputLookupCommand
          || command instanceof InputLookupCommand
          || command instanceof PluginCommand plugin
              && (!plugin.plugin().equals("built-in")
                  || io.quarry.ql.plan.WritesEvents.mayWrite(plugin))) {
        throw reader.error(
            open,
            "appendpipe cannot run '"
                + command.name()
                + "' yet (lookups, subsearches, map, collect and plugin"
                + " commands inside appendpipe are not supported)",
            "other commands");
      }
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after ']'");
    }
    return new CommandArguments(
        Map.of("run_in_preview", preview, "pipeline", new Pipeline(List.copyOf(commands))),
        List.of());
  }

  /** The parsed commands, carried in the arguments (their text is written back by SplText). */
  record Pipeline(List<Command> commands) {
    @Override
    public String toString() {
      return SplText.pipeline(commands);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Pipeline that && toString().equals(that.toString());
    }

    @Override
    public int hashCode() {
      return toString().hashCode();
    }
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    Object pipeline = arguments.values().get("pipeline");
    if (!(pipeline instanceof Pipeline parsed)) {
      throw new IllegalArgumentException("appendpipe needs its commands in '[ ]'");
    }
    return new Bound(arguments.getBoolean("run_in_preview"), parsed.commands());
  }

  record Bound(boolean runInPreview, List<Command> commands) implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of();
    }

    @Override
    public String splArguments() {
      return (runInPreview ? "" : "run_in_preview=f ") + "[" + SplText.pipeline(commands) + "]";
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Bound that && splArguments().equals(that.splArguments());
    }

    @Override
    public int hashCode() {
      return splArguments().hashCode();
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      List<Page> held = new ArrayList<>();
      return new QueueOperator(factory, "appendpipe") {
        @Override
        protected void process(Page page) {
          long bytes = 0;
          for (Block block : page.blocks()) {
            bytes += block.ramBytesUsed();
          }
          reserve(bytes); // the held copy's share: the page itself goes on
          held.add(page);
          emit(page);
        }

        @Override
        protected void onFinish() {
          for (Page page : SubPipeline.run(commands, held, context)) {
            emit(page);
          }
          held.clear();
          releaseReserved();
        }
      };
    }
  }
}
