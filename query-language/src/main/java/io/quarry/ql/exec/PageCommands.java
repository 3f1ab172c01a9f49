package io.quarry.ql.exec;

import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.FormatCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ReturnCommand;
import io.quarry.ql.ast.SubsearchCommand;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The built-in commands written as page operators ({@code format}, {@code return}, {@code append},
 * {@code appendcols}, {@code join}): each as a {@link PluginCommand} whose operator the page engine
 * drives through the plugin protocol ({@link PluginOperators}). All are centralized (they run once,
 * over the whole input in order).
 */
public final class PageCommands {
  private PageCommands() {}

  /** The runnable command of a page command. */
  public static PluginCommand of(Command command) {
    return switch (command) {
      case FormatCommand format ->
          builtIn(format, BoundCommand.ALL_FIELDS, false, c -> new FormatOperator(format, c));
      case ReturnCommand ret -> {
        Set<String> fields = new LinkedHashSet<>();
        ret.items().forEach(item -> fields.add(item.field()));
        yield builtIn(ret, fields, false, c -> new ReturnOperator(ret, c));
      }
      case SubsearchCommand sub -> subsearch(sub);
      default -> throw new IllegalArgumentException("not a page command: " + command.name());
    };
  }

  /**
   * The page engine's runnable command of a page command: {@code join} as {@link HashJoinOperator}
   * and {@code appendcols} as {@link PairedColumnsOperator}, which answer whole pages (every input
   * column carried, no hidden row column); the others as {@link #of}.
   */
  public static PluginCommand onPages(Command command) {
    if (!(command instanceof SubsearchCommand sub) || sub.kind() == SubsearchCommand.Kind.APPEND) {
      return of(command);
    }
    PluginCommand rows = subsearch(sub); // checks the subsearch ran; its fields, for explain
    return switch (sub.kind()) {
      case APPENDCOLS ->
          builtIn(
              sub,
              rows.bound().requiredFields(),
              true,
              c -> new PairedColumnsOperator(sub.result(), sub.override(), c));
      case JOIN ->
          builtIn(
              sub,
              rows.bound().requiredFields(),
              true,
              c -> new HashJoinOperator(sub.join(), sub.result(), c));
      case APPEND -> rows;
    };
  }

  private static PluginCommand subsearch(SubsearchCommand sub) {
    if (sub.result() == null) {
      throw new IllegalStateException(
          sub.subsearch().describe() + " of " + sub.name() + " did not run (a planner bug)");
    }
    return switch (sub.kind()) {
      case APPEND -> builtIn(sub, Set.of(), true, c -> new AppendOperator(sub.result(), c));
      case APPENDCOLS ->
          builtIn(
              sub,
              columns(sub),
              true,
              c -> new AppendColsOperator(sub.result(), sub.override(), c));
      case JOIN -> {
        Set<String> fields = sub.join().fields().isEmpty() ? BoundCommand.ALL_FIELDS : columns(sub);
        if (fields != BoundCommand.ALL_FIELDS) {
          fields.addAll(sub.join().fields());
        }
        yield builtIn(
            sub, fields, true, c -> HashJoinOperator.joinedColumns(sub.join(), sub.result(), c));
      }
    };
  }

  /**
   * The fields a {@code join} of named fields sets on each row it answers, in the order they are
   * laid over the row (the subsearch's columns but the join fields): the matched subsearch row's
   * value or the row's own — its value where the row has one, search-time ones included ({@link
   * HashJoinOperator} reads them all) —, none where neither has one; null for a join without named
   * fields (its fields grow row by row, {@link JoinFields}) or of another kind.
   */
  public static List<String> joinedFields(SubsearchCommand sub) {
    if (sub.kind() != SubsearchCommand.Kind.JOIN
        || sub.join().fields().isEmpty()
        || sub.result() == null) {
      return null;
    }
    Set<String> set = columns(sub);
    set.removeAll(sub.join().fields());
    return List.copyOf(set);
  }

  /** The subsearch's columns: an operator reads the row's own values of them. */
  private static Set<String> columns(SubsearchCommand sub) {
    Set<String> names = new LinkedHashSet<>();
    sub.result().pages().forEach(p -> p.schema().columns().forEach(c -> names.add(c.name())));
    names.remove(PluginOperators.ROW_COLUMN);
    return names;
  }

  private static PluginCommand builtIn(
      Command command,
      Set<String> required,
      boolean pageAtATime,
      Function<OperatorContext, Operator> operator) {
    BoundCommand bound =
        pageAtATime ? new OrderedBound(required, operator) : new Bound(required, operator);
    return new PluginCommand(
        command.name(),
        "built-in",
        CommandKind.CENTRALIZED,
        new CommandArguments(Map.of(), List.of()),
        bound,
        command.position());
  }

  private static class Bound implements BoundCommand {
    private final Set<String> required;
    private final Function<OperatorContext, Operator> operator;

    Bound(Set<String> required, Function<OperatorContext, Operator> operator) {
      this.required = Set.copyOf(required);
      this.operator = operator;
    }

    @Override
    public Set<String> requiredFields() {
      return required;
    }

    @Override
    public Set<String> producedFields() {
      return ALL_FIELDS;
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      return operator.apply(context);
    }
  }

  private static final class OrderedBound extends Bound implements PageAtATime {
    OrderedBound(Set<String> required, Function<OperatorContext, Operator> operator) {
      super(required, operator);
    }
  }
}
