package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.FormatsResults;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.command.EvalParser;
import io.quarry.ql.exec.PageEval;
import io.quarry.ql.parser.Position;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code fieldformat <field>=<eval-expression>}: how a field's values are shown, without changing
 * the values later commands compute with. The planner moves it to the end of the search ({@code
 * plan.FieldFormats}), where it is an {@code eval} of the final results that keeps a missing field
 * missing; run where it stands (a pipeline not planned), it is that {@code eval}.
 */
final class FieldFormatCommand implements CommandDefinition, CustomSyntax {

  @Override
  public String name() {
    return "fieldformat";
  }

  @Override
  public String description() {
    return "Formats how a field's values are shown (an eval of the final results), leaving the"
        + " values later commands use unchanged.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public String syntax() {
    return "fieldformat <field>=<eval-expression>";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("format", ArgumentType.STRING, "<field>=<eval-expression>"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    int start = reader.peek().position().offset();
    while (!reader.atCommandEnd()) {
      reader.next();
    }
    int end = reader.peek().position().offset();
    List<EvalCommand.Assignment> assignments = EvalParser.assignments(reader.query(), start, end);
    if (assignments.size() != 1) {
      throw reader.error(name, "fieldformat takes one <field>=<expression>", "one assignment");
    }
    return new CommandArguments(
        Map.of("format", reader.query().substring(start, end).strip()), List.of());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String text = arguments.getString("format");
    return new Bound(text, EvalParser.assignments(text, 0, text.length()).get(0));
  }

  record Bound(String text, EvalCommand.Assignment format)
      implements BoundCommand, WritesOwnSpl, FormatsResults {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS; // the expression may read any field
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(format.field());
    }

    @Override
    public String splArguments() {
      return SplText.command(new EvalCommand(List.of(format), Position.START))
          .substring("eval ".length());
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
      PageEval eval = PageEval.of(context);
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          List<String> names = new ArrayList<>();
          List<Cells.Column> columns = new ArrayList<>();
          for (Map.Entry<String, List<List<Object>>> column :
              eval.assign(input, List.of(format)).entrySet()) {
            Cells.Column cells = new Cells.Column();
            column.getValue().forEach(cells::add);
            names.add(column.getKey());
            columns.add(cells);
          }
          return Cells.withColumns(factory, input, names, columns);
        }
      };
    }
  }
}
