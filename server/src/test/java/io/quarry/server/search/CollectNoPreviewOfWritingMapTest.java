package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Review of session 34 (review-c2): a batch {@code stats} preview runs the commands after it over
 * the groups merged so far, once a second while a client asks; {@code map} runs a search per group
 * there, and a {@code collect} in those searches writes each time.
 */
class CollectNoPreviewOfWritingMapTest {
  private static final Parser PARSER = new Parser(CommandRegistry.builtIns());

  @Test
  void noPreviewRunsAMapWhoseSearchesMayWrite() {
    assertThat(
            AggregationPreview.previews(
                parse(
                    "map search=\"| makeresults | eval s=$status$" + " | collect index=summary\"")))
        .isFalse();
  }

  private static List<Command> parse(String commands) {
    List<Command> parsed = PARSER.parse("* | " + commands).commands();
    return parsed.subList(1, parsed.size());
  }
}
