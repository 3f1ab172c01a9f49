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
 * The events' own text ({@link EventText#OWN_RAW}) goes where {@code _raw} goes, decided by the
 * command: a {@code fields}/{@code table} keeping {@code _raw} keeps it at the rows still holding a
 * {@code _raw} (one whose {@code _raw} is null is listed without it: its fields are asked), a
 * {@code rename} keeping {@code _raw} keeps it; one removing {@code _raw} or renaming it away drops
 * it, so a word asks the row's fields. A word reads a row's current {@code _raw} first, the own
 * text only where that is null. Two events: the first's {@code _raw} an {@code eval} set to null,
 * the second's to "changed"; their own texts hold "payment failed" and "login ok"; their {@code
 * user} is "payment" for the second alone.
 */
class OwnTextFollowsRawTest {
  @Test
  void aProjectionKeepingRawKeepsTheOwnTextWhereARowHoldsRaw() {
    for (String command :
        List.of("table _raw, id", "fields id, _raw", "fields - user", "table *")) {
      Page page = run(command, events());
      assertThat(page.block(EventText.OWN_RAW)).as(command).isNotNull();
      assertThat(kept(page, "changed")).as(command).containsExactly(1);
      // the first row, listed without _raw, asks its fields; the second its current _raw
      assertThat(kept(page, "failed")).as(command).isEmpty();
      assertThat(kept(page, "login")).as(command).isEmpty();
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
    assertThat(kept(page, "failed")).as("a null _raw: the own text").containsExactly(0);
    assertThat(kept(page, "login")).as("a _raw set: that one").isEmpty();
    assertThat(kept(page, "changed")).containsExactly(1);
  }

  private static Page events() {
    return PageBuilder.toPage(
        List.of("_raw", "id", "user", EventText.OWN_RAW),
        List.of(
            List.of(List.of(), List.of("changed")),
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
