package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Review finding: after {@code _raw} is gone a bare word asks every field of the row
 * (FieldValueTerm), and the needed-field walk answers {@code *} for a {@code search} of one — but
 * not for the same term in {@code searchmatch()} ({@code where}, {@code eval}), whose answer then
 * depends on which fields the source happened to load.
 */
class SearchMatchWithoutRawTest {
  @Test
  void aSearchOfABareWordAfterRawIsGoneNeedsEveryField() {
    assertThat(InputFields.of(parse("fields - _raw | search web-1"), List.of())).contains("*");
  }

  @Test
  void searchmatchOfABareWordAfterRawIsGoneNeedsEveryFieldToo() {
    assertThat(InputFields.of(parse("fields - _raw | where searchmatch(\"web-1\")"), List.of()))
        .contains("*");
    assertThat(InputFields.of(parse("fields - _raw | eval m=searchmatch(\"web-1\")"), List.of("m")))
        .contains("*");
  }

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }
}
