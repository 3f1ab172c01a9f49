package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.Expression;
import io.quarry.ql.ast.WhereCommand;
import io.quarry.ql.exec.EvalFunctions;
import io.quarry.ql.parser.ExpressionParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code eval f=expr, …} and {@code where expr}: the command's text goes to the expression parser.
 */
public final class EvalParser implements CommandParser {
  private final boolean where;

  EvalParser(boolean where) {
    this.where = where;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    int start = reader.peek().position().offset();
    while (!reader.atCommandEnd()) {
      reader.next();
    }
    int end = reader.peek().position().offset();
    ExpressionParser parser = new ExpressionParser(reader.query(), start, end);
    if (parser.atEnd()) {
      throw reader.unexpected(
          reader.peek(),
          where ? "a condition after where" : "an assignment such as x=1 after eval");
    }
    if (where) {
      Expression condition = parser.expression();
      if (!parser.atEnd()) {
        throw parser.error(
            parser.offset(),
            "Unexpected text after the condition",
            "an operator, '|' or the end of the query");
      }
      check(parser, condition);
      return new WhereCommand(condition, name.position());
    }
    return new EvalCommand(assignments(parser), name.position());
  }

  /**
   * The assignments {@code f=expr, …} of an {@code eval} written in {@code query} from {@code
   * start} to {@code end} (a built-in that evaluates eval text of its own: {@code foreach}).
   *
   * @throws io.quarry.ql.parser.QueryParseException at the offending character
   */
  public static List<EvalCommand.Assignment> assignments(String query, int start, int end) {
    ExpressionParser parser = new ExpressionParser(query, start, end);
    if (parser.atEnd()) {
      throw parser.error(start, "eval needs an assignment such as x=1", "an assignment");
    }
    return assignments(parser);
  }

  private static List<EvalCommand.Assignment> assignments(ExpressionParser parser) {
    List<EvalCommand.Assignment> assignments = new ArrayList<>();
    do {
      String field = parser.fieldName("a field name to assign");
      parser.expect('=');
      Expression expression = parser.expression();
      check(parser, expression);
      assignments.add(new EvalCommand.Assignment(field, expression));
    } while (parser.accept(','));
    if (!parser.atEnd()) {
      throw parser.error(
          parser.offset(),
          "Unexpected text after the expression",
          "',', an operator, '|' or the end of the query");
    }
    return assignments;
  }

  static void check(ExpressionParser parser, Expression expression) {
    EvalFunctions.Problem problem = EvalFunctions.check(expression);
    if (problem != null) {
      throw parser.error(problem.offset(), problem.message(), problem.expected());
    }
  }
}
