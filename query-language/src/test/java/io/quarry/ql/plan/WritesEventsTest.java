package io.quarry.ql.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one "may write" test every read-only check asks ({@link WritesEvents#mayWrite}). */
class WritesEventsTest {
  private final Parser parser = new Parser(CommandRegistry.builtIns());

  @Test
  void collectOutputlookupAndAMapMayWriteOtherCommandsDoNot() {
    List<Command> commands =
        parser
            .parse(
                "| makeresults | eval a=1 | collect index=summary | outputlookup t"
                    + " | map search=\"| makeresults\" | lookup t a | stats count")
            .commands();
    assertThat(commands.stream().filter(WritesEvents::mayWrite).map(Command::name))
        .containsExactly("collect", "outputlookup", "map");
    assertThat(commands.stream().map(RunsSearches::of).filter(r -> r != null).count()).isEqualTo(1);
  }
}
