package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.eval.SearchFilter;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The events' own text ({@link EventText#OWN_RAW}) goes where {@code _raw} goes: a {@code
 * fields}/{@code table} or {@code rename} keeping {@code _raw} keeps it, so a bare word after them
 * asks the event's text whatever {@code _raw} was set to; one removing {@code _raw} or renaming it
 * away drops it, so the word asks the row's fields. Two events whose {@code _raw} an {@code eval}
 * set to "changed": their own texts hold "payment" and "login"; their {@code user} is "payment" for
 * the second alone.
 */
class OwnTextFollowsRawTest {
  @Test
  void aProjectionKeepingRawKeepsTheOwnText() {
    for (String command :
        List.of("table _raw, id", "fields id, _raw", "fields - user", "table *")) {
      Page page = run(command, events());
      assertThat(page.block(EventText.OWN_RAW)).as(command).isNotNull();
      assertThat(kept(page, "payment")).as(command).containsExactly(0);
    }
  }

  @Test
  void aProjectionOrRenameRemovingRawDropsTheOwnText() {
    for (String command :
        List.of("fields - _raw", "table id, user", "rename _raw AS r", "rename _r* AS x*")) {
      Page page = run(command, events());
      assertThat(page.block(EventText.OWN_RAW)).as(command).isNull();
      // the fields asked: user payment is the second row's whole value, no text is asked
      assertThat(kept(page, "payment")).as(command).containsExactly(1);
      assertThat(kept(page, "login")).as(command).isEmpty();
    }
  }

  @Test
  void aRenameKeepingRawKeepsTheOwnText() {
    Page page = run("rename user AS u", events());
    assertThat(page.block(EventText.OWN_RAW)).isNotNull();
    assertThat(kept(page, "login")).containsExactly(1);
  }

  private static Page events() {
    return PageBuilder.toPage(
        List.of("_raw", "id", "user", EventText.OWN_RAW),
        List.of(
            List.of(List.of("changed"), List.of("changed")),
            List.of(List.of("1"), List.of("2")),
            List.of(List.of("alice"), List.of("payment")),
            List.of(List.of("id=1 payment failed"), List.of("id=2 login ok"))),
        2);
  }

  private static Page run(String command, Page page) {
    Command parsed = parse(command);
    Operator operator =
        parsed instanceof ProjectCommand project
            ? new ProjectOperator(project)
            : new RenameOperator((RenameCommand) parsed);
    operator.addInput(page);
    operator.finish();
    return operator.getOutput();
  }

  /** The positions a search of {@code term} keeps, its words matched as whole words of a text. */
  private static List<Integer> kept(Page page, String term) {
    Query query = new Parser(CommandRegistry.builtIns()).parse("* | search " + term);
    SearchFilter filter =
        SearchFilter.compile(
            ((io.quarry.ql.ast.SearchCommand) query.commands().get(1)).expression().orElseThrow(),
            (text, searched) -> List.of(text.split("[ =]")).contains(searched.text()));
    boolean[] keeps = new boolean[page.positionCount()];
    filter.matches(page, keeps);
    List<Integer> positions = new ArrayList<>();
    for (int p = 0; p < keeps.length; p++) {
      if (keeps[p]) {
        positions.add(p);
      }
    }
    return positions;
  }

  private static Command parse(String command) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + command);
    return parsed.commands().get(1);
  }
}
