package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import java.util.List;

/**
 * {@code addcoltotals [labelfield=<field>] [label=<string>] [<field> …]}: a last result holding the
 * sum of each numeric field — {@code addtotals row=false col=true}, whose operator it uses.
 */
final class AddColTotalsCommand implements CommandDefinition {

  @Override
  public String name() {
    return "addcoltotals";
  }

  @Override
  public String description() {
    return "Appends a result with the sum of each numeric field (the named ones, wildcards"
        + " allowed, or every field not starting with _).";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
            "labelfield", ArgumentType.FIELD, null, "the field of the sum row's label"),
        ArgumentSpec.optional("label", ArgumentType.STRING, "Total", "the sum row's label"),
        ArgumentSpec.optional(
            "fields",
            ArgumentType.FIELD_LIST,
            null,
            "the fields to sum, wildcards allowed (default: every field not starting with _)"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new AddTotalsCommand.Bound(
        false,
        true,
        arguments.has("labelfield") ? arguments.getString("labelfield") : null,
        arguments.getString("label"),
        "Total",
        arguments.fields());
  }
}
